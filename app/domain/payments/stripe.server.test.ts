import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { extraPayments, orders, paymentEvents } from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import type { CustomerOrder } from "#app/domain/orders/customer-orders.server.ts";
import { recordPaymentSession } from "#app/domain/orders/fulfilment.server.ts";
import { placeOrder, type PlaceOrderConfig } from "#app/domain/orders/place-order.server.ts";
import {
  createCustomer,
  createRegularTitle,
  orderInput,
  regularStock,
  TEST_ADDRESS,
} from "#tests/support/order-fixtures.ts";
import { parseSalesTaxRates } from "#app/lib/sales-tax.ts";
import { shippingOption } from "#app/lib/shipping.ts";
import {
  startFakeStripe,
  type CheckoutEventType,
  type FakeStripe,
} from "#tests/support/fake-stripe.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import type { CheckoutSessionInput } from "./provider.server.ts";
import {
  ASYNC_PAYMENT_HOLD_DAYS,
  handleStripeWebhook,
  type StripeWebhookProblem,
} from "#app/domain/orders/stripe-webhook.server.ts";
import { refundExtraPayment } from "./extra-payments.server.ts";
import { createStripeProvider } from "./stripe.server.ts";

const db = testDatabase();
const config: PlaceOrderConfig = {
  salesTaxRates: parseSalesTaxRates("TX:0.0825"),
  freeShippingThresholdCents: 20_000,
  timeZone: "America/Chicago",
};
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

/** The session request for a placed order, as the checkout makes it. */
function sessionInput(order: CustomerOrder, overrides: Partial<CheckoutSessionInput> = {}) {
  return {
    orderId: order.id,
    customerEmail: order.shipping.email,
    lines: order.items.map(({ title, quantity, unitPriceCents }) => ({
      title,
      quantity,
      unitPriceCents,
    })),
    shippingCents: order.shippingCents,
    shippingLabel: `${shippingOption(order.shipping.method).name} shipping`,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    successUrl: `http://shop.test/cart-success?order=${order.id}`,
    cancelUrl: `http://shop.test/checkout/cancel?order=${order.id}`,
    expiresAt: new Date(Date.now() + 60 * 60_000),
    idempotencyKey: `order-${order.id}`,
    ...overrides,
  } satisfies CheckoutSessionInput;
}

async function placedOrder(input: {
  lines: { stock: number; priceCents: number; quantity: number }[];
  state?: string;
  postalCode?: string;
}) {
  const customer = await createCustomer(db);
  const films = await Promise.all(
    input.lines.map((line) =>
      createRegularTitle(db, { qty: line.stock, priceCents: line.priceCents }),
    ),
  );
  const result = await placeOrder(
    db,
    orderInput(
      customer,
      films.map((film, i) => ({
        productType: "regular" as const,
        serialNo: film.serialNo,
        quantity: input.lines[i]!.quantity,
      })),
      {
        shipping: {
          ...TEST_ADDRESS,
          state: input.state ?? TEST_ADDRESS.state,
          postalCode: input.postalCode ?? TEST_ADDRESS.postalCode,
        },
      },
    ),
    config,
  );
  if (!result.ok) throw new Error(`order not placed: ${result.reason}`);
  return { order: result.order, films };
}

describe("opening a Stripe Checkout Session", () => {
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it("sends the order's own lines and prices, shipping, sales tax and expiry", async () => {
    const { order, films } = await placedOrder({
      lines: [
        { stock: 5, priceCents: 1999, quantity: 2 },
        { stock: 5, priceCents: 500, quantity: 1 },
      ],
    });
    // 2 × 19.99 + 5.00 = 44.98, + 5.99 shipping = 50.97, × 8.25 % = 4.205 → 4.21 tax.
    expect(order.taxCents).toBe(421);
    expect(order.totalCents).toBe(5518);
    const input = sessionInput(order);
    const session = await provider().createCheckoutSession(input);

    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${fake.apiBase}/c/pay/${session.id}`);
    expect(session.expiresAt).toEqual(
      new Date(Math.floor(input.expiresAt.getTime() / 1000) * 1000),
    );
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/v1/checkout/sessions");
    expect(request!.idempotencyKey).toBe(`order-${order.id}`);
    expect(request!.params).toMatchObject({
      mode: "payment",
      customer_email: "ada@example.test",
      client_reference_id: String(order.id),
      metadata: { order_id: String(order.id) },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      expires_at: String(Math.floor(input.expiresAt.getTime() / 1000)),
    });
    const item = (name: string, unitAmount: number, quantity: number) => ({
      quantity: String(quantity),
      price_data: {
        currency: "usd",
        unit_amount: String(unitAmount),
        product_data: { name },
      },
    });
    expect(request!.params.line_items).toEqual([
      item(films[0]!.title, 1999, 2),
      item(films[1]!.title, 500, 1),
      item("Standard shipping", 599, 1),
      item("Sales tax", 421, 1),
    ]);
    // What Stripe will charge is the order's total, to the cent.
    expect(fake.sessions.get(session.id)!.amount_total).toBe(order.totalCents);
  });

  it("leaves out free shipping and a zero sales tax", async () => {
    const { order, films } = await placedOrder({
      lines: [{ stock: 5, priceCents: 10_000, quantity: 2 }],
      state: "CA",
      postalCode: "94103",
    });
    expect(order.shippingCents).toBe(0);
    expect(order.taxCents).toBe(0);
    const session = await provider().createCheckoutSession(sessionInput(order));
    expect(fake.lineItems(session.id)).toEqual([
      { name: films[0]!.title, unitAmount: 10_000, quantity: 2 },
    ]);
    expect(fake.sessions.get(session.id)!.amount_total).toBe(20_000);
  });

  it("opens one session for one idempotency key, however often it is asked", async () => {
    const { order } = await placedOrder({ lines: [{ stock: 5, priceCents: 1999, quantity: 1 }] });
    const input = sessionInput(order);
    const sessionsBefore = fake.sessions.size;
    const first = await provider().createCheckoutSession(input);
    const second = await provider().createCheckoutSession(input);
    expect(second).toEqual(first);
    expect(fake.requests).toHaveLength(2);
    expect(fake.sessions.size).toBe(sessionsBefore + 1);
  });

  it("throws Stripe's error, and the same request works when tried again", async () => {
    const { order } = await placedOrder({ lines: [{ stock: 5, priceCents: 1999, quantity: 1 }] });
    const input = sessionInput(order);
    fake.failNext();
    await expect(provider().createCheckoutSession(input)).rejects.toBeInstanceOf(
      Stripe.errors.StripeAPIError,
    );
    const session = await provider().createCheckoutSession(input);
    expect(session.id).toMatch(/^cs_test_/);
  });

  it("refuses to ask for a sum other than the order's total", async () => {
    const { order } = await placedOrder({ lines: [{ stock: 5, priceCents: 1999, quantity: 1 }] });
    await expect(
      provider().createCheckoutSession(sessionInput(order, { totalCents: order.totalCents + 1 })),
    ).rejects.toThrow(/lines come to/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("Stripe's webhook", () => {
  let problems: StripeWebhookProblem[] = [];
  beforeEach(() => {
    problems = [];
  });

  /** A pending order of `quantity` of a new title, with its Stripe session recorded. */
  async function orderBeingPaid(input: { stock: number; quantity: number; record?: boolean }) {
    const { order, films } = await placedOrder({
      lines: [{ stock: input.stock, priceCents: 1999, quantity: input.quantity }],
    });
    const session = await provider().createCheckoutSession(sessionInput(order));
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
        sessionInput(order, { idempotencyKey: `order-${order.id}-${key}` }),
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
