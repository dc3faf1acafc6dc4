import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repairPayments, tillSessions } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { closeTillSession, openTill, openTillSession } from "#app/domain/counter/till.server.ts";
import { zReport } from "#app/domain/counter/z-report.server.ts";
import { zReportRows } from "#app/domain/counter/z-report-csv.ts";
import { reconcileMoney } from "#app/domain/money/reconcile.server.ts";
import { handleStripeWebhook } from "#app/domain/orders/stripe-webhook.server.ts";
import { createStripeProvider } from "#app/domain/payments/stripe.server.ts";
import { createTestProvider } from "#app/domain/payments/test-provider.server.ts";
import { startFakeStripe, type FakeStripe } from "#tests/support/fake-stripe.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { scratchOutbox } from "#tests/support/scratch-outbox.ts";
import { createStaff } from "#tests/support/staff.ts";
import {
  collectTicket,
  recordOnlineRepairPayment,
  startRepairCheckout,
  takeDeposit,
  ticketMoney,
} from "./payments.server.ts";
import { estimateSchema, ticketSchema } from "./ticket-input.ts";
import {
  decideEstimate,
  getTicket,
  moveTicket,
  openTicket,
  sendEstimate,
} from "./tickets.server.ts";

// The till is shop-wide: a database of this file's own.
const scratch = scratchDatabase();
const { mailTo } = scratchOutbox(scratch);
const clerk: Staff = { id: `staff-${randomUUID()}`, name: "Carla Clerk" };
const links = { publicUrl: "https://shop.example.test", secret: "test-secret-for-tickets" };
const HOURS = "Mon–Sat 10:00–18:00";
const WEBHOOK_SECRET = `whsec_test_${randomUUID().replaceAll("-", "")}`;

let fake: FakeStripe;
beforeAll(async () => {
  await createStaff(scratch.db(), clerk.name, clerk.id);
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.close();
});

let counter = 0;
/** A new ticket, checked in: its number and its customer's address. */
async function checkedIn() {
  counter += 1;
  const email = `pay-${counter}-${randomUUID().slice(0, 6)}@example.test`;
  const opened = await openTicket(
    scratch.db(),
    ticketSchema.parse({
      name: "Rosa Reader",
      email,
      phone: "(817) 555-0199",
      serviceType: "PC & Laptop Repair",
      deviceKind: "Laptop",
      deviceBrand: "Dell",
      deviceModel: "XPS 13",
      problem: "It does not start.",
      conditionAtIntake: "Scratch on the lid.",
      promisedDate: "2026-12-01",
    }),
    { staff: clerk, links, today: "2026-11-25" },
  );
  if (!opened.ok) throw new Error(opened.message);
  return { number: opened.number, email };
}

/** Takes a ticket to "ready" with an approved estimate of $161.83 (a part, an hour's labour). */
async function ready(number: number) {
  const db = scratch.db();
  const move = (
    from: "checked_in" | "approved" | "repairing",
    to: "diagnosing" | "repairing" | "ready",
  ) => moveTicket(db, number, { from, to, note: "" }, { staff: clerk, links, hours: HOURS });
  await move("checked_in", "diagnosing");
  await sendEstimate(
    db,
    number,
    estimateSchema.parse({
      from: "diagnosing",
      lines: [
        { kind: "part", description: "Power board", quantity: 1, unitPrice: "89.50" },
        { kind: "labour", description: "Labour, 1 hour", quantity: 1, unitPrice: "60" },
      ],
    }),
    { staff: clerk, links, taxRate: 0.0825 },
  );
  const { estimates } = (await getTicket(db, number))!;
  await decideEstimate(db, number, { estimateId: estimates[0]!.id, decision: "approved" });
  await move("approved", "repairing");
  await move("repairing", "ready");
}

const collect = (number: number, input: Parameters<typeof collectTicket>[2]) =>
  collectTicket(scratch.db(), number, input, { staff: clerk, links, timeZone: "America/Chicago" });

/** The open till's id, opening one if none is. */
async function tillOpen() {
  const open = await openTill(scratch.db());
  if (open) return open.id;
  const opened = await openTillSession(scratch.db(), 5000, clerk);
  if (!opened.ok) throw new Error(opened.message);
  return opened.tillId;
}

