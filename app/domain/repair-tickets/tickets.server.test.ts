import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { repairTicketPhotos, repairTickets, serviceRequests, users } from "#app/db/schema.ts";
import { createLocalStorage, type PosterStorage } from "#app/domain/posters/storage.server.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { scratchOutbox } from "#tests/support/scratch-outbox.ts";
import { createBooking } from "#tests/support/booking-fixtures.ts";
import { createStaff } from "#tests/support/staff.ts";
import { isTicketStatusToken, ticketStatusPath } from "./status-link.server.ts";
import type { TicketStatus } from "./status.ts";
import { collectSchema, estimateSchema, ticketSchema } from "./ticket-input.ts";
import { ticketPhoto } from "./photos.server.ts";
import { openTillSession } from "#app/domain/counter/till.server.ts";
import { collectTicket, type CollectInput } from "./payments.server.ts";
import {
  decideEstimate,
  getTicket,
  moveTicket,
  openTicket,
  repairBoard,
  repairSummary,
  sendEstimate,
  ticketsForCustomer,
} from "./tickets.server.ts";

// The repair board counts tickets shop-wide: a database of this file's own.
const scratch = scratchDatabase();
const { mailTo } = scratchOutbox(scratch);
beforeAll(async () => {
  for (const staff of [alice, bob]) await createStaff(scratch.db(), staff.name, staff.id);
  // Cash taken at collection goes into the open till.
  await openTillSession(scratch.db(), 10_000, alice);
});

const alice: Staff = { id: `staff-${randomUUID()}`, name: "Alice Admin" };
const bob: Staff = { id: `staff-${randomUUID()}`, name: "Bob Bench" };
const links = { publicUrl: "https://shop.example.test", secret: "test-secret-for-tickets" };
const today = "2026-11-25";
const HOURS = "Mon–Sat 10:00–18:00, closed Sunday";

let counter = 0;
function intake(fields: Record<string, unknown> = {}) {
  counter += 1;
  return ticketSchema.parse({
    name: "Rosa Reader",
    email: `rosa-${counter}-${randomUUID().slice(0, 6)}@example.test`,
    phone: "(817) 555-0199",
    serviceType: "PC & Laptop Repair",
    deviceKind: "Laptop",
    deviceBrand: "Dell",
    deviceModel: "XPS 13",
    deviceSerial: `SN-${counter}-ABC`,
    problem: "It does not start; the light blinks amber.",
    conditionAtIntake: "Scratch on the lid.",
    accessories: "Charger",
    promisedDate: "2026-12-01",
    ...fields,
  });
}

async function open(fields: Record<string, unknown> = {}) {
  const opened = await openTicket(scratch.db(), intake(fields), { staff: alice, links, today });
  if (!opened.ok) throw new Error(opened.message);
  return opened.number;
}

const estimate = (
  from: string,
  lines = [
    { kind: "part", description: "Power board", quantity: 1, unitPrice: "89.50" },
    { kind: "labour", description: "Labour, 1 hour", quantity: 1, unitPrice: "60" },
  ],
) => estimateSchema.parse({ from, lines });

/** Moves a ticket from one status to another, as Bob at the bench unless told. */
const move = (number: number, from: TicketStatus, to: TicketStatus, note = "", staff = bob) =>
  moveTicket(scratch.db(), number, { from, to, note }, { staff, links, hours: HOURS });

/** Sends an estimate (the two usual lines unless told) as Bob, with Texas tax of 8.25 %. */
const sendEstimateAsBob = (
  number: number,
  from: TicketStatus,
  lines?: Parameters<typeof estimate>[1],
) =>
  sendEstimate(scratch.db(), number, estimate(from, lines), { staff: bob, links, taxRate: 0.0825 });

/** Collects a ticket at the counter, as `staff`. */
const collect = (number: number, staff: Staff, input: Omit<CollectInput, "formKey">) =>
  collectTicket(
    scratch.db(),
    number,
    { ...input, formKey: randomUUID() },
    { staff, links, timeZone: "America/Chicago" },
  );

