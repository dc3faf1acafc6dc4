import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rateLimits } from "#app/db/schema.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { addressLimitKey, clearLimit, consumeLimit, mailboxOf } from "./rate-limit.server.ts";

const db = testDatabase();
/** A key no other test counts under. */
const aKey = () => `test:${randomUUID()}`;
const threeAMinute = { windowSeconds: 60, max: 3 };

afterEach(() => {
  vi.useRealTimers();
});

describe("mailboxOf and addressLimitKey", () => {
  it("reads an address as its mailbox sees it: lower-case, without the +tag of its local part", () => {
    expect(mailboxOf("Victim+1@Example.com")).toBe("victim@example.com");
    expect(mailboxOf(" victim+shop+2@example.com ")).toBe("victim@example.com");
    expect(mailboxOf("VICTIM@EXAMPLE.COM")).toBe("victim@example.com");
    // Nothing before the +: there is no tag to take off.
    expect(mailboxOf("+1@example.com")).toBe("+1@example.com");
    // A + in the domain is no tag either.
    expect(mailboxOf("victim@ex+ample.com")).toBe("victim@ex+ample.com");
    expect(mailboxOf("not an address")).toBe("not an address");
  });

  it("keys every per-address limit on the mailbox, so its spellings share one count", () => {
    const keys = ["victim@example.com", "Victim+1@example.com", "victim+2@EXAMPLE.com"].map(
      (email) => addressLimitKey("alert:address", email),
    );
    expect(new Set(keys)).toEqual(new Set(["alert:address:victim@example.com"]));
    expect(addressLimitKey("sign-in", "someone.else@example.com")).toBe(
      "sign-in:someone.else@example.com",
    );
  });
});

describe("consumeLimit", () => {
  it("allows `max` attempts in the window, refuses the next, and says when to come back", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-05-04T10:00:00Z") });
    const key = aKey();
    for (let i = 0; i < 3; i++) {
      expect(await consumeLimit(db, key, threeAMinute)).toEqual({
        allowed: true,
        retryAfterSeconds: 60,
      });
    }
    // 20.5 s later: the window that began with the first attempt has 39.5 s left, said as 40.
    vi.setSystemTime(new Date("2026-05-04T10:00:20.500Z"));
    expect(await consumeLimit(db, key, threeAMinute)).toEqual({
      allowed: false,
      retryAfterSeconds: 40,
    });
    // The refusals count too: the window does not move, and the count is kept in the table.
    const [row] = await db
      .select({ count: rateLimits.count, lastRequest: rateLimits.lastRequest })
      .from(rateLimits)
      .where(eq(rateLimits.key, `shop:${key}`));
    expect(row).toEqual({ count: 4, lastRequest: Date.parse("2026-05-04T10:00:00Z") });
  });

  it("starts a new window once the old one has passed, never saying less than a second", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-05-04T10:00:00Z") });
    const key = aKey();
    for (let i = 0; i < 4; i++) await consumeLimit(db, key, threeAMinute);
    vi.setSystemTime(new Date("2026-05-04T10:00:59.800Z"));
    expect(await consumeLimit(db, key, threeAMinute)).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
    });
    // Exactly a window later the count starts again from this attempt.
    vi.setSystemTime(new Date("2026-05-04T10:01:00Z"));
    expect(await consumeLimit(db, key, threeAMinute)).toEqual({
      allowed: true,
      retryAfterSeconds: 60,
    });
    expect((await consumeLimit(db, key, threeAMinute)).allowed).toBe(true);
    expect((await consumeLimit(db, key, threeAMinute)).allowed).toBe(true);
    expect((await consumeLimit(db, key, threeAMinute)).allowed).toBe(false);
  });

  it("counts every key apart, and forgets one when it is cleared", async () => {
    const [mine, yours] = [aKey(), aKey()];
    const one = { windowSeconds: 3600, max: 1 };
    expect((await consumeLimit(db, mine, one)).allowed).toBe(true);
    expect((await consumeLimit(db, mine, one)).allowed).toBe(false);
    expect((await consumeLimit(db, yours, one)).allowed).toBe(true);
    await clearLimit(db, mine);
    expect((await consumeLimit(db, mine, one)).allowed).toBe(true);
    expect((await consumeLimit(db, yours, one)).allowed).toBe(false);
  });

  it("lets exactly `max` of many simultaneous attempts through", async () => {
    const key = aKey();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => consumeLimit(db, key, threeAMinute)),
    );
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(3);
  });

  it("counts inside a transaction with the rest of it: rolled back, the attempt never was", async () => {
    const key = aKey();
    const one = { windowSeconds: 3600, max: 1 };
    await db
      .transaction(async (tx) => {
        expect((await consumeLimit(tx, key, one)).allowed).toBe(true);
        throw new Error("the rest failed");
      })
      .catch(() => undefined);
    expect((await consumeLimit(db, key, one)).allowed).toBe(true);
  });
});
