import { describe, expect, it } from "vitest";
import { refundAmount, type EarlierRefunds } from "./refund-amount.ts";

// Two lines: 2 × $19.99 and 1 × $24.50, $6.99 shipping, 8.25 % on goods and shipping.
const order = {
  subtotalCents: 2 * 1999 + 2450,
  shippingCents: 699,
  taxCents: Math.round((2 * 1999 + 2450 + 699) * 0.0825),
  totalCents: 2 * 1999 + 2450 + 699 + 590,
  lines: [
    { key: "regular:1", quantity: 2 },
    { key: "regular:2", quantity: 1 },
  ],
};
const none: EarlierRefunds = {
  goodsCents: 0,
  shippingCents: 0,
  taxCents: 0,
  postageCents: 0,
  quantities: new Map(),
};

describe("refundAmount", () => {
  it("refunds one line at the price paid with its share of the tax, and no shipping", () => {
    const amount = refundAmount(
      order,
      [{ key: "regular:2", quantity: 1, unitPriceCents: 2450 }],
      none,
      { shipping: "when-all-returned", postageCents: 600, byMail: false },
    );
    // 2450 of a taxed base of 7147 carries 2450/7147 of the order's 590 tax: 202.
    expect(order.taxCents).toBe(590);
    expect(amount).toEqual({
      goodsCents: 2450,
      shippingCents: 0,
      taxCents: 202,
      postageCents: 0,
      totalCents: 2652,
    });
  });

  it("gives back exactly what was paid when the whole order comes back in several returns", () => {
    const first = refundAmount(
      order,
      [{ key: "regular:1", quantity: 1, unitPriceCents: 1999 }],
      none,
      { shipping: "when-all-returned", postageCents: 600, byMail: false },
    );
    const afterFirst: EarlierRefunds = {
      goodsCents: first.goodsCents,
      shippingCents: first.shippingCents,
      taxCents: first.taxCents,
      postageCents: 0,
      quantities: new Map([["regular:1", 1]]),
    };
    const second = refundAmount(
      order,
      [
        { key: "regular:1", quantity: 1, unitPriceCents: 1999 },
        { key: "regular:2", quantity: 1, unitPriceCents: 2450 },
      ],
      afterFirst,
      { shipping: "when-all-returned", postageCents: 600, byMail: false },
    );
    expect(second.shippingCents).toBe(699);
    expect(first.totalCents + second.totalCents).toBe(
      order.subtotalCents + order.shippingCents + order.taxCents,
    );
    expect(first.taxCents + second.taxCents).toBe(order.taxCents);
  });

  it("keeps the shipping, and the tax on it, when the policy never refunds shipping", () => {
    const amount = refundAmount(
      order,
      [
        { key: "regular:1", quantity: 2, unitPriceCents: 1999 },
        { key: "regular:2", quantity: 1, unitPriceCents: 2450 },
      ],
      none,
      { shipping: "never", postageCents: 600, byMail: false },
    );
    expect(amount.shippingCents).toBe(0);
    expect(amount.taxCents).toBe(Math.round((590 * 6448) / 7147));
    expect(amount.totalCents).toBe(6448 + amount.taxCents);
  });

  it("adds the postage contribution, untaxed, to a return sent by mail", () => {
    const amount = refundAmount(
      order,
      [{ key: "regular:2", quantity: 1, unitPriceCents: 2450 }],
      none,
      { shipping: "when-all-returned", postageCents: 600, byMail: true },
    );
    expect(amount).toEqual({
      goodsCents: 2450,
      shippingCents: 0,
      taxCents: 202,
      postageCents: 600,
      totalCents: 3252,
    });
  });

  it("never refunds more than was paid: the postage share fits in what is left", () => {
    const amount = refundAmount(
      order,
      [
        { key: "regular:1", quantity: 2, unitPriceCents: 1999 },
        { key: "regular:2", quantity: 1, unitPriceCents: 2450 },
      ],
      none,
      { shipping: "when-all-returned", postageCents: 600, byMail: true },
    );
    expect(amount.postageCents).toBe(0);
    expect(amount.totalCents).toBe(order.totalCents);
  });

  it("refunds no tax where none was charged", () => {
    const untaxed = { ...order, taxCents: 0, totalCents: order.totalCents - 590 };
    const amount = refundAmount(
      untaxed,
      [{ key: "regular:2", quantity: 1, unitPriceCents: 2450 }],
      none,
      { shipping: "when-all-returned", postageCents: 600, byMail: false },
    );
    expect(amount).toEqual({
      goodsCents: 2450,
      shippingCents: 0,
      taxCents: 0,
      postageCents: 0,
      totalCents: 2450,
    });
  });
});
