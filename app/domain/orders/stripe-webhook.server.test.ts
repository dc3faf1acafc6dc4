import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { extraPayments, orders, paymentEvents } from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { checkoutSessionInput, placedOrder, regularStock } from "#tests/support/order-fixtures.ts";
import {
  startFakeStripe,
  type CheckoutEventType,
  type FakeStripe,
} from "#tests/support/fake-stripe.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { refundExtraPayment } from "#app/domain/payments/extra-payments.server.ts";
import { createStripeProvider } from "#app/domain/payments/stripe.server.ts";
import { recordPaymentSession } from "./fulfilment.server.ts";
import {
  ASYNC_PAYMENT_HOLD_DAYS,
  handleStripeWebhook,
  type StripeWebhookProblem,
} from "./stripe-webhook.server.ts";

const db = testDatabase();
const ORDERS_URL = "http://shop.test/orders";
const WEBHOOK_SECRET = `whsec_test_${randomUUID().replaceAll("-", "")}`;

let fake: FakeStripe;
let boss: PgBoss;
beforeAll(async () => {
  fake = await startFakeStripe();
  boss = await startOutbox(inject("databaseUrl"), { onError() {} });
});
afterAll(async () => {
  await stopOutbox(boss);
  await fake.close();
});

const provider = () => createStripeProvider({ secretKey: "sk_test_fake", apiBase: fake.apiBase });

