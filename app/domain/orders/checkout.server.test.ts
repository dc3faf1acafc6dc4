import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "#app/db/client.server.ts";
import { orders, rateLimits } from "#app/db/schema.ts";
import { createStripeProvider } from "#app/domain/payments/stripe.server.ts";
import { startFakeStripe, type FakeStripe } from "#tests/support/fake-stripe.ts";
import { quoteCheckout, startPayment } from "./checkout.server.ts";
import {
  TEST_ADDRESS,
  createAdultTitle,
  createCustomer,
  createRegularTitle,
  regularStock,
  TEXAS_PRICING,
} from "#tests/support/order-fixtures.ts";

const { db, pool } = createDatabase(inject("databaseUrl"), 8);
const pricing = TEXAS_PRICING;
let stripe: FakeStripe;
let config: Parameters<typeof startPayment>[2];

beforeAll(async () => {
  stripe = await startFakeStripe();
  const provider = createStripeProvider({ secretKey: "sk_test_checkout", apiBase: stripe.apiBase });
  config = {
    ...pricing,
    providerFor: () => provider,
    publicUrl: "http://shop.test",
    secret: "checkout-test-secret",
  };
});

afterAll(async () => {
  await stripe.close();
  await pool.end();
});

async function checkout(qty = 5) {
  const customerId = await createCustomer(db);
  const title = await createRegularTitle(db, { qty, priceCents: 1999 });
  return {
    customerId,
    title,
    request: {
      customerId,
      checkoutKey: randomUUID(),
      shippingMethod: "standard" as const,
      shipping: { ...TEST_ADDRESS, state: "TX" as const },
      lines: [{ productType: "regular" as const, serialNo: title.serialNo, quantity: 2 }],
    },
  };
}

function sessionCalls() {
  return stripe.requests.filter((request) => request.path === "/v1/checkout/sessions").length;
}

describe("quoting the review step", () => {
  it("prices from the catalogue with shipping and the destination's tax", async () => {
    const { request } = await checkout();
    const result = await quoteCheckout(
      db,
      { lines: request.lines, shippingMethod: "standard", state: "TX" },
      pricing,
    );
    expect(result.ok && result.quote).toMatchObject({
      subtotalCents: 3998,
      shippingCents: 599,
      taxCents: Math.round((3998 + 599) * 0.0825),
    });
  });

  it("names a title that is short, with how many are left", async () => {
    const { request, title } = await checkout(1);
    const result = await quoteCheckout(
      db,
      { lines: request.lines, shippingMethod: "standard", state: "TX" },
      pricing,
    );
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toContain(`Only 1 of "${title.title}" left`);
  });
});

describe("starting payment", () => {
  it("places the order, opens one Stripe session and goes back to it when pressed again", async () => {
    const { request, title } = await checkout();
    const before = sessionCalls();
    const first = await startPayment(db, request, config);
    expect(first).toMatchObject({
      ok: true,
      redirectTo: expect.stringContaining("/c/pay/cs_test_"),
    });
    // Pressed again ten minutes later: the same session, not a second one.
    const later = await startPayment(db, request, {
      ...config,
      now: new Date(Date.now() + 10 * 60_000),
    });
    expect(later).toEqual(first);
    // Pressed five times at once: still the one session.
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => startPayment(db, request, config)),
    );
    expect(
      burst.every((result) => result.ok && result.redirectTo === (first.ok && first.redirectTo)),
    ).toBe(true);
    expect(sessionCalls() - before).toBe(1);
    expect(await regularStock(db, title.serialNo)).toBe(3);
  });

  it.each([
    ["each at its own moment", () => config],
    // The first press and a replay asking for a page in the same millisecond once shared an
    // idempotency key: the provider answered both with one session, and the first press closed
    // it as its own spare, leaving every press on a closed page.
    ["all in the same millisecond", () => ({ ...config, now: new Date() })],
  ])(
    "sends a first press and its replays sent at once to one payable session (%s)",
    async (_, pressConfig) => {
      for (let round = 0; round < 12; round++) {
        const { request, title } = await checkout();
        const before = new Set(stripe.sessions.keys());
        const sameConfig = pressConfig();
        const burst = await Promise.all(
          Array.from({ length: 6 }, () => startPayment(db, request, sameConfig)),
        );
        const targets = new Set(
          burst.map((result) => (result.ok ? result.redirectTo : `failed: ${result.message}`)),
        );
        // Where each press went, in full when they differ.
        expect([...targets], [...targets].join(" | ")).toHaveLength(1);
        const opened = [...stripe.sessions].filter(([id]) => !before.has(id));
        // The one every press was sent to is open; any other opened in the race is closed.
        const open = opened.filter(([, session]) => session.status === "open");
        expect(open).toHaveLength(1);
        expect([...targets][0]).toContain(open[0]![0]);
        const placed = await db
          .select({ sessionId: orders.paymentSessionId })
          .from(orders)
          .where(eq(orders.checkoutKey, request.checkoutKey));
        expect(placed).toEqual([{ sessionId: open[0]![0] }]);
        expect(await regularStock(db, title.serialNo)).toBe(3);
      }
    },
  );

  it("releases the order and its stock when the session cannot be opened; a new checkout pays", async () => {
    const { request, title } = await checkout();
    stripe.failNext();
    const failed = await startPayment(db, request, config);
    expect(failed).toEqual({ ok: false, message: "Could not start payment. Try again." });
    const [order] = await db
      .select({ status: orders.status, sessionId: orders.paymentSessionId })
      .from(orders)
      .where(eq(orders.checkoutKey, request.checkoutKey));
    // Nothing half done: no order holding stock without a page to pay it on.
    expect(order).toEqual({ status: "cancelled", sessionId: null });
    expect(await regularStock(db, title.serialNo)).toBe(5);

    // Pressing "Pay" again is a new checkout (the page hands out a new key).
    const retried = await startPayment(
      db,
      { ...request, checkoutKey: crypto.randomUUID() },
      config,
    );
    expect(retried.ok).toBe(true);
    expect(await regularStock(db, title.serialNo)).toBe(3);
  });

  it("keeps an order whose replay opened its page meanwhile", async () => {
    const { request, title } = await checkout();
    const first = await startPayment(db, request, config);
    expect(first.ok).toBe(true);
    // A replay whose own attempt fails finds the order paid-for-able: it is left alone.
    stripe.failNext();
    const replay = await startPayment(db, request, {
      ...config,
      now: new Date(Date.now() + 30 * 60_000),
    });
    expect(replay).toEqual({ ok: false, message: "Could not start payment. Try again." });
    const [order] = await db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.checkoutKey, request.checkoutKey));
    expect(order).toEqual({ status: "pending" });
    expect(await regularStock(db, title.serialNo)).toBe(3);
  });

  it("opens a new session when the last one is about to close", async () => {
    const { request } = await checkout();
    const first = await startPayment(db, request, config);
    const nearEnd = await startPayment(db, request, {
      ...config,
      now: new Date(Date.now() + 30 * 60_000),
    });
    expect(nearEnd.ok && first.ok && nearEnd.redirectTo !== first.redirectTo).toBe(true);
    // The old page can no longer be paid.
    const oldId = first.ok ? first.redirectTo.split("/").at(-1)! : "";
    expect(stripe.sessions.get(oldId)?.status).toBe("expired");
  });

  it("refuses orders with adult lines when no provider takes them", async () => {
    const { request } = await checkout();
    const result = await startPayment(
      db,
      { ...request, lines: [{ productType: "adult", serialNo: 1, quantity: 1 }] },
      { ...config, providerFor: (adult) => (adult ? null : config.providerFor(false)) },
    );
    expect(result).toMatchObject({
      ok: false,
      message: expect.stringContaining("cannot be bought online"),
    });
  });
});