describe("a deposit at intake", () => {
  it("refuses cash while the till is closed, takes a card without it", async () => {
    const db = scratch.db();
    const till = await openTill(db);
    if (till) await closeTillSession(db, till.id, till.floatCents, clerk);
    const { number } = await checkedIn();
    expect(
      await takeDeposit(db, number, { method: "cash", amountCents: 5000 }, { staff: clerk }),
    ).toEqual({
      ok: false,
      reason: "invalid",
      field: "method",
      message:
        "The till is closed: open it at the counter to take cash, or take the payment by card.",
    });
    expect(
      await takeDeposit(
        db,
        number,
        { method: "card", amountCents: 5000, reference: "slip 0042" },
        { staff: clerk },
      ),
    ).toMatchObject({ ok: true });
    const [payment] = (await ticketMoney(db, number)).payments;
    expect(payment).toMatchObject({
      kind: "deposit",
      method: "card",
      amountCents: 5000,
      providerReference: "slip 0042",
      tillSessionId: null,
      staffName: "Carla Clerk",
    });
  });

  it("puts cash into the open till with its change, and counts it toward the invoice", async () => {
    const db = scratch.db();
    const tillId = await tillOpen();
    const { number } = await checkedIn();
    expect(
      await takeDeposit(
        db,
        number,
        { method: "cash", amountCents: 4000, tenderedCents: 5000 },
        { staff: clerk },
      ),
    ).toMatchObject({ ok: true, message: expect.stringContaining("Give $10.00 in change.") });
    expect(
      await takeDeposit(
        db,
        number,
        { method: "cash", amountCents: 4000, tenderedCents: 3000 },
        { staff: clerk },
      ),
    ).toMatchObject({ ok: false, field: "tendered" });
    await ready(number);
    const money = await ticketMoney(db, number);
    expect(money.payments).toEqual([
      expect.objectContaining({
        method: "cash",
        tillSessionId: tillId,
        tenderedCents: 5000,
        changeCents: 1000,
      }),
    ]);
    expect(money.invoice).toMatchObject({
      labourCents: 6000,
      partsCents: 8950,
      taxCents: 1233,
      totalCents: 16183,
    });
    expect(money.account).toMatchObject({ paidCents: 4000, balanceCents: 12183 });
    // Once the device is ready, what is left is the balance, taken at collection.
    expect(
      await takeDeposit(db, number, { method: "card", amountCents: 100 }, { staff: clerk }),
    ).toMatchObject({ ok: false, reason: "conflict" });
  });
});