/** Takes a new ticket to diagnosing and sends it the usual estimate ($161.83); the estimate's id. */
async function diagnosedWithEstimate(number: number) {
  await move(number, "checked_in", "diagnosing");
  await sendEstimateAsBob(number, "diagnosing");
  return (await getTicket(scratch.db(), number))!.estimates[0]!.id;
}

/** A confirmed repair booking of a game console (cancelled too where told); its id. */
async function booking(fields: { name?: string; email?: string; cancelledAt?: Date } = {}) {
  return (await createBooking(scratch.db(), { confirmedAt: new Date(), ...fields })).id;
}

describe("the intake form sent again", () => {
  it("opens one ticket without a deposit, sent one after the other or at once, and mails once", async () => {
    const input = intake();
    const formKey = randomUUID();
    const send = () => openTicket(scratch.db(), input, { staff: alice, links, today, formKey });
    const first = await send();
    if (!first.ok) throw new Error(first.message);
    expect(await send()).toEqual({
      ok: true,
      number: first.number,
      depositId: null,
      replayed: true,
      message: `Ticket R-${first.number} is open.`,
    });
    const atOnce = intake();
    const otherKey = randomUUID();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        openTicket(scratch.db(), atOnce, { staff: alice, links, today, formKey: otherKey }),
      ),
    );
    const numbers = answers.map((answer) => (answer.ok ? answer.number : answer.message));
    expect(new Set(numbers).size).toBe(1);
    expect(answers.filter((answer) => answer.ok && !answer.replayed)).toHaveLength(1);
    for (const email of [input.email, atOnce.email]) {
      const opened = await scratch
        .db()
        .select({ number: repairTickets.number })
        .from(repairTickets)
        .where(eq(repairTickets.customerEmail, email));
      expect(opened).toHaveLength(1);
      expect(await mailTo(email)).toHaveLength(1);
    }
    // Another form (a new key) is another ticket, even for the same device.
    const again = await openTicket(scratch.db(), input, {
      staff: alice,
      links,
      today,
      formKey: randomUUID(),
    });
    expect(again.ok && again.number).not.toBe(first.number);
  });
});

