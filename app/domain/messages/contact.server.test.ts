import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { contacts } from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { contactSchema } from "./contact-input.ts";
import { CONTACT_ADDRESS_LIMIT, CONTACT_LIMIT, submitContactMessage } from "./contact.server.ts";

const db = testDatabase();
let boss: PgBoss;
beforeAll(async () => {
  boss = await startOutbox(inject("databaseUrl"), { onError() {} });
});
afterAll(() => stopOutbox(boss));

const SHOP = "shop-inbox@example.test";

/**
 * A client address no other test has used: the limits count per address in the shared database
 * (a random one of 200 was once the address the first test had sent from, and the flood test
 * counted one send too few).
 */
const freshClientIp = () => `2001:db8::${randomBytes(6).toString("hex").match(/..../g)!.join(":")}`;

async function notificationsFrom(email: string) {
  const { rows } = await db.execute(
    sql`select data from pgboss.job where name = 'mail-send' and data->>'replyTo' = ${email}`,
  );
  return rows as { data: { to: string; subject: string; text: string } }[];
}

describe("the contact form", () => {
  it("keeps the message and queues one notification to the shop, replying to the sender", async () => {
    const email = `sender-${Date.now()}@example.test`;
    const input = contactSchema.parse({
      name: "Rosa Reader",
      email,
      message: "Do you have Stalker on Blu-ray?\n\nThanks!",
    });
    expect(
      await submitContactMessage(db, input, { clientIp: freshClientIp(), shopEmail: SHOP }),
    ).toBe("sent");
    const stored = await db.select().from(contacts).where(eq(contacts.email, email));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.message).toContain("Stalker");
    const [mail, ...more] = await notificationsFrom(email);
    expect(more).toEqual([]);
    expect(mail!.data.to).toBe(SHOP);
    expect(mail!.data.subject).toBe("Contact message from Rosa Reader");
    expect(mail!.data.text).toContain("Do you have Stalker on Blu-ray?");
    // Nothing goes to the address typed: nobody proved it is the sender's.
    const { rows } = await db.execute(
      sql`select 1 from pgboss.job where name = 'mail-send' and data->>'to' = ${email}`,
    );
    expect(rows).toEqual([]);
  });

  it("refuses line breaks in anything that reaches a mail header", () => {
    const injected = contactSchema.safeParse({
      name: "Eve\r\nBcc: everyone@example.test",
      email: "eve@example.test\nBcc: x@example.test",
      message: "Line one\nLine two is fine in the message.",
    });
    expect(injected.success).toBe(false);
    const paths = injected.error!.issues.map((issue) => issue.path[0]);
    expect(paths).toEqual(expect.arrayContaining(["name", "email"]));
    expect(paths).not.toContain("message");
  });

  it("limits messages per client address", async () => {
    const clientIp = freshClientIp();
    const input = contactSchema.parse({
      name: "Flo Od",
      email: `flood-${Date.now()}@example.test`,
      message: "Hello",
    });
    const results = [];
    for (let i = 0; i < CONTACT_LIMIT.max + 2; i++) {
      results.push(await submitContactMessage(db, input, { clientIp, shopEmail: SHOP }));
    }
    expect(results.filter((result) => result === "sent")).toHaveLength(CONTACT_LIMIT.max);
    expect(results.slice(-2)).toEqual(["rate-limited", "rate-limited"]);
    expect(await notificationsFrom(input.email)).toHaveLength(CONTACT_LIMIT.max);
  });

  it("limits messages per e-mail address, whatever the client", async () => {
    const email = `one-name-${Date.now()}@example.test`;
    const input = contactSchema.parse({ name: "Flo Od", email, message: "Hello" });
    const results = [];
    for (let i = 0; i < CONTACT_ADDRESS_LIMIT.max + 1; i++) {
      const clientIp = freshClientIp();
      results.push(await submitContactMessage(db, input, { clientIp, shopEmail: SHOP }));
    }
    expect(results.filter((result) => result === "sent")).toHaveLength(CONTACT_ADDRESS_LIMIT.max);
    expect(results.at(-1)).toBe("address-rate-limited");
    expect(await notificationsFrom(email)).toHaveLength(CONTACT_ADDRESS_LIMIT.max);
  });
});