describe("payment attempts", () => {
  const tooMany = {
    ok: false,
    message: "Too many payment attempts in a short time. Please wait a few minutes and try again.",
    retryAfterSeconds: expect.any(Number),
  };

  it("counts every attempt of an account, refused ones too, and past the limit places nothing", async () => {
    const { request, customerId, title } = await checkout();
    const attempts = { clientIp: `198.51.100.${randomUUID()}`, perAccount: 3, perClient: 100 };
    const limited = { ...config, attempts };
    const adult = await createAdultTitle(db, { qty: 3, priceCents: 1000 });
    expect(await startPayment(db, request, limited)).toMatchObject({ ok: true });
    // Refused before placing (no provider for adult titles) and while placing (short).
    expect(
      await startPayment(
        db,
        {
          ...request,
          checkoutKey: randomUUID(),
          lines: [{ productType: "adult", serialNo: adult.serialNo, quantity: 1 }],
        },
        { ...limited, providerFor: (hasAdult) => (hasAdult ? null : config.providerFor(false)) },
      ),
    ).toMatchObject({ ok: false, message: expect.stringContaining("cannot be bought online") });
    expect(
      await startPayment(
        db,
        {
          ...request,
          checkoutKey: randomUUID(),
          lines: [{ productType: "regular", serialNo: title.serialNo, quantity: 9 }],
        },
        limited,
      ),
    ).toMatchObject({ ok: false, soldOut: true });
    const refused = await startPayment(db, { ...request, checkoutKey: randomUUID() }, limited);
    expect(refused).toEqual(tooMany);
    expect(!refused.ok && refused.retryAfterSeconds! > 9 * 60).toBe(true);
    // The fourth attempt placed nothing; the short one had released the first.
    const placed = await db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.userId, customerId));
    expect(placed).toEqual([{ status: "cancelled" }]);
    expect(await regularStock(db, title.serialNo)).toBe(5);

    // Once the window has passed, attempts count from one again.
    await db
      .update(rateLimits)
      .set({ lastRequest: Date.now() - 11 * 60_000 })
      .where(eq(rateLimits.key, `shop:checkout:account:${customerId}`));
    expect(
      await startPayment(db, { ...request, checkoutKey: randomUUID() }, limited),
    ).toMatchObject({ ok: true });
  });

  it("counts the attempts of every account from one client address together", async () => {
    const clientIp = `203.0.113.${randomUUID()}`;
    const attempts = { clientIp, perAccount: 100, perClient: 2 };
    const first = await checkout();
    const second = await checkout();
    expect(await startPayment(db, first.request, { ...config, attempts })).toMatchObject({
      ok: true,
    });
    expect(await startPayment(db, second.request, { ...config, attempts })).toMatchObject({
      ok: true,
    });
    const third = await checkout();
    expect(await startPayment(db, third.request, { ...config, attempts })).toEqual(tooMany);
    // Another address is not held up by this one.
    expect(
      await startPayment(db, third.request, {
        ...config,
        attempts: { ...attempts, clientIp: `${clientIp}-other` },
      }),
    ).toMatchObject({ ok: true });
    const counted = await db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(eq(rateLimits.key, `shop:checkout:client:${clientIp}`));
    expect(counted).toEqual([{ count: 3 }]);
  });
});
