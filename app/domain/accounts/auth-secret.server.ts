import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Env } from "#app/lib/env.server.ts";

/**
 * AUTH_SECRET, or outside production one generated once and kept in DATA_DIR so sessions
 * survive restarts and every local process agrees on it.
 */
export function authSecret(env: Pick<Env, "AUTH_SECRET" | "APP_ENV" | "DATA_DIR">): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (env.APP_ENV === "production") throw new Error("AUTH_SECRET is required in production.");
  const file = path.resolve(env.DATA_DIR, "auth-secret");
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