describe("a repair ticket from intake to collection", () => {
  it("opens with a readable number, mails the customer a signed status link, and keeps who checked it in", async () => {
    const input = intake();
    const opened = await openTicket(scratch.db(), input, { staff: alice, links, today });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.number).toBeGreaterThanOrEqual(1001);
    expect(opened.message).toBe(`Ticket R-${opened.number} is open.`);

    const [mail] = await mailTo(input.email);
    expect(mail!.subject).toBe(`Repair R-${opened.number}: we have your Dell XPS 13 laptop`);
    expect(mail!.text).toContain("Tuesday, December 1");
    const path = ticketStatusPath(opened.number, links.secret);
    expect(mail!.text).toContain(`https://shop.example.test${path}`);

    const view = await getTicket(scratch.db(), opened.number);
    expect(view!.ticket.status).toBe("checked_in");
    expect(view!.events).toMatchObject([
      { fromStatus: null, toStatus: "checked_in", actorName: "Alice Admin" },
    ]);
  });

  it("refuses a promised date in the past, next to the field", async () => {
    const opened = await openTicket(scratch.db(), intake({ promisedDate: "2026-11-24" }), {
      staff: alice,
      links,
      today,
    });
    expect(opened).toMatchObject({
      ok: false,
      field: "promisedDate",
      message: "The promised date cannot be in the past.",
    });
  });

  it("goes checked in → diagnosing → estimate → approved → repairing → ready (e-mail) → collected", async () => {
    const input = intake();
    const number = await open({ email: input.email });
    const db = scratch.db();
    expect(await move(number, "checked_in", "diagnosing")).toMatchObject({ ok: true });

    const sent = await sendEstimateAsBob(number, "diagnosing");
    // 89.50 + 60.00 = 149.50; tax 8.25 % = 12.33; total 161.83.
    expect(sent).toMatchObject({ ok: true, version: 1, totalCents: 16_183 });
    const estimateMail = (await mailTo(input.email)).at(-1)!;
    expect(estimateMail.subject).toBe(`Repair R-${number}: your estimate of $161.83`);
    expect(estimateMail.text).toContain("1 × Power board: $89.50");
    expect(estimateMail.text).toContain("Sales tax: $12.33");

    const view = await getTicket(db, number);
    const current = view!.estimates[0]!;
    expect(
      await decideEstimate(db, number, { estimateId: current.id, decision: "approved" }),
    ).toMatchObject({ ok: true });
    // Approving twice counts once.
    expect(
      await decideEstimate(db, number, { estimateId: current.id, decision: "approved" }),
    ).toMatchObject({ ok: false, message: "You already approved this estimate." });

    await move(number, "approved", "repairing");
    await move(number, "repairing", "ready", "Tested 2 hours");
    const ready = (await mailTo(input.email)).at(-1)!;
    expect(ready.subject).toBe(`Repair R-${number}: your Dell XPS 13 laptop is ready for pickup`);
    expect(ready.text).toContain(HOURS);

    expect(
      await collect(number, alice, { paymentMethod: "card", paid: 16_183, reason: "" }),
    ).toMatchObject({ ok: true });
    const done = await getTicket(db, number);
    expect(done!.ticket).toMatchObject({
      status: "collected",
      paymentMethod: "card",
      paidCents: 16_183,
    });
    expect(done!.ticket.closedAt).not.toBeNull();
    // The receipt: what was approved, what was paid and how, and the printable page's link.
    const receipt = (await mailTo(input.email)).at(-1)!;
    expect(receipt.subject).toBe(`Repair R-${number}: your receipt`);
    expect(receipt.text).toContain("Approved estimate: $161.83");
    expect(receipt.text).toContain("Amount paid: $161.83");
    expect(receipt.text).toContain("Paid by: Card");
    expect(receipt.text).not.toContain("Adjusted");
    expect(receipt.text).toContain(
      `https://shop.example.test${ticketStatusPath(number, links.secret)}/receipt`,
    );
    expect(done!.events.map((event) => [event.toStatus, event.actorName, event.note])).toEqual([
      ["checked_in", "Alice Admin", "Checked in at the counter"],
      ["diagnosing", "Bob Bench", null],
      ["estimate_sent", "Bob Bench", "Estimate 1 sent: $161.83"],
      ["approved", null, "Estimate 1 approved by the customer"],
      ["repairing", "Bob Bench", null],
      ["ready", "Bob Bench", "Tested 2 hours"],
      ["collected", "Alice Admin", "Collected: $161.83 by card"],
    ]);
  });

  it("refuses impossible jumps with a message, and changes nothing", async () => {
    const number = await open();
    const db = scratch.db();
    expect(await move(number, "checked_in", "ready")).toMatchObject({
      ok: false,
      reason: "invalid",
      message: 'A ticket cannot go from "Checked in" to "Ready for pickup".',
    });
    expect(
      await collect(number, bob, { paymentMethod: "cash", paid: 1000, reason: "" }),
    ).toMatchObject({ ok: false, reason: "conflict" });
    expect((await getTicket(db, number))!.ticket.status).toBe("checked_in");
  });

  it("sends an estimate only once the ticket is being diagnosed (or its estimate declined)", async () => {
    const number = await open();
    const db = scratch.db();
    expect(await sendEstimateAsBob(number, "checked_in")).toEqual({
      ok: false,
      reason: "invalid",
      message: 'An estimate cannot be sent while the ticket is "Checked in".',
    });
    expect((await getTicket(db, number))!.ticket.status).toBe("checked_in");
  });

  it("two staff moving one ticket at once: one wins, the other is told where it is now", async () => {
    const number = await open();
    const db = scratch.db();
    const results = await Promise.all([
      move(number, "checked_in", "diagnosing", "", alice),
      move(number, "checked_in", "returned", "Customer took it back", bob),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const lost = results.find((result) => !result.ok)!;
    expect(lost.message).toMatch(
      new RegExp(
        `^Ticket R-${number} is now "(Diagnosing|Returned unrepaired)": someone else just changed it`,
      ),
    );
    expect((await getTicket(db, number))!.events).toHaveLength(2);
  });

  it("a new estimate supersedes the old one, which can no longer be decided; a declined one ends returned unrepaired", async () => {
    const input = intake();
    const number = await open({ email: input.email });
    const db = scratch.db();
    const firstId = await diagnosedWithEstimate(number);
    const second = await sendEstimateAsBob(number, "estimate_sent", [
      { kind: "labour", description: "Reflow", quantity: 1, unitPrice: "40" },
    ]);
    expect(second).toMatchObject({ ok: true, version: 2, totalCents: 4330 });
    expect(
      await decideEstimate(db, number, { estimateId: firstId, decision: "approved" }),
    ).toMatchObject({
      ok: false,
      message:
        "This estimate was replaced by a newer one: please decide on the estimate shown now.",
    });
    const view = await getTicket(db, number);
    expect(view!.estimates.map((e) => [e.version, e.status])).toEqual([
      [2, "pending"],
      [1, "superseded"],
    ]);
    expect(
      await decideEstimate(db, number, {
        estimateId: view!.estimates[0]!.id,
        decision: "declined",
      }),
    ).toMatchObject({ ok: true });
    await move(number, "declined", "returned", "", alice);
    const done = await getTicket(db, number);
    expect(done!.ticket.status).toBe("returned");
    expect(done!.ticket.closedAt).not.toBeNull();
    expect(done!.events.map((event) => event.note)).toContain("Estimate 2 sent: $43.30");
  });

  it("takes an estimate up to $100,000.00 with tax, and refuses one a cent over (or at the form's own limits) next to its lines", async () => {
    const number = await open();
    const db = scratch.db();
    await move(number, "checked_in", "diagnosing");
    const line = (quantity: number, unitPrice: string) => [
      { kind: "part", description: "Board", quantity, unitPrice },
    ];
    const send = (lines: ReturnType<typeof line>) => sendEstimateAsBob(number, "diagnosing", lines);
    // 999 × $100,000 is what each field allows; together they are far more than a repair.
    expect(await send(line(999, "100000"))).toEqual({
      ok: false,
      reason: "invalid",
      field: "lines",
      message:
        "An estimate can total at most $100,000.00 with tax; this one totals $108,141,750.00.",
    });
    // $92,378.76 + $7,621.25 of tax is a cent over.
    expect(await send(line(1, "92378.76"))).toMatchObject({
      ok: false,
      field: "lines",
      message: expect.stringMatching(/this one totals \$100,000\.01\.$/),
    });
    expect((await getTicket(db, number))!.estimates).toEqual([]);
    expect(await send(line(1, "92378.75"))).toMatchObject({ ok: true, totalCents: 10_000_000 });
  });

  it("approving at once from two tabs counts once", async () => {
    const number = await open();
    const db = scratch.db();
    const id = await diagnosedWithEstimate(number);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        decideEstimate(db, number, { estimateId: id, decision: "approved" }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(
      (await getTicket(db, number))!.events.filter((e) => e.toStatus === "approved"),
    ).toHaveLength(1);
  });

  it("an estimate of one ticket cannot be decided through another", async () => {
    const a = await open();
    const b = await open();
    const db = scratch.db();
    const id = await diagnosedWithEstimate(a);
    expect(await decideEstimate(db, b, { estimateId: id, decision: "approved" })).toMatchObject({
      ok: false,
      reason: "not-found",
    });
    expect((await getTicket(db, a))!.ticket.status).toBe("estimate_sent");
  });
});

describe("collecting for another amount than approved", () => {
  /** A ticket ready for pickup with an approved estimate of $161.83; its customer's address. */
  async function readyTicket() {
    const input = intake();
    const number = await open({ email: input.email });
    const id = await diagnosedWithEstimate(number);
    await decideEstimate(scratch.db(), number, { estimateId: id, decision: "approved" });
    await move(number, "approved", "repairing");
    await move(number, "repairing", "ready");
    return { number, email: input.email };
  }

  it("asks why, and keeps the reason, the amount and the difference with the ticket and its history", async () => {
    const { number, email } = await readyTicket();
    const db = scratch.db();
    const before = await repairSummary(db, today);
    expect(await collect(number, alice, { paymentMethod: "cash", paid: 100, reason: " " })).toEqual(
      {
        ok: false,
        reason: "invalid",
        field: "reason",
        message: "The approved total is $161.83: say why $1.00 was taken.",
      },
    );
    expect((await getTicket(db, number))!.ticket.status).toBe("ready");
    expect(
      await collect(number, alice, {
        paymentMethod: "cash",
        paid: 15_000,
        reason: "Goodwill: a week late",
      }),
    ).toMatchObject({ ok: true });
    const { ticket, events } = (await getTicket(db, number))!;
    expect(ticket).toMatchObject({
      status: "collected",
      paymentMethod: "cash",
      paidCents: 15_000,
      paidDifferenceReason: "Goodwill: a week late",
    });
    expect(events.at(-1)!.note).toBe(
      "Collected: $150.00 by cash ($11.83 less than the approved $161.83: Goodwill: a week late)",
    );
    const receipt = (await mailTo(email)).at(-1)!;
    expect(receipt.text).toContain("Adjusted at the counter: -$11.83");
    expect(receipt.text).toContain("Amount paid: $150.00");
    // The reason is the shop's: the customer's receipt does not carry it.
    expect(receipt.text).not.toContain("Goodwill");
    expect((await repairSummary(db, today)).collectedOtherAmount).toBe(
      before.collectedOtherAmount + 1,
    );
  });

  it("takes the approved total, or no charge for a reason, up to $100,000", async () => {
    const db = scratch.db();
    const exact = await readyTicket();
    const before = await repairSummary(db, today);
    expect(
      await collect(exact.number, bob, { paymentMethod: "card", paid: 16_183, reason: "Ignored" }),
    ).toMatchObject({ ok: true });
    expect((await getTicket(db, exact.number))!.ticket.paidDifferenceReason).toBeNull();
    expect((await repairSummary(db, today)).collectedOtherAmount).toBe(before.collectedOtherAmount);

    const free = await readyTicket();
    expect(
      await collect(free.number, bob, { paymentMethod: "no_charge", paid: 0, reason: "" }),
    ).toMatchObject({ ok: false, field: "reason" });
    expect(
      await collect(free.number, bob, {
        paymentMethod: "no_charge",
        paid: 0,
        reason: "Under our 90-day warranty",
      }),
    ).toMatchObject({ ok: true });
    expect((await mailTo(free.email)).at(-1)!.text).toContain("Paid by: No charge");

    // The collection form's own limit is the most a repair amount can be, and the column takes it.
    expect(collectSchema.safeParse({ paymentMethod: "card", paid: "100000.01" }).success).toBe(
      false,
    );
    const most = await readyTicket();
    expect(
      await collect(most.number, bob, {
        ...collectSchema.parse({ key: randomUUID(), paymentMethod: "card", paid: "100000" }),
        reason: "Test",
      }),
    ).toMatchObject({ ok: true });
    expect((await getTicket(db, most.number))!.ticket.paidCents).toBe(10_000_000);
  });
});

describe("deciding from the status page", () => {
  it("slows down one client deciding again and again, without changing the decision", async () => {
    const number = await open();
    const db = scratch.db();
    const id = await diagnosedWithEstimate(number);
    const limit = { windowSeconds: 60, max: 3 };
    const clientIp = `203.0.113.${counter}`;
    const decide = (decision: "approved" | "declined", ip = clientIp) =>
      decideEstimate(db, number, { estimateId: id, decision }, { clientIp: ip, limit });
    expect(await decide("approved")).toMatchObject({ ok: true });
    expect(await decide("declined")).toMatchObject({ ok: false, reason: "conflict" });
    expect(await decide("declined")).toMatchObject({ ok: false, reason: "conflict" });
    expect(await decide("declined")).toEqual({
      ok: false,
      reason: "rate-limited",
      message: "Too many tries from your connection. Please wait a few minutes and try again.",
    });
    // Another client is counted on its own.
    expect(await decide("declined", "198.51.100.7")).toMatchObject({ reason: "conflict" });
    expect((await getTicket(db, number))!.estimates[0]!.status).toBe("approved");
  });
});

describe("status links", () => {
  it("are good for their own ticket only", () => {
    const path = ticketStatusPath(1042, links.secret);
    const token = path.split("/").at(-1)!;
    expect(path).toMatch(/^\/repairs\/R-1042\/[\w-]{43}$/);
    expect(isTicketStatusToken(1042, token, links.secret)).toBe(true);
    expect(isTicketStatusToken(1043, token, links.secret)).toBe(false);
    expect(isTicketStatusToken(1042, token, "another-secret")).toBe(false);
    expect(isTicketStatusToken(1042, "", links.secret)).toBe(false);
  });

  it("stay the links already handed out", () => {
    // Worked out with the signature the status links have carried since they were first printed.
    expect(ticketStatusPath(1042, "a-secret-of-thirty-two-characters!!")).toBe(
      "/repairs/R-1042/Z15SJ-1Mng5RkIbH_rixTvYgKgVO3Zr8sUvapvJZxkE",
    );
  });
});

describe("a booking opens one ticket, and tickets reach the customer's account", () => {
  it("carries a confirmed booking over, marks it handled, and refuses a second ticket for it", async () => {
    const db = scratch.db();
    const bookingId = await booking();
    const input = intake({ serviceRequestId: bookingId, serviceType: "Game Console Repair" });
    const opened = await openTicket(db, input, { staff: alice, links, today });
    expect(opened.ok).toBe(true);
    const [handled] = await db
      .select({ handledAt: serviceRequests.handledAt, handledBy: serviceRequests.handledBy })
      .from(serviceRequests)
      .where(eq(serviceRequests.id, bookingId));
    expect(handled!.handledAt).not.toBeNull();
    expect(handled!.handledBy).toBe(alice.id);
    const again = await openTicket(db, input, { staff: bob, links, today });
    expect(again).toMatchObject({ ok: false, reason: "conflict" });
    expect(again.message).toMatch(/^This booking already has ticket R-\d+\.$/);
  });

  it("refuses a booking that is not there or was cancelled, opening nothing and mailing no one", async () => {
    const db = scratch.db();
    const cancelled = await booking({
      name: "Cora Cancelled",
      email: "cora-cancelled@example.test",
      cancelledAt: new Date(),
    });
    const email = `cora-${randomUUID().slice(0, 6)}@example.test`;
    expect(
      await openTicket(db, intake({ serviceRequestId: cancelled, email }), {
        staff: alice,
        links,
        today,
      }),
    ).toEqual({ ok: false, reason: "conflict", message: "This booking was cancelled." });
    expect(
      await openTicket(db, intake({ serviceRequestId: 2_000_000_000, email }), {
        staff: alice,
        links,
        today,
      }),
    ).toEqual({ ok: false, reason: "not-found", message: "There is no such repair booking." });
    const opened = await db
      .select({ number: repairTickets.number })
      .from(repairTickets)
      .where(eq(repairTickets.customerEmail, email));
    expect(opened).toEqual([]);
    expect(await mailTo(email)).toEqual([]);
  });

  it("links the ticket to the account with that confirmed address, not to an unconfirmed one", async () => {
    const db = scratch.db();
    const confirmed = { id: randomUUID(), email: `Owner-${randomUUID().slice(0, 6)}@Example.test` };
    const unconfirmed = {
      id: randomUUID(),
      email: `maybe-${randomUUID().slice(0, 6)}@example.test`,
    };
    await db.insert(users).values([
      {
        id: confirmed.id,
        name: "Owner",
        email: confirmed.email.toLowerCase(),
        emailVerified: true,
      },
      { id: unconfirmed.id, name: "Maybe", email: unconfirmed.email, emailVerified: false },
    ]);
    const mine = await open({ email: confirmed.email });
    await open({ email: unconfirmed.email });
    expect((await ticketsForCustomer(db, confirmed.id)).map((t) => t.number)).toEqual([mine]);
    expect(await ticketsForCustomer(db, unconfirmed.id)).toEqual([]);
  });
});

describe("the repair board", () => {
  it("counts per status, finds by number, name, phone digits or serial, and marks overdue promises", async () => {
    const db = scratch.db();
    const late = await open({
      name: "Lena Late",
      phone: "(214) 555-0173",
      deviceSerial: "IMEI-3569-8812",
      promisedDate: today,
    });
    await db
      .update(repairTickets)
      .set({ promisedDate: "2026-11-20" })
      .where(eq(repairTickets.number, late));
    const board = await repairBoard(db, { status: "checked_in", query: "", today });
    expect(board.counts.checked_in).toBe(board.rows.length);
    expect(board.rows.find((row) => row.number === late)!.overdue).toBe(true);
    expect(board.overdueCount).toBeGreaterThanOrEqual(1);

    for (const query of [
      `R-${late}`,
      String(late),
      "lena",
      "2145550173",
      "214-555-0173",
      "imei-3569",
    ]) {
      const found = await repairBoard(db, { status: "open", query, today });
      expect(
        found.rows.map((row) => row.number),
        query,
      ).toContain(late);
    }
    expect(
      (await repairBoard(db, { status: "open", query: "nobody-like-this", today })).rows,
    ).toEqual([]);

    const summary = await repairSummary(db, today);
    expect(summary.overdue).toBe(board.overdueCount);
  });

  it("counts a promise as broken only while the work is still ahead, not once ready or declined", async () => {
    const db = scratch.db();
    const name = `Late ${randomUUID().slice(0, 8)}`;
    const numbers: Record<string, number> = {};
    for (const status of ["repairing", "ready", "declined"] as const) {
      numbers[status] = await open({ name, promisedDate: today });
      await db
        .update(repairTickets)
        .set({ status, promisedDate: "2026-11-20" })
        .where(eq(repairTickets.number, numbers[status]!));
    }
    const before = await repairSummary(db, today);
    const board = await repairBoard(db, { status: "open", query: name, today });
    expect(Object.fromEntries(board.rows.map((row) => [row.status, row.overdue]))).toEqual({
      repairing: true,
      ready: false,
      declined: false,
    });
    expect(board.overdueCount).toBe(before.overdue);
    await db
      .update(repairTickets)
      .set({ status: "repairing" })
      .where(eq(repairTickets.number, numbers.ready!));
    expect((await repairSummary(db, today)).overdue).toBe(before.overdue + 1);
  });

  it("shows a tab or a search a page at a time, oldest promise first, every ticket once", async () => {
    const db = scratch.db();
    const name = `Pagey ${randomUUID().slice(0, 8)}`;
    const opened: number[] = [];
    for (const day of ["05", "01", "04", "02", "03"]) {
      opened.push(await open({ name, promisedDate: `2026-12-${day}` }));
    }
    const byPromise = [1, 3, 4, 2, 0].map((index) => opened[index]);
    const pages = [];
    for (const page of [1, 2, 3]) {
      pages.push(await repairBoard(db, { status: "open", query: name, today, page, pageSize: 2 }));
    }
    expect(pages.map((board) => board.rows.map((row) => row.number))).toEqual([
      byPromise.slice(0, 2),
      byPromise.slice(2, 4),
      byPromise.slice(4),
    ]);
    expect(pages.map(({ page, pageCount, total }) => ({ page, pageCount, total }))).toEqual([
      { page: 1, pageCount: 3, total: 5 },
      { page: 2, pageCount: 3, total: 5 },
      { page: 3, pageCount: 3, total: 5 },
    ]);
    // A page past the end shows the last one.
    const past = await repairBoard(db, {
      status: "open",
      query: name,
      today,
      page: 9,
      pageSize: 2,
    });
    expect(past).toMatchObject({ page: 3, pageCount: 3 });

    // A tab counts its own tickets: the pages together hold every one, once.
    const tab = await repairBoard(db, { status: "checked_in", query: "", today, pageSize: 4 });
    expect(tab.total).toBe(tab.counts.checked_in);
    expect(tab.pageCount).toBe(Math.ceil(tab.total / 4));
    const seen: number[] = [];
    for (let page = 1; page <= tab.pageCount; page++) {
      const board = await repairBoard(db, {
        status: "checked_in",
        query: "",
        today,
        page,
        pageSize: 4,
      });
      seen.push(...board.rows.map((row) => row.number));
    }
    expect(new Set(seen).size).toBe(tab.total);
    expect(seen).toEqual(expect.arrayContaining(opened));
  });
});

describe("intake photos", () => {
  let dir: string;
  let storage: PosterStorage;
  beforeAll(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), "repair-photos-")), "repair-photos");
    storage = createLocalStorage(dir);
  });
  afterAll(() => rm(path.dirname(dir), { recursive: true, force: true }));

  const stored = async () => (await readdir(dir).catch(() => [] as string[])).sort();
  const photo = async (format: "jpeg" | "png", width = 2400, height = 1800) => ({
    name: `device.${format}`,
    bytes: new Uint8Array(
      await sharp({ create: { width, height, channels: 3, background: "#6b8e23" } })
        .toFormat(format)
        .toBuffer(),
    ),
  });
  const openWith = (photos: { name: string; bytes: Uint8Array }[], fields = {}) =>
    openTicket(scratch.db(), intake(fields), { staff: alice, links, today, photos, storage });

  it("keeps up to five photos with the ticket, re-encoded as WebP in the private storage", async () => {
    const opened = await openWith([await photo("jpeg"), await photo("png", 600, 800)]);
    if (!opened.ok) throw new Error(opened.message);
    const { photos } = (await getTicket(scratch.db(), opened.number))!;
    expect(photos.map(({ width, height }) => ({ width, height }))).toEqual([
      // Fitted inside 1600 × 1600, never enlarged.
      { width: 1600, height: 1200 },
      { width: 600, height: 800 },
    ]);
    const rows = await scratch
      .db()
      .select()
      .from(repairTicketPhotos)
      .where(eq(repairTicketPhotos.ticketNumber, opened.number));
    expect(rows.map((row) => row.addedBy)).toEqual([alice.id, alice.id]);
    expect(rows.every((row) => row.contentType === "image/webp")).toBe(true);
    expect(await stored()).toEqual(expect.arrayContaining(rows.map((row) => row.storageKey)));

    const first = await ticketPhoto(scratch.db(), opened.number, photos[0]!.id, storage);
    expect(first!.contentType).toBe("image/webp");
    expect((await sharp(first!.bytes).metadata()).format).toBe("webp");
    // A photo is found through its own ticket only.
    const other = await open();
    expect(await ticketPhoto(scratch.db(), other, photos[0]!.id, storage)).toBeNull();
  });

  it("refuses a file that is not a photo, next to the field; nothing is opened or stored", async () => {
    const before = await stored();
    const email = `refused-${randomUUID().slice(0, 8)}@example.test`;
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    const opened = await openWith([await photo("jpeg"), { name: "photo.jpg", bytes: svg }], {
      email,
    });
    expect(opened).toEqual({
      ok: false,
      reason: "invalid",
      field: "photos",
      message: "Photo 2 (photo.jpg): The photo must be a JPEG, PNG, WebP or AVIF image.",
    });
    const tickets = await scratch
      .db()
      .select()
      .from(repairTickets)
      .where(eq(repairTickets.customerEmail, email));
    expect(tickets).toEqual([]);
    expect(await stored()).toEqual(before);
  });

  it("refuses a sixth photo", async () => {
    const before = await stored();
    const six = await Promise.all(Array.from({ length: 6 }, () => photo("png", 40, 30)));
    expect(await openWith(six)).toEqual({
      ok: false,
      reason: "invalid",
      field: "photos",
      message: "Attach at most 5 photos.",
    });
    expect(await stored()).toEqual(before);
    expect(await openWith(six.slice(0, 5))).toMatchObject({ ok: true });
  });

  it("removes the stored photos when the ticket cannot be opened after all", async () => {
    const cancelled = await booking({
      name: "Cleo Cancel",
      email: "cleo@example.test",
      cancelledAt: new Date(),
    });
    const before = await stored();
    const opened = await openWith([await photo("jpeg", 80, 60)], {
      serviceRequestId: cancelled,
    });
    expect(opened).toMatchObject({ ok: false, reason: "conflict" });
    expect(await stored()).toEqual(before);
  });
});
