import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Env } from "#app/lib/env.server.ts";

/** The secrets read from (or written to) DATA_DIR, by file: they never change while running. */
const kept = new Map<string, string>();

/**
 * AUTH_SECRET, or outside production one generated once and kept in DATA_DIR so sessions
 * survive restarts and every local process agrees on it. Read from the file once per process
 * (a payment button or a signed link asks for it on every request).
 */
export function authSecret(env: Pick<Env, "AUTH_SECRET" | "APP_ENV" | "DATA_DIR">): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (env.APP_ENV === "production") throw new Error("AUTH_SECRET is required in production.");
  const file = path.resolve(env.DATA_DIR, "auth-secret");
  let secret = kept.get(file);
  if (secret === undefined) {
    secret = readOrCreate(file);
    kept.set(file, secret);
  }
  return secret;
}

function readOrCreate(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(48).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      // Another process wrote it first.
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}
