import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkoutSessionInput, placedOrder } from "#tests/support/order-fixtures.ts";
import { startFakeStripe, type FakeStripe } from "#tests/support/fake-stripe.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { createStripeProvider } from "./stripe.server.ts";

// Opening Checkout Sessions; the webhook that confirms them is the orders domain's
// (orders/stripe-webhook.server.test.ts).
const db = testDatabase();

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.close();
});

const provider = () => createStripeProvider({ secretKey: "sk_test_fake", apiBase: fake.apiBase });

describe("opening a Stripe Checkout Session", () => {
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it("sends the order's own lines and prices, shipping, sales tax and expiry", async () => {
    const { order, films } = await placedOrder(db, {
      lines: [
        { stock: 5, priceCents: 1999, quantity: 2 },
        { stock: 5, priceCents: 500, quantity: 1 },
      ],
    });
    // 2 × 19.99 + 5.00 = 44.98, + 5.99 shipping = 50.97, × 8.25 % = 4.205 → 4.21 tax.
    expect(order.taxCents).toBe(421);
    expect(order.totalCents).toBe(5518);
    const input = checkoutSessionInput(order);
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
    const { order, films } = await placedOrder(db, {
      lines: [{ stock: 5, priceCents: 10_000, quantity: 2 }],
      state: "CA",
      postalCode: "94103",
    });
    expect(order.shippingCents).toBe(0);
    expect(order.taxCents).toBe(0);
    const session = await provider().createCheckoutSession(checkoutSessionInput(order));
    expect(fake.lineItems(session.id)).toEqual([
      { name: films[0]!.title, unitAmount: 10_000, quantity: 2 },
    ]);
    expect(fake.sessions.get(session.id)!.amount_total).toBe(20_000);
  });

  it("opens one session for one idempotency key, however often it is asked", async () => {
    const { order } = await placedOrder(db, {
      lines: [{ stock: 5, priceCents: 1999, quantity: 1 }],
    });
    const input = checkoutSessionInput(order);
    const sessionsBefore = fake.sessions.size;
    const first = await provider().createCheckoutSession(input);
    const second = await provider().createCheckoutSession(input);
    expect(second).toEqual(first);
    expect(fake.requests).toHaveLength(2);
    expect(fake.sessions.size).toBe(sessionsBefore + 1);
  });

  it("throws Stripe's error, and the same request works when tried again", async () => {
    const { order } = await placedOrder(db, {
      lines: [{ stock: 5, priceCents: 1999, quantity: 1 }],
    });
    const input = checkoutSessionInput(order);
    fake.failNext();
    await expect(provider().createCheckoutSession(input)).rejects.toBeInstanceOf(
      Stripe.errors.StripeAPIError,
    );
    const session = await provider().createCheckoutSession(input);
    expect(session.id).toMatch(/^cs_test_/);
  });

  it("refuses to ask for a sum other than the order's total", async () => {
    const { order } = await placedOrder(db, {
      lines: [{ stock: 5, priceCents: 1999, quantity: 1 }],
    });
    await expect(
      provider().createCheckoutSession(
        checkoutSessionInput(order, { totalCents: order.totalCents + 1 }),
      ),
    ).rejects.toThrow(/lines come to/);
    expect(fake.requests).toHaveLength(0);
  });
});
