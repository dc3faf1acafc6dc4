import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repairPayments, repairTickets, tillSessions } from "#app/db/schema.ts";
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
import type { DeskPayment } from "./desk-payments.server.ts";
import {
  collectTicket,
  recordOnlineRepairPayment,
  refundDeposit,
  startRepairCheckout,
  takeDeposit,
  ticketMoney,
  type CollectInput,
} from "./payments.server.ts";
import { estimateSchema, ticketSchema } from "./ticket-input.ts";
import type { PaymentProvider } from "#app/domain/payments/provider.server.ts";
import {
  decideEstimate,
  getTicket,
  moveTicket,
  openTicket,
  sendEstimate,
  type IntakeDeposit,
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
const newCustomer = () => {
  counter += 1;
  return `pay-${counter}-${randomUUID().slice(0, 6)}@example.test`;
};

/** The intake form for a customer, with a deposit (`IntakeDeposit`) when one is taken. */
const intake = (email: string, deposit: IntakeDeposit | null = null) =>
  openTicket(
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
    { staff: clerk, links, today: "2026-11-25", deposit },
  );

/** A new ticket, checked in: its number and its customer's address. */
async function checkedIn() {
  const email = newCustomer();
  const opened = await intake(email);
  if (!opened.ok) throw new Error(opened.message);
  return { number: opened.number, email };
}

/** The tickets opened for a customer. */
async function ticketsOf(email: string) {
  return scratch
    .db()
    .select({ number: repairTickets.number })
    .from(repairTickets)
    .where(eq(repairTickets.customerEmail, email));
}

/** Closes the till if one is open. */
async function tillClosed() {
  const till = await openTill(scratch.db());
  if (till) await closeTillSession(scratch.db(), till.id, till.floatCents, clerk);
}

/** Diagnosed and estimated at $161.83; the customer declines. */
async function declined(number: number) {
  const db = scratch.db();
  await moveTicket(
    db,
    number,
    { from: "checked_in", to: "diagnosing", note: "" },
    { staff: clerk, links, hours: HOURS },
  );
  await sendEstimate(
    db,
    number,
    estimateSchema.parse({
      from: "diagnosing",
      lines: [{ kind: "part", description: "Power board", quantity: 1, unitPrice: "149.50" }],
    }),
    { staff: clerk, links, taxRate: 0.0825 },
  );
  const { estimates } = (await getTicket(db, number))!;
  await decideEstimate(db, number, { estimateId: estimates[0]!.id, decision: "declined" });
}

/** The Refund form sent once (a form of its own each time, unless `formKey` says which). */
const refund = (
  number: number,
  amountCents: number,
  options: { formKey?: string; cardProvider?: PaymentProvider | null } = {},
) =>
  refundDeposit(
    scratch.db(),
    number,
    { formKey: options.formKey ?? randomUUID(), amountCents },
    { staff: clerk, cardProvider: options.cardProvider ?? createTestProvider({ appEnv: "test" }) },
  );

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

/** The collect form sent once (a form of its own each time). */
const collect = (number: number, input: Omit<CollectInput, "formKey">, formKey = randomUUID()) =>
  collectTicket(
    scratch.db(),
    number,
    { ...input, formKey },
    { staff: clerk, links, timeZone: "America/Chicago" },
  );

/** The Deposit form sent once (a form of its own each time, unless `formKey` says which). */
const deposit = (number: number, payment: DeskPayment, formKey = randomUUID()) =>
  takeDeposit(scratch.db(), number, { ...payment, formKey }, { staff: clerk });

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
    expect(await deposit(number, { method: "cash", amountCents: 5000 })).toEqual({
      ok: false,
      reason: "invalid",
      field: "method",
      message:
        "The till is closed: open it at the counter to take cash, or take the payment by card.",
    });
    expect(
      await deposit(number, { method: "card", amountCents: 5000, reference: "slip 0042" }),
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
      await deposit(number, { method: "cash", amountCents: 4000, tenderedCents: 5000 }),
    ).toMatchObject({ ok: true, message: expect.stringContaining("Give $10.00 in change.") });
    expect(
      await deposit(number, { method: "cash", amountCents: 4000, tenderedCents: 3000 }),
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
    expect(await deposit(number, { method: "card", amountCents: 100 })).toMatchObject({
      ok: false,
      reason: "conflict",
    });
  });
});