describe("Stripe's webhook", () => {
  let problems: StripeWebhookProblem[] = [];
  beforeEach(() => {
    problems = [];
  });

  /** A pending order of `quantity` of a new title, with its Stripe session recorded. */
  async function orderBeingPaid(input: { stock: number; quantity: number; record?: boolean }) {
    const { order, films } = await placedOrder(db, {
      lines: [{ stock: input.stock, priceCents: 1999, quantity: input.quantity }],
    });
    const session = await provider().createCheckoutSession(checkoutSessionInput(order));
    if (input.record !== false) {
      const recorded = await recordPaymentSession(db, {
        orderId: order.id,
        provider: "stripe",
        sessionId: session.id,
        expiresAt: session.expiresAt,
      });
      expect(recorded).toBe(true);
    }
    return { order, film: films[0]!, sessionId: session.id };
  }

  function deliver(
    delivery: { rawBody: string | Buffer; signature: string | null },
    secret = WEBHOOK_SECRET,
  ) {
    return handleStripeWebhook(db, {
      ...delivery,
      webhookSecret: secret,
      ordersUrl: ORDERS_URL,
      onProblem: (problem) => problems.push(problem),
    });
  }

  /** Sends Stripe's event for the session; `changes` alter the session inside it. */
  function send(type: CheckoutEventType, sessionId: string, changes = {}) {
    const event = fake.event(type, sessionId, changes);
    return { event, delivery: fake.signedWebhook(event, WEBHOOK_SECRET) };
  }

  async function orderState(orderId: number) {
    const [row] = await db
      .select({
        status: orders.status,
        paidAt: orders.paidAt,
        paymentExpiresAt: orders.paymentExpiresAt,
      })
      .from(orders)
      .where(eq(orders.id, orderId));
    return row!;
  }

  async function recorded(eventId: string) {
    const rows = await db
      .select({ orderId: paymentEvents.orderId })
      .from(paymentEvents)
      .where(and(eq(paymentEvents.provider, "stripe"), eq(paymentEvents.eventId, eventId)));
    return rows;
  }

  /** Confirmation e-mails queued for an order (jobs of the mail queue, whatever their state). */
  async function confirmations(orderId: number) {
    const { rows } = await db.execute<{ data: { subject: string } }>(
      sql`select data from pgboss.job
          where name = 'mail-send' and data->>'subject' like ${`% order #${orderId} is confirmed`}`,
    );
    return rows;
  }

  it("refuses a wrong, missing or tampered signature with 400 and writes nothing", async () => {
    const { order, film, sessionId } = await orderBeingPaid({ stock: 5, quantity: 2 });
    const { event, delivery } = send("checkout.session.completed", sessionId);

    const wrongSecret = fake.signedWebhook(event, "whsec_someone_else");
    expect(await deliver(wrongSecret)).toEqual({
      status: 400,
      body: { error: "Invalid Stripe signature." },
    });
    expect(await deliver({ rawBody: delivery.rawBody, signature: null })).toEqual({
      status: 400,
      body: { error: "Missing Stripe-Signature header." },
    });
    expect((await deliver({ rawBody: delivery.rawBody, signature: "t=1,v1=abc" })).status).toBe(
      400,
    );
    const tampered = delivery.rawBody.replace(
      `"amount_total": ${order.totalCents}`,
      `"amount_total": 1`,
    );
    expect(tampered).not.toBe(delivery.rawBody);
    expect((await deliver({ rawBody: tampered, signature: delivery.signature })).status).toBe(400);

    expect(await orderState(order.id)).toMatchObject({ status: "pending", paidAt: null });
    expect(await recorded(event.id)).toEqual([]);
    expect(await confirmations(order.id)).toHaveLength(0);
    expect(await regularStock(db, film.serialNo)).toBe(3);
    // The genuine delivery, as a Buffer the way some servers hand it over, still counts.
    const genuine = await deliver({ ...delivery, rawBody: Buffer.from(delivery.rawBody) });
    expect(genuine).toEqual({
      status: 200,
      body: { received: true, outcome: "paid", orderId: order.id },
    });
  });

  it("refuses a delivery signed more than five minutes ago", async () => {
    const { order, sessionId } = await orderBeingPaid({ stock: 5, quantity: 1 });
    const event = fake.event("checkout.session.completed", sessionId);
    const stale = fake.signedWebhook(event, WEBHOOK_SECRET, {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(await deliver(stale)).toEqual({
      status: 400,
      body: { error: "Invalid Stripe signature." },
    });
    expect(await orderState(order.id)).toMatchObject({ status: "pending", paidAt: null });
    expect(await recorded(event.id)).toEqual([]);
  });

  it("pays once for the same completed event delivered 10 times in a row", async () => {
    const { order, film, sessionId } = await orderBeingPaid({ stock: 5, quantity: 2 });
    const { event, delivery } = send("checkout.session.completed", sessionId);
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push((await deliver(delivery)).body);
    expect(outcomes[0]).toEqual({ received: true, outcome: "paid", orderId: order.id });
    expect(outcomes.slice(1)).toEqual(
      Array(9).fill({ received: true, outcome: "duplicate-event", orderId: order.id }),
    );
    expect((await orderState(order.id)).status).toBe("paid");
    // Reserved at placement (5 → 3) and not touched again.
    expect(await regularStock(db, film.serialNo)).toBe(3);
    expect(await confirmations(order.id)).toHaveLength(1);
    expect(await recorded(event.id)).toEqual([{ orderId: order.id }]);
  });

  it("pays once for the same completed event delivered 10 times at once", async () => {
    const { order, film, sessionId } = await orderBeingPaid({ stock: 5, quantity: 2 });
    const { delivery } = send("checkout.session.completed", sessionId);
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(delivery)));
    expect(results.every((result) => result.status === 200)).toBe(true);
    const outcomes = results.map((result) =>
      "outcome" in result.body ? result.body.outcome : null,
    );
    expect(outcomes.filter((outcome) => outcome === "paid")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "duplicate-event")).toHaveLength(9);
    expect((await orderState(order.id)).status).toBe("paid");
    expect(await regularStock(db, film.serialNo)).toBe(3);
    expect(await confirmations(order.id)).toHaveLength(1);
  });

  it("keeps a paid order paid, and its stock sold, when the expiry comes after", async () => {
    const { order, film, sessionId } = await orderBeingPaid({ stock: 5, quantity: 2 });
    expect(
      (await deliver(send("checkout.session.completed", sessionId).delivery)).body,
    ).toMatchObject({
      outcome: "paid",
    });
    const { event, delivery } = send("checkout.session.expired", sessionId);
    expect(await deliver(delivery)).toEqual({
      status: 200,
      body: { received: true, outcome: "unchanged", orderId: order.id },
    });
    expect((await orderState(order.id)).status).toBe("paid");
    expect(await regularStock(db, film.serialNo)).toBe(3);
    expect(await recorded(event.id)).toEqual([{ orderId: order.id }]);
    expect(await confirmations(order.id)).toHaveLength(1);
  });

  it("expires a pending order and returns its stock once, with the event sent 5 times at once", async () => {
    const { order, film, sessionId } = await orderBeingPaid({ stock: 5, quantity: 2 });
    const { event, delivery } = send("checkout.session.expired", sessionId);
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(delivery)));
    const outcomes = results.map((result) =>
      "outcome" in result.body ? result.body.outcome : null,
    );
    expect(outcomes.filter((outcome) => outcome === "released")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "duplicate-event")).toHaveLength(4);
    expect((await orderState(order.id)).status).toBe("expired");
    expect(await regularStock(db, film.serialNo)).toBe(5);
    expect(await recorded(event.id)).toEqual([{ orderId: order.id }]);
    // Another expiry event for it (Stripe resends with a new id only for new events) changes nothing.
    const again = await deliver(send("checkout.session.expired", sessionId).delivery);
    expect(again.body).toMatchObject({ outcome: "unchanged" });
    expect(await regularStock(db, film.serialNo)).toBe(5);
  });

  it("takes the stock again for a payment that completes after the expiry", async () => {
    const { order, film, sessionId } = await orderBeingPaid({ stock: 5, quantity: 2 });
    await deliver(send("checkout.session.expired", sessionId).delivery);
    expect(await regularStock(db, film.serialNo)).toBe(5);
    const late = await deliver(send("checkout.session.completed", sessionId).delivery);
    expect(late.body).toEqual({ received: true, outcome: "paid", orderId: order.id });
    expect((await orderState(order.id)).status).toBe("paid");
    expect(await regularStock(db, film.serialNo)).toBe(3);
    expect(await confirmations(order.id)).toHaveLength(1);
  });

  it("waits for a delayed payment method, holding the stock, then pays once", async () => {
    const { order, film, sessionId } = await orderBeingPaid({ stock: 5, quantity: 2 });
    const completed = await deliver(
      send("checkout.session.completed", sessionId, { payment_status: "unpaid" }).delivery,
    );
    expect(completed.body).toEqual({
      received: true,
      outcome: "awaiting-payment",
      orderId: order.id,
    });
    const waiting = await orderState(order.id);
    expect(waiting.status).toBe("pending");
    // The sweep must not return the stock while the bank debit clears.
    expect(waiting.paymentExpiresAt!.getTime()).toBeGreaterThan(
      Date.now() + (ASYNC_PAYMENT_HOLD_DAYS - 1) * 24 * 3600_000,
    );
    expect(await confirmations(order.id)).toHaveLength(0);

    const succeeded = send("checkout.session.async_payment_succeeded", sessionId);
    expect((await deliver(succeeded.delivery)).body).toEqual({
      received: true,
      outcome: "paid",
      orderId: order.id,
    });
    expect((await deliver(succeeded.delivery)).body).toMatchObject({ outcome: "duplicate-event" });
    expect((await orderState(order.id)).status).toBe("paid");
    expect(await regularStock(db, film.serialNo)).toBe(3);
    expect(await confirmations(order.id)).toHaveLength(1);
  });

  it("cancels the order and returns its stock when a delayed payment fails", async () => {
    const { order, film, sessionId } = await orderBeingPaid({ stock: 5, quantity: 2 });
    await deliver(
      send("checkout.session.completed", sessionId, { payment_status: "unpaid" }).delivery,
    );
    const failed = send("checkout.session.async_payment_failed", sessionId);
    expect((await deliver(failed.delivery)).body).toEqual({
      received: true,
      outcome: "released",
      orderId: order.id,
    });
    expect((await deliver(failed.delivery)).body).toMatchObject({ outcome: "duplicate-event" });
    expect((await orderState(order.id)).status).toBe("cancelled");
    expect(await regularStock(db, film.serialNo)).toBe(5);
    expect(await confirmations(order.id)).toHaveLength(0);
  });

  it("does not mark paid what Stripe charged a different amount for, and says so once", async () => {
    const { order, film, sessionId } = await orderBeingPaid({ stock: 5, quantity: 1 });
    const { event, delivery } = send("checkout.session.completed", sessionId, {
      amount_total: order.totalCents - 100,
    });
    expect(await deliver(delivery)).toEqual({
      status: 200,
      body: { received: true, outcome: "amount-mismatch", orderId: order.id },
    });
    expect(problems).toEqual([
      expect.objectContaining({
        outcome: "amount-mismatch",
        orderId: order.id,
        eventId: event.id,
        sessionId,
      }),
    ]);
    // Stripe's retries are recognised and answered the same way, without a second alarm.
    expect((await deliver(delivery)).body).toMatchObject({ outcome: "duplicate-event" });
    expect(problems).toHaveLength(1);
    expect(await orderState(order.id)).toMatchObject({ status: "pending", paidAt: null });
    expect(await regularStock(db, film.serialNo)).toBe(4);
    expect(await confirmations(order.id)).toHaveLength(0);
    expect(await recorded(event.id)).toEqual([{ orderId: order.id }]);
  });

  it("finds the order by its number when the checkout did not get to record the session", async () => {
    const { order, sessionId } = await orderBeingPaid({ stock: 5, quantity: 1, record: false });
    const paid = await deliver(send("checkout.session.completed", sessionId).delivery);
    expect(paid.body).toEqual({ received: true, outcome: "paid", orderId: order.id });
    expect((await orderState(order.id)).status).toBe("paid");
  });

  it("records money taken twice as a refund due: another session than the order's, or a second payment", async () => {
    const { order, sessionId } = await orderBeingPaid({ stock: 5, quantity: 1 });
    const extraPaid = async (key: string) => {
      const other = await provider().createCheckoutSession(
        checkoutSessionInput(order, { idempotencyKey: `order-${order.id}-${key}` }),
      );
      return { id: other.id, ...send("checkout.session.completed", other.id) };
    };
    const extras = () =>
      db
        .select({ sessionId: extraPayments.sessionId, reason: extraPayments.reason })
        .from(extraPayments)
        .where(eq(extraPayments.orderId, order.id))
        .orderBy(extraPayments.id);

    // A session that is not the one recorded on the order: not credited, recorded, told.
    const stray = await extraPaid("stray");
    expect((await deliver(stray.delivery)).body).toEqual({
      received: true,
      outcome: "refund-due",
      orderId: order.id,
    });
    expect(await orderState(order.id)).toMatchObject({ status: "pending", paidAt: null });
    // Stripe's retries of it change nothing more.
    expect((await deliver(stray.delivery)).body).toMatchObject({ outcome: "duplicate-event" });

    // The order's own session pays it; a further paid session is money taken twice.
    expect(
      (await deliver(send("checkout.session.completed", sessionId).delivery)).body,
    ).toMatchObject({
      outcome: "paid",
    });
    const second = await extraPaid("second");
    expect((await deliver(second.delivery)).body).toMatchObject({ outcome: "refund-due" });
    expect(await extras()).toEqual([
      { sessionId: stray.id, reason: "other-session" },
      { sessionId: second.id, reason: "already-paid" },
    ]);
    expect(problems.map((problem) => [problem.outcome, problem.sessionId])).toEqual([
      ["refund-due", stray.id],
      ["refund-due", second.id],
    ]);
    expect((await orderState(order.id)).status).toBe("paid");

    // Staff pay each back once through Stripe, two at once included.
    const [first] = await db
      .select({ id: extraPayments.id })
      .from(extraPayments)
      .where(eq(extraPayments.sessionId, stray.id));
    const refund = () =>
      refundExtraPayment(db, {
        orderId: order.id,
        extraPaymentId: first!.id,
        providerNamed: () => provider(),
      });
    const answers = await Promise.all([refund(), refund()]);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.find((answer) => !answer.ok)).toEqual({
      ok: false,
      message: "This payment was refunded already.",
    });
  });

  it("answers 200 for sessions of no order here and events it does not act on", async () => {
    const { sessionId } = await orderBeingPaid({ stock: 5, quantity: 1 });
    const elsewhere = send("checkout.session.completed", sessionId, {
      id: `cs_test_${randomUUID().replaceAll("-", "")}`,
      metadata: { order_id: "999999999" },
      client_reference_id: "999999999",
    });
    expect((await deliver(elsewhere.delivery)).body).toEqual({
      received: true,
      outcome: "unknown-order",
    });
    expect(problems).toEqual([expect.objectContaining({ outcome: "unknown-order" })]);

    const other = { id: `evt_test_${randomUUID()}`, object: "event", type: "charge.refunded" };
    const delivery = fake.signedWebhook({ ...other, data: { object: {} } }, WEBHOOK_SECRET);
    expect(await deliver(delivery)).toEqual({
      status: 200,
      body: { received: true, outcome: "ignored" },
    });
  });
});
