import { eq, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { contacts, inboxReplies, serviceRequests } from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import type { OutgoingMail } from "#app/emails/outgoing-mail.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { createBooking } from "#tests/support/booking-fixtures.ts";
import { createStaff } from "#tests/support/staff.ts";
import {
  inboxFilter,
  inboxRef,
  listInbox,
  openInboxItem,
  replyToInboxItem,
  setInboxItemHandled,
  subjectLine,
  type InboxRef,
} from "./inbox.server.ts";
import { openInboxCount } from "./open-count.server.ts";

// The inbox lists and counts every message in the shop: a database of this file's own.
const scratch = scratchDatabase();
let boss: PgBoss;
let outboxUrl: string;
beforeAll(async () => {
  const { rows } = await scratch.db().execute(sql`select current_database() as name`);
  outboxUrl = inject("databaseUrl").replace(/\/[^/]+$/, `/${(rows[0] as { name: string }).name}`);
  boss = await startOutbox(outboxUrl, { onError() {} });
  await createStaff(scratch.db(), "Ann Staff", "staff-ann");
  await createStaff(scratch.db(), "Bob Staff", "staff-bob");
});
afterAll(() => stopOutbox(boss));

const TIME_ZONE = "America/Chicago";
const SHOP_EMAIL = "shop-inbox@example.test";
const ann = { id: "staff-ann", name: "Ann Staff" };
const now = new Date("2026-11-23T16:20:00Z");

let counter = 0;
function address(label: string) {
  counter += 1;
  return `${label}-${counter}@example.test`;
}

async function addContact(fields: Partial<typeof contacts.$inferInsert> = {}) {
  const [row] = await scratch
    .db()
    .insert(contacts)
    .values({
      name: "Rosa Reader",
      email: address("rosa"),
      message: "Do you have Stalker on Blu-ray?",
      ...fields,
    })
    .returning();
  return row!;
}

/** Rhea Pair's confirmed repair booking, at an address of its own. */
const addRepair = (fields: Partial<typeof serviceRequests.$inferInsert> = {}) =>
  createBooking(scratch.db(), { email: address("rhea"), confirmedAt: now, ...fields });

async function mailTo(address: string): Promise<OutgoingMail[]> {
  const { rows } = await scratch
    .db()
    .execute(
      sql`select data from pgboss.job where name = 'mail-send' and data->>'to' = ${address} order by created_on`,
    );
  return (rows as { data: OutgoingMail }[]).map((row) => row.data);
}

async function repliesTo(ref: InboxRef) {
  return scratch
    .db()
    .select()
    .from(inboxReplies)
    .where(sql`${inboxReplies.kind} = ${ref.kind} and ${inboxReplies.itemId} = ${ref.id}`);
}

describe("reading the filter from the address", () => {
  it("takes the kinds and states it knows and defaults the rest to all open items", () => {
    const read = (query: string) => inboxFilter(new URLSearchParams(query));
    expect(read("")).toEqual({ kind: "all", state: "open", page: 1 });
    expect(read("kind=repair&state=handled&page=3")).toEqual({
      kind: "repair",
      state: "handled",
      page: 3,
    });
    expect(read("kind=contact&state=all")).toMatchObject({ kind: "contact", state: "all" });
    expect(read("kind=orders&state=closed&page=-2")).toEqual({
      kind: "all",
      state: "open",
      page: 1,
    });
  });

  it("names an item only with a known kind and a positive id", () => {
    expect(inboxRef("contact", "12")).toEqual({ kind: "contact", id: 12 });
    expect(inboxRef("repair", "1")).toEqual({ kind: "repair", id: 1 });
    for (const [kind, id] of [
      ["order", "12"],
      ["contact", "0"],
      ["contact", "-1"],
      ["repair", "1.5"],
      ["repair", "abc"],
      ["repair", "9999999999"],
      [undefined, "3"],
    ] as const) {
      expect(inboxRef(kind, id)).toBeNull();
    }
  });

  it("cuts long messages to one line of about 80 characters", () => {
    expect(subjectLine("  Hello\n\nthere  ")).toBe("Hello there");
    const long = subjectLine(`${"word ".repeat(40)}end`);
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("the inbox list", () => {
  it("shows both kinds newest first, filters by kind and state, counts each choice, and pages by 20", async () => {
    const base = Date.parse("2026-11-20T12:00:00Z");
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    // 13 messages and 12 repair requests, alternating, one minute apart.
    const made: { kind: "contact" | "repair"; id: number }[] = [];
    for (let i = 0; i < 25; i++) {
      if (i % 2 === 0) {
        const row = await addContact({ message: `Message number ${i}`, createdAt: at(i) });
        made.push({ kind: "contact", id: row.id });
      } else {
        const row = await addRepair({ createdAt: at(i) });
        made.push({ kind: "repair", id: row.id });
      }
    }
    // Two handled, one repair cancelled by its customer, one message already read.
    await scratch
      .db()
      .update(contacts)
      .set({ handledAt: now, handledBy: ann.id })
      .where(eq(contacts.id, made[0]!.id));
    await scratch
      .db()
      .update(serviceRequests)
      .set({ handledAt: now, handledBy: ann.id })
      .where(eq(serviceRequests.id, made[1]!.id));
    await scratch
      .db()
      .update(serviceRequests)
      .set({ cancelledAt: now, cancelledBy: "customer", status: "cancelled" })
      .where(eq(serviceRequests.id, made[3]!.id));
    await scratch.db().update(contacts).set({ readAt: now }).where(eq(contacts.id, made[2]!.id));

    const open = await listInbox(scratch.db(), inboxFilter(new URLSearchParams()), {
      timeZone: TIME_ZONE,
    });
    expect(open.total).toBe(23);
    expect(await openInboxCount(scratch.db())).toBe(23);
    expect(open.kindCounts).toEqual({ all: 23, contact: 12, repair: 11 });
    expect(open.stateCounts).toEqual({ open: 23, handled: 2, all: 25 });
    expect(open.pageCount).toBe(2);
    expect(open.rows).toHaveLength(20);
    // Newest first, both kinds interleaved by arrival.
    const expectedOrder = made
      .slice(2)
      .reverse()
      .map((item) => `${item.kind}-${item.id}`);
    expect(open.rows.map((row) => `${row.kind}-${row.id}`)).toEqual(expectedOrder.slice(0, 20));
    const second = await listInbox(scratch.db(), inboxFilter(new URLSearchParams("page=2")), {
      timeZone: TIME_ZONE,
    });
    expect(second.rows.map((row) => `${row.kind}-${row.id}`)).toEqual(expectedOrder.slice(20));

    const newest = open.rows[0]!;
    expect(newest).toMatchObject({
      kind: "contact",
      name: "Rosa Reader",
      subject: "Message number 24",
      createdAt: at(24),
      unread: true,
      handled: false,
      cancelled: false,
    });
    // A repair's subject is its service and slot, in the shop's time zone.
    expect(open.rows[1]!.subject).toBe("Game Console Repair · Nov 24, 2026, 10:00 AM");
    const read = second.rows.find((row) => row.id === made[2]!.id && row.kind === "contact");
    expect(read?.unread).toBe(false);
    const cancelled = second.rows.find((row) => row.id === made[3]!.id && row.kind === "repair");
    expect(cancelled).toMatchObject({ cancelled: true, handled: false });

    const handled = await listInbox(
      scratch.db(),
      inboxFilter(new URLSearchParams("state=handled")),
      { timeZone: TIME_ZONE },
    );
    expect(handled.rows.map((row) => `${row.kind}-${row.id}`)).toEqual([
      `repair-${made[1]!.id}`,
      `contact-${made[0]!.id}`,
    ]);
    expect(handled.kindCounts).toEqual({ all: 2, contact: 1, repair: 1 });

    const repairs = await listInbox(
      scratch.db(),
      inboxFilter(new URLSearchParams("kind=repair&state=all")),
      { timeZone: TIME_ZONE },
    );
    expect(repairs.total).toBe(12);
    expect(repairs.rows.every((row) => row.kind === "repair")).toBe(true);
    expect(repairs.stateCounts).toEqual({ open: 11, handled: 1, all: 12 });
    expect(repairs.kindCounts).toEqual({ all: 25, contact: 13, repair: 12 });

    // A page past the end shows the last one.
    const far = await listInbox(scratch.db(), inboxFilter(new URLSearchParams("page=99")), {
      timeZone: TIME_ZONE,
    });
    expect(far.page).toBe(2);
    expect(far.rows).toHaveLength(3);
  });
});

describe("an item's page", () => {
  it("marks the item read the first time staff open it, and keeps that time", async () => {
    const contact = await addContact();
    const ref = { kind: "contact", id: contact.id } as const;
    const first = await openInboxItem(scratch.db(), ref, { now });
    expect(first?.item).toMatchObject({
      kind: "contact",
      message: contact.message,
      readAt: now,
      handledAt: null,
    });
    expect(first?.replies).toEqual([]);
    const later = new Date(now.getTime() + 3_600_000);
    const again = await openInboxItem(scratch.db(), ref, { now: later });
    expect(again?.item.readAt).toEqual(now);

    const repair = await addRepair();
    const opened = await openInboxItem(
      scratch.db(),
      { kind: "repair", id: repair.id },
      { now: later },
    );
    expect(opened?.item).toMatchObject({
      kind: "repair",
      serviceType: "Game Console Repair",
      phone: "(817) 555-0199",
      startsAt: repair.startsAt,
      readAt: later,
      cancelledAt: null,
    });

    expect(await openInboxItem(scratch.db(), { kind: "contact", id: 999_999 }, { now })).toBeNull();
  });

  it("marks handled and reopens; of two staff at once one changes it and the other is told", async () => {
    const contact = await addContact();
    const ref = { kind: "contact", id: contact.id } as const;
    const results = await Promise.all([
      setInboxItemHandled(scratch.db(), ref, true, { staffId: "staff-ann", now }),
      setInboxItemHandled(scratch.db(), ref, true, { staffId: "staff-bob", now }),
    ]);
    expect([...results].sort()).toEqual(["changed", "unchanged"]);
    const winner = results[0] === "changed" ? "Ann Staff" : "Bob Staff";
    const opened = await openInboxItem(scratch.db(), ref, { now });
    expect(opened?.item).toMatchObject({ handledAt: now, handledByName: winner });

    expect(await setInboxItemHandled(scratch.db(), ref, false, { staffId: "staff-bob", now })).toBe(
      "changed",
    );
    expect(await setInboxItemHandled(scratch.db(), ref, false, { staffId: "staff-ann", now })).toBe(
      "unchanged",
    );
    const reopened = await openInboxItem(scratch.db(), ref, { now });
    expect(reopened?.item).toMatchObject({ handledAt: null, handledByName: null });

    const repair = await addRepair();
    expect(
      await setInboxItemHandled(scratch.db(), { kind: "repair", id: repair.id }, true, {
        staffId: "staff-ann",
        now,
      }),
    ).toBe("changed");
    expect(
      await setInboxItemHandled(scratch.db(), { kind: "repair", id: 999_999 }, true, {
        staffId: "staff-ann",
        now,
      }),
    ).toBe("not-found");
  });
});

describe("replying from the inbox", () => {
  const options = { staffId: ann.id, shopEmail: SHOP_EMAIL, now, timeZone: TIME_ZONE };

  it("keeps the reply, queues the e-mail to the sender and marks the message handled", async () => {
    const contact = await addContact({ message: "Do you repair\nPlayStation 2 consoles?" });
    const ref = { kind: "contact", id: contact.id } as const;
    const result = await replyToInboxItem(
      scratch.db(),
      ref,
      { body: "Yes, we do.\n\nBring it in any weekday.", markHandled: true },
      options,
    );
    expect(result).toEqual({ ok: true, to: contact.email, handled: true });

    const [mail, ...more] = await mailTo(contact.email);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      to: contact.email,
      replyTo: SHOP_EMAIL,
      subject: "Re: your message to Reel & Repair",
    });
    expect(mail!.text).toContain("Yes, we do.");
    expect(mail!.text).toContain("Bring it in any weekday.");
    expect(mail!.text).toContain("Ann Staff, Reel & Repair");
    expect(mail!.html).toContain("Bring it in any weekday.");
    // Nobody proved the address is the sender's: the reply carries none of their words.
    expect(mail!.text).toContain("Hello,");
    for (const typed of ["Rosa", "PlayStation", "You wrote"]) {
      expect(JSON.stringify(mail)).not.toContain(typed);
    }

    const second = await replyToInboxItem(
      scratch.db(),
      ref,
      { body: "One more thing: we open at 10.", markHandled: false },
      { ...options, now: new Date(now.getTime() + 60_000) },
    );
    expect(second).toEqual({ ok: true, to: contact.email, handled: true });
    const opened = await openInboxItem(scratch.db(), ref, { now });
    expect(opened?.item).toMatchObject({ handledAt: now, handledByName: "Ann Staff" });
    expect(opened?.replies.map((reply) => [reply.body, reply.sentByName])).toEqual([
      ["Yes, we do.\n\nBring it in any weekday.", "Ann Staff"],
      ["One more thing: we open at 10.", "Ann Staff"],
    ]);
    expect(await mailTo(contact.email)).toHaveLength(2);
  });

  it("never quotes a stranger's words back, whatever they typed as their name and message", async () => {
    const contact = await addContact({
      name: "Claim your prize at evil dot example",
      message: "Your account is locked: sign in at https://evil.example/login",
    });
    await replyToInboxItem(
      scratch.db(),
      { kind: "contact", id: contact.id },
      { body: "We could not find an order of yours.", markHandled: true },
      options,
    );
    const [mail] = await mailTo(contact.email);
    expect(mail!.text).toContain("We could not find an order of yours.");
    for (const typed of ["Claim", "prize", "evil", "locked"]) {
      expect(JSON.stringify(mail)).not.toContain(typed);
    }
  });

  it("answers a repair request about its appointment and can leave it open", async () => {
    const repair = await addRepair();
    const ref = { kind: "repair", id: repair.id } as const;
    const result = await replyToInboxItem(
      scratch.db(),
      ref,
      { body: "Please bring the HDMI cable too.", markHandled: false },
      options,
    );
    expect(result).toEqual({ ok: true, to: repair.email, handled: false });
    const [mail] = await mailTo(repair.email);
    expect(mail!.subject).toBe("Re: your repair appointment");
    expect(mail!.text).toContain("Please bring the HDMI cable too.");
    // Its address was proven by the booking's confirmation: the customer's first name is fine.
    expect(mail!.text).toContain("Hello Rhea,");
    expect(mail!.text).toContain(
      "Your appointment: Game Console Repair, Tuesday, November 24, 2026 at 10:00 AM CST.",
    );
    const opened = await openInboxItem(scratch.db(), ref, { now });
    expect(opened?.item.handledAt).toBeNull();
    expect(opened?.replies).toHaveLength(1);
    // A message with the same id is another item: its replies are its own.
    expect(await repliesTo({ kind: "contact", id: repair.id })).toEqual([]);
  });

  it("keeps nothing for an item that does not exist", async () => {
    const ref = { kind: "contact", id: 999_999 } as const;
    expect(
      await replyToInboxItem(scratch.db(), ref, { body: "Hello", markHandled: true }, options),
    ).toEqual({ ok: false, reason: "not-found" });
    expect(await repliesTo(ref)).toEqual([]);
  });

  it("keeps neither the reply nor the handled mark when the e-mail cannot be queued", async () => {
    const contact = await addContact();
    const ref = { kind: "contact", id: contact.id } as const;
    await stopOutbox(boss);
    try {
      await expect(
        replyToInboxItem(scratch.db(), ref, { body: "Lost?", markHandled: true }, options),
      ).rejects.toThrow(/mail queue/);
    } finally {
      boss = await startOutbox(outboxUrl, { onError() {} });
    }
    expect(await repliesTo(ref)).toEqual([]);
    const opened = await openInboxItem(scratch.db(), ref, { now });
    expect(opened?.item.handledAt).toBeNull();
    expect(await mailTo(contact.email)).toEqual([]);
  });
});

describe("repair bookings awaiting their e-mail confirmation", () => {
  const options = { staffId: ann.id, shopEmail: SHOP_EMAIL, now, timeZone: TIME_ZONE };

  it("never reach staff: not listed, not counted, not opened, not answered", async () => {
    const before = await listInbox(scratch.db(), inboxFilter(new URLSearchParams("state=all")), {
      timeZone: TIME_ZONE,
    });
    const openBefore = await openInboxCount(scratch.db());
    const held = await addRepair({
      confirmedAt: null,
      confirmBy: new Date(now.getTime() + 30 * 60_000),
    });
    const lapsed = await addRepair({ confirmedAt: null, confirmBy: now });
    const after = await listInbox(scratch.db(), inboxFilter(new URLSearchParams("state=all")), {
      timeZone: TIME_ZONE,
    });
    expect(after.total).toBe(before.total);
    expect(after.kindCounts).toEqual(before.kindCounts);
    expect(after.rows.map((row) => row.email)).not.toContain(held.email);
    expect(await openInboxCount(scratch.db())).toBe(openBefore);
    for (const row of [held, lapsed]) {
      const ref = { kind: "repair", id: row.id } as const;
      expect(await openInboxItem(scratch.db(), ref, { now })).toBeNull();
      expect(await setInboxItemHandled(scratch.db(), ref, true, { staffId: ann.id, now })).toBe(
        "not-found",
      );
      expect(
        await replyToInboxItem(scratch.db(), ref, { body: "Hi", markHandled: true }, options),
      ).toEqual({ ok: false, reason: "not-found" });
      expect(await mailTo(row.email)).toEqual([]);
    }

    // Once confirmed it arrives like any booking.
    await scratch
      .db()
      .update(serviceRequests)
      .set({ confirmedAt: now })
      .where(eq(serviceRequests.id, held.id));
    expect(await openInboxCount(scratch.db())).toBe(openBefore + 1);
    expect(
      await openInboxItem(scratch.db(), { kind: "repair", id: held.id }, { now }),
    ).not.toBeNull();
  });
});
