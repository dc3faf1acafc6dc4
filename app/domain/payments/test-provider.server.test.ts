import { describe, expect, it } from "vitest";
import { checkTestCard, createTestProvider } from "./test-provider.server.ts";

const NOW = new Date("2026-11-22T12:00:00Z");

describe("the test payment provider", () => {
  it("follows the test-card convention", () => {
    expect(checkTestCard("4242 4242 4242 4242", "12/30", NOW)).toEqual({ ok: true });
    expect(checkTestCard("4000 0000 0000 0002", "12/30", NOW)).toMatchObject({
      ok: false,
      field: null,
      message: "Your card was declined.",
    });
  });

  it("refuses malformed numbers and past or impossible expiries next to their field", () => {
    expect(checkTestCard("4242 4242 4242 4241", "12/30", NOW)).toMatchObject({
      field: "cardNumber",
    });
    expect(checkTestCard("4242", "12/30", NOW)).toMatchObject({ field: "cardNumber" });
    expect(checkTestCard("4242 4242 4242 4242", "10/26", NOW)).toMatchObject({
      field: "expiry",
      message: "This card has expired.",
    });
    expect(checkTestCard("4242 4242 4242 4242", "11/26", NOW)).toEqual({ ok: true });
    expect(checkTestCard("4242 4242 4242 4242", "13/30", NOW)).toMatchObject({ field: "expiry" });
    expect(checkTestCard("4242 4242 4242 4242", "1230", NOW)).toMatchObject({ field: "expiry" });
  });

  it("opens the same session for the same key, and never runs in production", async () => {
    const provider = createTestProvider({ appEnv: "local" });
    const input = {
      orderId: 7,
      customerEmail: "a@example.test",
      lines: [{ title: "Film", quantity: 1, unitPriceCents: 1000 }],
      shippingCents: 599,
      shippingLabel: "Standard shipping",
      taxCents: 0,
      totalCents: 1599,
      successUrl: "http://shop.test/cart-success?order=7",
      cancelUrl: "http://shop.test/checkout/cancel?order=7",
      expiresAt: NOW,
      idempotencyKey: "order-7",
    };
    const first = await provider.createCheckoutSession(input);
    expect(await provider.createCheckoutSession(input)).toEqual(first);
    expect(first.url).toBe(`/checkout/test-payment/${first.id}`);
    expect(() => createTestProvider({ appEnv: "production" })).toThrow();
  });
});