describe("collecting", () => {
  it("refuses while the balance is unpaid, then collects once the balance is taken", async () => {
    const db = scratch.db();
    await tillOpen();
    const { number, email } = await checkedIn();
    await deposit(number, { method: "card", amountCents: 5000 });
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
    await deposit(number, { method: "card", amountCents: 5000 });
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
    const { number, email } = await checkedIn();
    await deposit(number, { method: "card", amountCents: 5000 });
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
    await deposit(number, { method: "card", amountCents: 5000 });
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
    await deposit(number, { method: "cash", amountCents: 2000 });
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

describe("a deposit taken with the ticket at intake", () => {
  it("opens the ticket and takes a card deposit in one go, said in the history and the e-mail", async () => {
    const db = scratch.db();
    await tillClosed();
    const email = newCustomer();
    const opened = await intake(email, {
      method: "card",
      amountCents: 2500,
      reference: "slip 7",
      formKey: randomUUID(),
    });
    if (!opened.ok) throw new Error(opened.message);
    expect(opened.message).toBe(
      `Ticket R-${opened.number} is open. A deposit of $25.00 by card is recorded on ticket R-${opened.number}.`,
    );
    const [payment] = (await ticketMoney(db, opened.number)).payments;
    expect(payment).toMatchObject({
      id: opened.depositId,
      kind: "deposit",
      method: "card",
      amountCents: 2500,
      providerReference: "slip 7",
      tillSessionId: null,
    });
    const { events } = (await getTicket(db, opened.number))!;
    expect(events.map((event) => event.note)).toEqual([
      "Checked in at the counter, with a deposit of $25.00 by card",
    ]);
    const [mail] = await mailTo(email);
    expect(mail!.subject).toMatch(/we have your/);
    expect(mail!.text).toContain(
      "We received a deposit of $25.00 (by card). It counts toward the repair, and we give it back if your device is not repaired.",
    );
  });

  it("refuses cash while the till is closed, opening nothing; then takes it into the open till", async () => {
    const db = scratch.db();
    await tillClosed();
    const email = newCustomer();
    const formKey = randomUUID();
    const cash = { method: "cash" as const, amountCents: 2000, tenderedCents: 5000, formKey };
    expect(await intake(email, cash)).toEqual({
      ok: false,
      reason: "invalid",
      field: "method",
      message:
        "The till is closed: open it at the counter to take cash, or take the payment by card.",
    });
    expect(await ticketsOf(email)).toEqual([]);
    expect(await intake(email, { ...cash, tenderedCents: 1000 })).toMatchObject({ ok: false });

    const tillId = await tillOpen();
    expect(await intake(email, { ...cash, tenderedCents: 1000 })).toMatchObject({
      ok: false,
      field: "tendered",
    });
    expect(await ticketsOf(email)).toEqual([]);
    const opened = await intake(email, cash);
    if (!opened.ok) throw new Error(opened.message);
    expect(opened.message).toContain("Give $30.00 in change.");
    expect((await ticketMoney(db, opened.number)).payments).toEqual([
      expect.objectContaining({ method: "cash", tillSessionId: tillId, changeCents: 3000 }),
    ]);
  });

  it("sent again, or twice at once, opens one ticket and takes the deposit once", async () => {
    await tillOpen();
    const email = newCustomer();
    const deposit = { method: "cash" as const, amountCents: 1500, formKey: randomUUID() };
    const [first, second] = await Promise.all([intake(email, deposit), intake(email, deposit)]);
    const third = await intake(email, deposit);
    if (!first.ok || !second.ok || !third.ok) throw new Error("refused");
    expect(new Set([first.number, second.number, third.number]).size).toBe(1);
    expect([first, second].filter((opened) => opened.replayed)).toHaveLength(1);
    expect(third).toMatchObject({ replayed: true, depositId: first.depositId });
    expect(await ticketsOf(email)).toEqual([{ number: first.number }]);
    expect((await ticketMoney(scratch.db(), first.number)).payments).toHaveLength(1);
    expect(await mailTo(email)).toHaveLength(1);
  });
});

describe("the same desk form sent twice", () => {
  it("takes a deposit once, and answers the second time as the first", async () => {
    const db = scratch.db();
    await tillOpen();
    const { number } = await checkedIn();
    const formKey = randomUUID();
    const cash = { method: "cash" as const, amountCents: 2000, tenderedCents: 5000 };
    const [first, second] = await Promise.all([
      deposit(number, cash, formKey),
      deposit(number, cash, formKey),
    ]);
    const again = await deposit(number, cash, formKey);
    const taken = `A deposit of $20.00 by cash is recorded on ticket R-${number}. Give $30.00 in change.`;
    expect([first, second, again]).toEqual([
      { ok: true, message: taken },
      { ok: true, message: taken },
      { ok: true, message: taken },
    ]);
    expect((await ticketMoney(db, number)).payments).toHaveLength(1);
    // Another form is another deposit; the key of one ticket's form is no good on another's.
    expect(await deposit(number, cash)).toMatchObject({ ok: true });
    expect((await ticketMoney(db, number)).payments).toHaveLength(2);
    const other = await checkedIn();
    expect(await deposit(other.number, cash, formKey)).toEqual({
      ok: false,
      reason: "conflict",
      message: "This form was used already: open the ticket again.",
    });
    expect((await ticketMoney(db, other.number)).payments).toEqual([]);
  });

  it("collects and takes the balance once", async () => {
    const db = scratch.db();
    await tillOpen();
    const { number } = await checkedIn();
    await ready(number);
    const formKey = randomUUID();
    const balance = { paymentMethod: "cash" as const, paid: 16_183, reason: "", tendered: 20_000 };
    const [first, second] = await Promise.all([
      collect(number, balance, formKey),
      collect(number, balance, formKey),
    ]);
    const collected = `Ticket R-${number} is collected and closed. Give $38.17 in change.`;
    expect([first, second]).toEqual([
      { ok: true, message: collected },
      { ok: true, message: collected },
    ]);
    expect(await collect(number, balance, formKey)).toEqual({ ok: true, message: collected });
    expect((await ticketMoney(db, number)).payments).toEqual([
      expect.objectContaining({ kind: "balance", amountCents: 16_183 }),
    ]);
  });
});

describe("refunding a deposit when the device goes back unrepaired", () => {
  it("is refused while the repair is still ahead, or once it is done", async () => {
    await tillOpen();
    const { number } = await checkedIn();
    await deposit(number, { method: "cash", amountCents: 2000 });
    expect(await refund(number, 2000)).toEqual({
      ok: false,
      reason: "conflict",
      message: `A deposit is refunded when the device goes back unrepaired; ticket R-${number} is "Checked in".`,
    });
    await ready(number);
    expect(await refund(number, 2000)).toMatchObject({ ok: false, reason: "conflict" });
    expect((await ticketMoney(scratch.db(), number)).account.refundsCents).toBe(0);
  });

  it("gives cash back from the open till once, never more than was taken, in the history and the Z report", async () => {
    const db = scratch.db();
    await tillClosed();
    const tillId = await tillOpen();
    const { number } = await checkedIn();
    await deposit(number, { method: "cash", amountCents: 2500 });
    await declined(number);

    expect(await refund(number, 2501)).toEqual({
      ok: false,
      reason: "invalid",
      field: "amount",
      message: "At most $25.00 can be refunded: what was taken and not yet given back.",
    });
    const formKey = randomUUID();
    const [first, second] = await Promise.all([
      refund(number, 2500, { formKey }),
      refund(number, 2500, { formKey }),
    ]);
    const refunded = `Refunded $25.00 on ticket R-${number}: $25.00 in cash from the till.`;
    expect([first, second]).toEqual([
      { ok: true, message: refunded },
      { ok: true, message: refunded },
    ]);
    expect(await refund(number, 2500, { formKey })).toEqual({ ok: true, message: refunded });
    const money = await ticketMoney(db, number);
    expect(money.payments).toEqual([
      expect.objectContaining({ kind: "deposit", method: "cash", amountCents: 2500 }),
      expect.objectContaining({
        kind: "refund",
        method: "cash",
        amountCents: 2500,
        tillSessionId: tillId,
        refundedPaymentId: money.payments[0]!.id,
        staffName: "Carla Clerk",
      }),
    ]);
    expect(money.account).toMatchObject({ depositCents: 2500, refundsCents: 2500, paidCents: 0 });
    expect(await refund(number, 1)).toEqual({
      ok: false,
      reason: "invalid",
      field: "amount",
      message: "Nothing taken on this ticket is left to refund.",
    });
    const { ticket, events } = (await getTicket(db, number))!;
    expect(ticket.status).toBe("declined");
    expect(events.at(-1)).toMatchObject({
      fromStatus: "declined",
      toStatus: "declined",
      actorName: "Carla Clerk",
      note: "Refunded $25.00: $25.00 in cash from the till",
    });

    const report = await zReport(db, (await openTill(db))!, new Date());
    expect(report).toMatchObject({
      repairCashCents: 2500,
      repairCashRefundCents: 2500,
      repairCardRefundCents: 0,
      expectedCashCents: 5000,
    });
    const [header, row] = zReportRows([report]);
    expect(header!.slice(-2)).toEqual(["Repair refunds in cash", "Repair refunds to cards"]);
    expect(row!.slice(-2)).toEqual([25, 0]);
    // The money check finds the refund in order.
    const repairs = (await reconcileMoney(db, { providers: () => null })).differences.filter(
      (difference) => difference.repair === `R-${number}`,
    );
    expect(repairs).toEqual([]);
  });

  it("refuses cash with the till closed, recording nothing; a ticket returned unrepaired refunds too", async () => {
    const db = scratch.db();
    await tillOpen();
    const { number } = await checkedIn();
    await deposit(number, { method: "cash", amountCents: 4000 });
    await moveTicket(
      db,
      number,
      { from: "checked_in", to: "returned", note: "Cannot be repaired" },
      { staff: clerk, links, hours: HOURS },
    );
    await tillClosed();
    expect(await refund(number, 4000)).toEqual({
      ok: false,
      reason: "invalid",
      field: "amount",
      message: "The till is closed: open it at the counter to give the cash back from it.",
    });
    expect((await ticketMoney(db, number)).account.refundsCents).toBe(0);
    await tillOpen();
    expect(await refund(number, 1500)).toMatchObject({ ok: true });
    expect(await refund(number, 2500)).toMatchObject({ ok: true });
    expect((await ticketMoney(db, number)).account).toMatchObject({
      refundsCents: 4000,
      paidCents: 0,
    });
  });

  it("gives a card deposit back through the card provider, to the card first, then cash", async () => {
    const db = scratch.db();
    await tillOpen();
    const { number } = await checkedIn();
    await deposit(number, { method: "cash", amountCents: 1000 });
    await deposit(number, { method: "card", amountCents: 3000, reference: "pi_slip_1" });
    await declined(number);
    const asked: Parameters<PaymentProvider["refundPayment"]>[0][] = [];
    const test = createTestProvider({ appEnv: "test" });
    const provider: PaymentProvider = {
      ...test,
      async refundPayment(input) {
        asked.push(input);
        return test.refundPayment(input);
      },
    };
    expect(await refund(number, 3500, { cardProvider: provider })).toEqual({
      ok: true,
      message: `Refunded $35.00 on ticket R-${number}: $30.00 to the card, $5.00 in cash from the till.`,
    });
    expect(asked).toEqual([
      expect.objectContaining({
        orderId: null,
        repairTicket: number,
        paymentReference: "pi_slip_1",
        amountCents: 3000,
      }),
    ]);
    const refunds = (await ticketMoney(db, number)).payments.filter((p) => p.kind === "refund");
    expect(refunds).toEqual([
      expect.objectContaining({
        method: "card",
        amountCents: 3000,
        provider: "test",
        providerReference: expect.stringMatching(/^test_refund_repair\d+_/),
      }),
      expect.objectContaining({ method: "cash", amountCents: 500 }),
    ]);
    const report = await zReport(db, (await openTill(db))!, new Date());
    expect(report.repairCardRefundCents).toBeGreaterThanOrEqual(3000);
  });

  it("refunds a card paid through Stripe on its PaymentIntent; a refusal records nothing, and a retry refunds once", async () => {
    const db = scratch.db();
    const stripe = createStripeProvider({ secretKey: "sk_test_fake", apiBase: fake.apiBase });
    const session = await stripe.createCheckoutSession({
      orderId: null,
      repairTicket: 1,
      customerEmail: "card@example.test",
      lines: [{ title: "Deposit", quantity: 1, unitPriceCents: 5000 }],
      shippingCents: 0,
      shippingLabel: "",
      taxCents: 0,
      totalCents: 5000,
      successUrl: "https://shop.example.test/ok",
      cancelUrl: "https://shop.example.test/no",
      expiresAt: new Date(Date.now() + 60 * 60_000),
      idempotencyKey: randomUUID(),
    });
    fake.event("checkout.session.completed", session.id);
    const intent = fake.sessions.get(session.id)!.payment_intent as string;
    const { number } = await checkedIn();
    await deposit(number, { method: "card", amountCents: 5000, reference: intent });
    await declined(number);

    fake.failNext({ message: "The card network is down (fake)." });
    expect(await refund(number, 5000, { cardProvider: stripe })).toEqual({
      ok: false,
      reason: "refund-failed",
      message:
        "The refund of $50.00 to the card did not go through (The card network is down (fake).). Nothing was recorded; try again.",
    });
    expect((await ticketMoney(db, number)).account.refundsCents).toBe(0);
    expect(await refund(number, 5000, { cardProvider: stripe })).toMatchObject({ ok: true });
    const made = fake.refunds.filter((made) => made.payment_intent === intent);
    expect(made).toEqual([
      expect.objectContaining({ amount: 5000, metadata: { repair_ticket: String(number) } }),
    ]);
    const [back] = (await ticketMoney(db, number)).payments.filter((p) => p.kind === "refund");
    expect(back).toMatchObject({ provider: "stripe", providerReference: made[0]!.id });
  });

  it("cannot refund a card recorded without its reference, and says so", async () => {
    await tillOpen();
    const { number } = await checkedIn();
    await deposit(number, { method: "card", amountCents: 3000 });
    await declined(number);
    expect(await refund(number, 3000)).toEqual({
      ok: false,
      reason: "refund-failed",
      message:
        "The card payment of $30.00 was recorded without the card's reference, so the card provider cannot find it: refund it from the provider's dashboard.",
    });
    expect((await ticketMoney(scratch.db(), number)).account.refundsCents).toBe(0);
  });
});