describe("collecting", () => {
  it("refuses while the balance is unpaid, then collects once the balance is taken", async () => {
    const db = scratch.db();
    await tillOpen();
    const { number, email } = await checkedIn();
    await takeDeposit(db, number, { method: "card", amountCents: 5000 }, { staff: clerk });
    await ready(number);
    expect(await collect(number, { paymentMethod: "no_charge", paid: 0, reason: "" })).toEqual({
      ok: false,
      reason: "invalid",
      field: "reason",
      message: "The balance due is $111.83 ($50.00 paid before): say why $0.00 was taken.",
    });
    expect((await getTicket(db, number))!.ticket.status).toBe("ready");
    expect((await ticketMoney(db, number)).payments).toHaveLength(1);

    expect(
      await collect(number, { paymentMethod: "cash", paid: 11_183, reason: "", tendered: 12_000 }),
    ).toEqual({
      ok: true,
      message: "Ticket R-" + number + " is collected and closed. Give $8.17 in change.",
    });
    const { ticket, events } = (await getTicket(db, number))!;
    expect(ticket).toMatchObject({ status: "collected", paymentMethod: "cash", paidCents: 16_183 });
    expect(ticket.paidDifferenceReason).toBeNull();
    expect(events.at(-1)!.note).toBe("Collected: $111.83 by cash, $50.00 paid before");
    expect((await ticketMoney(db, number)).account.balanceCents).toBe(0);
    const receipt = (await mailTo(email)).at(-1)!;
    expect(receipt.text).toContain("Amount paid: $161.83");
    expect(receipt.text).toContain("Paid by: Card, Cash");
  });

  it("collects with a recorded reason for the difference, kept in the history", async () => {
    const db = scratch.db();
    const { number } = await checkedIn();
    await takeDeposit(db, number, { method: "card", amountCents: 5000 }, { staff: clerk });
    await ready(number);
    expect(
      await collect(number, {
        paymentMethod: "no_charge",
        paid: 0,
        reason: "Goodwill: a week late",
      }),
    ).toMatchObject({ ok: true });
    const { ticket, events } = (await getTicket(db, number))!;
    expect(ticket).toMatchObject({
      paymentMethod: "no_charge",
      paidCents: 5000,
      paidDifferenceReason: "Goodwill: a week late",
    });
    expect(events.at(-1)!.note).toBe(
      "Collected: no charge, $50.00 paid before ($111.83 less than the approved $161.83: Goodwill: a week late)",
    );
  });

  it("takes the balance in cash only with the till open, and leaves nothing behind when refused", async () => {
    const db = scratch.db();
    const { number } = await checkedIn();
    await ready(number);
    const till = (await openTill(db))!;
    await closeTillSession(db, till.id, till.floatCents, clerk);
    expect(
      await collect(number, { paymentMethod: "cash", paid: 16_183, reason: "" }),
    ).toMatchObject({
      ok: false,
      field: "paymentMethod",
    });
    expect((await getTicket(db, number))!.ticket.status).toBe("ready");
    expect((await ticketMoney(db, number)).payments).toEqual([]);
    const tillId = await tillOpen();
    expect(
      await collect(number, { paymentMethod: "cash", paid: 16_183, reason: "" }),
    ).toMatchObject({ ok: true });
    const rows = await db
      .select()
      .from(repairPayments)
      .where(eq(repairPayments.ticketNumber, number));
    expect(rows).toEqual([
      expect.objectContaining({ kind: "balance", method: "cash", tillSessionId: tillId }),
    ]);
    // The till's row was locked for the payment, not changed.
    const [open] = await db.select().from(tillSessions).where(eq(tillSessions.id, tillId));
    expect(open!.closedAt).toBeNull();
  });
});

