import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { data } from "react-router";
import { getEnv } from "#app/lib/env.server.ts";
import type { OutgoingMail } from "#app/emails/outgoing-mail.ts";
import { clientIp, isLoopback } from "#app/lib/client-ip.ts";

/**
 * The development mailbox: without SMTP_URL (and outside production) messages are kept as files
 * in DATA_DIR/mailbox and shown at /dev/mailbox, so sign-up and reset work on a laptop.
 */
export type StoredMail = OutgoingMail & { id: string; from: string; sentAt: string };

const ID_PATTERN = /^[0-9]{13}-[0-9a-f-]{36}$/;

export function mailboxDir(dataDir: string) {
  return path.resolve(dataDir, "mailbox");
}

export async function storeMail(dataDir: string, from: string, mail: OutgoingMail) {
  const dir = mailboxDir(dataDir);
  await fs.mkdir(dir, { recursive: true });
  const stored: StoredMail = {
    ...mail,
    from,
    id: `${Date.now()}-${randomUUID()}`,
    sentAt: new Date().toISOString(),
  };
  await fs.writeFile(path.join(dir, `${stored.id}.json`), JSON.stringify(stored), { mode: 0o600 });
  return stored;
}

/** Newest first. */
export async function listMail(dataDir: string, limit = 100): Promise<StoredMail[]> {
  let files: string[];
  try {
    files = await fs.readdir(mailboxDir(dataDir));
  } catch {
    return [];
  }
  const newest = files
    .filter((file) => file.endsWith(".json"))
    .sort()
    .reverse()
    .slice(0, limit);
  const messages = await Promise.all(newest.map((file) => readMail(dataDir, file.slice(0, -5))));
  return messages.filter((message): message is StoredMail => message !== undefined);
}

export async function readMail(dataDir: string, id: string): Promise<StoredMail | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  try {
    const raw = await fs.readFile(path.join(mailboxDir(dataDir), `${id}.json`), "utf8");
    return JSON.parse(raw) as StoredMail;
  } catch {
    return undefined;
  }
}

/** The web addresses in a message's text, for clicking from the mailbox page and the log. */
export function linksIn(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
  // A sentence may end right after an address: its full stop is not part of it.
  return [...new Set(found.map((link) => link.replace(/[.,;:!?)]+$/, "")))];
}

/**
 * For the mailbox pages: a 404 in production, wherever real SMTP is configured, and for anyone
 * but this machine (the mailbox holds every reset link).
 */
export function requireDevMailbox(request: Request) {
  const env = getEnv();
  if (env.APP_ENV === "production" || env.SMTP_URL || !isLoopback(clientIp(request))) {
    throw data(null, { status: 404 });
  }
  return env;
}
