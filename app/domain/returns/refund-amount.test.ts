import { describe, expect, it } from "vitest";
import {
  addRefund,
  NO_REFUNDS,
  postagePromise,
  refundAmount,
  type RefundAmount,
} from "./refund-amount.ts";

// Two lines: 2 × $19.99 and 1 × $24.50, $6.99 shipping, 8.25 % on goods and shipping ($5.90).
const order = {
  subtotalCents: 6448,
  shippingCents: 699,
  taxCents: 590,
  totalCents: 7737,
  lines: [
    { key: "regular:1", quantity: 2 },
    { key: "regular:2", quantity: 1 },
  ],
};
const dropOff = { shipping: "when-all-returned", postagePromisedCents: 0 } as const;
const parts = ({ totalCents, ...rest }: RefundAmount) => {
  void totalCents;
  return rest;
};

describe("refundAmount", () => {
  it("refunds one line at the price paid with its share of the tax, and no shipping", () => {
    const amount = refundAmount(
      order,
      [{ key: "regular:2", quantity: 1, unitPriceCents: 2450 }],
      NO_REFUNDS,
      dropOff,
    );
    // 2450 of a taxed base of 7147 carries 2450/7147 of the order's 590 tax: 202.24.
    expect(amount).toEqual({
      goodsCents: 2450,
      shippingCents: 0,
      taxCents: 202,
      postageCents: 0,
      totalCents: 2652,
    });
  });

  it("gives back exactly what was paid when the whole order comes back in several returns", () => {
    const firstLines = [{ key: "regular:1", quantity: 1, unitPriceCents: 1999 }];
    const first = refundAmount(order, firstLines, NO_REFUNDS, dropOff);
    // 1999/7147 of 590: 165.03.
    expect(first).toEqual({
      goodsCents: 1999,
      shippingCents: 0,
      taxCents: 165,
      postageCents: 0,
      totalCents: 2164,
    });
    const second = refundAmount(
      order,
      [
        { key: "regular:1", quantity: 1, unitPriceCents: 1999 },
        { key: "regular:2", quantity: 1, unitPriceCents: 2450 },
      ],
      addRefund(NO_REFUNDS, parts(first), firstLines),
      dropOff,
    );
    expect(second).toEqual({
      goodsCents: 4449,
      shippingCents: 699,
      taxCents: 425,
      postageCents: 0,
      totalCents: 5573,
    });
    expect(first.totalCents + second.totalCents).toBe(7737);
  });

  it("keeps the shipping, and the tax on it, when the policy never refunds shipping", () => {
    const amount = refundAmount(
      order,
      [
        { key: "regular:1", quantity: 2, unitPriceCents: 1999 },
        { key: "regular:2", quantity: 1, unitPriceCents: 2450 },
      ],
      NO_REFUNDS,
      { shipping: "never", postagePromisedCents: 0 },
    );
    // 6448/7147 of 590: 532.29.
    expect(amount).toEqual({
      goodsCents: 6448,
      shippingCents: 0,
      taxCents: 532,
      postageCents: 0,
      totalCents: 6980,
    });
  });

  it("pays a return by mail the postage it was promised, out of the shipping, with its tax", () => {
    const amount = refundAmount(
      order,
      [{ key: "regular:2", quantity: 1, unitPriceCents: 2450 }],
      NO_REFUNDS,
      { shipping: "when-all-returned", postagePromisedCents: 600 },
    );
    // (2450 + 600)/7147 of 590: 251.78.
    expect(amount).toEqual({
      goodsCents: 2450,
      shippingCents: 0,
      taxCents: 252,
      postageCents: 600,
      totalCents: 3302,
    });
  });

  it("a whole order back by mail: the postage is part of the shipping, the sum is what was paid", () => {
    const amount = refundAmount(
      order,
      [
        { key: "regular:1", quantity: 2, unitPriceCents: 1999 },
        { key: "regular:2", quantity: 1, unitPriceCents: 2450 },
      ],
      NO_REFUNDS,
      { shipping: "when-all-returned", postagePromisedCents: 600 },
    );
    expect(amount).toEqual({
      goodsCents: 6448,
      shippingCents: 99,
      taxCents: 590,
      postageCents: 600,
      totalCents: 7737,
    });
  });

  it("two returns of 2 × $7.99 with $5.99 shipping, by mail then by drop-off: $21.97 in all", () => {
    // The order of the issue: paid $21.97; $27.97 was refunded before postage came out of it.
    const small = {
      subtotalCents: 1598,
      shippingCents: 599,
      taxCents: 0,
      totalCents: 2197,
      lines: [{ key: "regular:7", quantity: 2 }],
    };
    const one = [{ key: "regular:7", quantity: 1, unitPriceCents: 799 }];
    const promised = postagePromise(small, 0, { postageCents: 600 });
    expect(promised).toBe(599);
    const byMail = refundAmount(small, one, NO_REFUNDS, {
      shipping: "when-all-returned",
      postagePromisedCents: promised,
    });
    expect(byMail.totalCents).toBe(1398);
    const dropped = refundAmount(small, one, addRefund(NO_REFUNDS, parts(byMail), one), dropOff);
    expect(dropped).toEqual({
      goodsCents: 799,
      shippingCents: 0,
      taxCents: 0,
      postageCents: 0,
      totalCents: 799,
    });
    expect(byMail.totalCents + dropped.totalCents).toBe(2197);
  });

  it("refunds no tax where none was charged", () => {
    const untaxed = { ...order, taxCents: 0, totalCents: 7147 };
    const amount = refundAmount(
      untaxed,
      [{ key: "regular:2", quantity: 1, unitPriceCents: 2450 }],
      NO_REFUNDS,
      dropOff,
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

describe("postagePromise", () => {
  it("promises the shop's contribution within the shipping the order's other returns left", () => {
    expect(postagePromise({ shippingCents: 699 }, 0, { postageCents: 600 })).toBe(600);
    expect(postagePromise({ shippingCents: 699 }, 600, { postageCents: 600 })).toBe(99);
    expect(postagePromise({ shippingCents: 699 }, 699, { postageCents: 600 })).toBe(0);
  });

  it("promises nothing on an order shipped free: there is no shipping to pay it from", () => {
    expect(postagePromise({ shippingCents: 0 }, 0, { postageCents: 600 })).toBe(0);
  });
});
