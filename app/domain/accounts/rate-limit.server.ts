import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { rateLimits } from "#app/db/schema.ts";

export type Limit = { windowSeconds: number; max: number };

/**
 * Counts one attempt under `key` and says whether it is within the limit: a fixed window that
 * starts with the first attempt. One atomic statement in the shared `rate_limits` table, so
 * every server process counts together and simultaneous attempts cannot slip through.
 * (The auth library keeps its per-client counts in the same table under its own keys; ours
 * start with "shop:" and use `last_request` as the window's start.)
 */
export async function consumeLimit(
  db: Database | Transaction,
  key: string,
  limit: Limit,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const now = Date.now();
  const windowStart = now - limit.windowSeconds * 1000;
  const [row] = await db
    .insert(rateLimits)
    .values({ id: randomUUID(), key: `shop:${key}`, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.lastRequest} <= ${windowStart} then 1 else ${rateLimits.count} + 1 end`,
        lastRequest: sql`case when ${rateLimits.lastRequest} <= ${windowStart} then ${now} else ${rateLimits.lastRequest} end`,
      },
    })
    .returning({ count: rateLimits.count, startedAt: rateLimits.lastRequest });
  const count = row?.count ?? 1;
  const startedAt = row?.startedAt ?? now;
  return {
    allowed: count <= limit.max,
    retryAfterSeconds: Math.max(
      1,
      Math.ceil((startedAt + limit.windowSeconds * 1000 - now) / 1000),
    ),
  };
}

/**
 * An address as its mailbox sees it: lower-cased, and without the `+tag` that most providers
 * deliver to the same mailbox (`Victim+1@Example.com` is `victim@example.com`).
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  const plus = address.indexOf("+");
  if (at < 0 || plus <= 0 || plus > at) return address;
  return address.slice(0, plus) + address.slice(at);
}

/**
 * The key of a limit counted per e-mail address: the one place such keys are made, so every
 * limit on an address counts its spellings (capitals, `+tag`s) as the one mailbox they reach.
 */
export function addressLimitKey(purpose: string, email: string): string {
  return `${purpose}:${mailboxOf(email)}`;
}

/** Forgets the attempts under `key` (after a success, so a person's own sign-ins never add up). */
export async function clearLimit(db: Database, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, `shop:${key}`));
}

/** Per-account limits (per e-mail address), on top of the auth library's per-client ones. */
export const ACCOUNT_LIMITS = {
  signIn: { windowSeconds: 15 * 60, max: 10 },
  passwordReset: { windowSeconds: 60 * 60, max: 3 },
  confirmationEmail: { windowSeconds: 60 * 60, max: 3 },
  register: { windowSeconds: 60 * 60, max: 5 },
} satisfies Record<string, Limit>;

/** Per-client limit of the registration form (its answer says whether an address is taken). */
export const REGISTER_PER_CLIENT: Limit = { windowSeconds: 5 * 60, max: 5 };