describe("the pay link", () => {
  it("comes with the ready-for-pickup e-mail while a balance is due, signed for its ticket", async () => {
    const db = scratch.db();
    const { number, email } = await checkedIn();
    await takeDeposit(db, number, { method: "card", amountCents: 5000 }, { staff: clerk });
    await ready(number);
    const mail = (await mailTo(email)).at(-1)!;
    expect(mail.subject).toMatch(/is ready for pickup$/);
    expect(mail.text).toContain("The balance due is $111.83.");
    expect(mail.text).toMatch(
      new RegExp(
        `Pay \\$111\\.83 online: https://shop\\.example\\.test/repairs/R-${number}/[\\w-]{43}/pay`,
      ),
    );
  });

  it("pays the balance through the test provider's session once, however often it is confirmed", async () => {
    const db = scratch.db();
    const { number } = await checkedIn();
    const provider = createTestProvider({ appEnv: "test" });
    expect(
      await startRepairCheckout(db, number, { provider, statusUrl: "https://shop.example.test/r" }),
    ).toMatchObject({ ok: false, reason: "conflict" });
    await takeDeposit(db, number, { method: "card", amountCents: 5000 }, { staff: clerk });
    await ready(number);
    const started = await startRepairCheckout(db, number, {
      provider,
      statusUrl: "https://shop.example.test/r",
    });
    if (!started.ok) throw new Error(started.message);
    // A second press while it is open gets the same session.
    expect(
      await startRepairCheckout(db, number, { provider, statusUrl: "https://shop.example.test/r" }),
    ).toMatchObject({ url: started.url });
    const sessionId = started.url.split("/").at(-1)!;
    const confirm = (eventId: string) =>
      recordOnlineRepairPayment(db, {
        provider: "test",
        eventId,
        sessionId,
        paymentReference: `test_payment_${sessionId}`,
        amountCents: 11_183,
      });
    expect(await confirm(`test:${sessionId}`)).toEqual({ status: "paid", ticketNumber: number });
    expect(await confirm(`test:${sessionId}`)).toEqual({
      status: "duplicate-event",
      ticketNumber: number,
    });
    // Another event about the same session (a retry under a new id) does not pay twice either.
    expect(await confirm(`test:${sessionId}:again`)).toEqual({
      status: "duplicate-event",
      ticketNumber: number,
    });
    const money = await ticketMoney(db, number);
    expect(money.payments.map((p) => [p.kind, p.method, p.amountCents])).toEqual([
      ["deposit", "card", 5000],
      ["balance", "online", 11_183],
    ]);
    expect(money.account.balanceCents).toBe(0);
    expect(
      await startRepairCheckout(db, number, { provider, statusUrl: "https://shop.example.test/r" }),
    ).toEqual({ ok: false, reason: "conflict", message: "There is nothing left to pay." });
    expect(
      await collect(number, { paymentMethod: "no_charge", paid: 0, reason: "" }),
    ).toMatchObject({
      ok: true,
    });
  });

  it("is confirmed by Stripe's signed webhook naming the ticket, once per replayed event", async () => {
    const db = scratch.db();
    const { number } = await checkedIn();
    await ready(number);
    const provider = createStripeProvider({ secretKey: "sk_test_fake", apiBase: fake.apiBase });
    const started = await startRepairCheckout(db, number, {
      provider,
      statusUrl: "https://shop.example.test/r",
    });
    if (!started.ok) throw new Error(started.message);
    const session = [...fake.sessions.values()].at(-1)!;
    expect(session.metadata).toEqual({ repair_ticket: String(number) });
    expect(session.amount_total).toBe(16_183);
    const event = fake.event("checkout.session.completed", session.id);
    const delivery = fake.signedWebhook(event, WEBHOOK_SECRET);
    const deliver = () =>
      handleStripeWebhook(db, {
        ...delivery,
        webhookSecret: WEBHOOK_SECRET,
        ordersUrl: "https://shop.example.test/orders",
        onProblem: (problem) => {
          throw new Error(problem.message);
        },
      });
    expect(await deliver()).toEqual({ status: 200, body: { received: true, outcome: "paid" } });
    expect(await deliver()).toEqual({
      status: 200,
      body: { received: true, outcome: "duplicate-event" },
    });
    const money = await ticketMoney(db, number);
    expect(money.payments).toEqual([
      expect.objectContaining({
        method: "online",
        provider: "stripe",
        amountCents: 16_183,
        checkoutSessionId: session.id,
      }),
    ]);
  });
});

describe("the till and the money check", () => {
  it("count repair cash in the till's expected cash, and find a ticket paid more than its invoice", async () => {
    const db = scratch.db();
    const till = await openTill(db);
    if (till) await closeTillSession(db, till.id, till.floatCents, clerk);
    const tillId = await tillOpen();
    const { number } = await checkedIn();
    await takeDeposit(db, number, { method: "cash", amountCents: 2000 }, { staff: clerk });
    await ready(number);
    await collect(number, { paymentMethod: "card", paid: 14_183, reason: "" });
    const report = await zReport(db, (await openTill(db))!, new Date());
    expect(report).toMatchObject({
      tillId,
      repairCashCents: 2000,
      repairCardCents: 14_183,
      expectedCashCents: 5000 + 2000,
    });
    const [header, row] = zReportRows([report]);
    const cell = (name: string) => row![header!.indexOf(name)];
    expect([cell("Repairs in cash"), cell("Repairs by card")]).toEqual([20, 141.83]);

    const repairs = async () =>
      (await reconcileMoney(db, { providers: () => null })).differences.filter((d) => d.repair);
    expect(await repairs()).toEqual([]);
    const over = await checkedIn();
    await ready(over.number);
    await db.insert(repairPayments).values({
      ticketNumber: over.number,
      kind: "balance",
      method: "card",
      amountCents: 20_000,
    });
    expect(await repairs()).toEqual([
      {
        orderId: null,
        repair: `R-${over.number}`,
        what: "paid $200.00, more than its invoice of $161.83",
      },
    ]);
  });
});
