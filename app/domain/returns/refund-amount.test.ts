import { describe, expect, it } from "vitest";
import {
  addRefund,
  NO_REFUNDS,
  postagePromise,
  refundAmount,
  type RefundAmount,
} from "./refund-amount.ts";

// Two lines: 2 × $19.99 and 1 × $24.50, $6.99 shipping, 8.25 % on goods and shipping:
// $64.48 + $6.99 = $71.47, × 0.0825 = $5.896275, charged $5.90. The tax expected below is
// worked by hand from the rate, not from the share formula the code uses.
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
    // 8.25 % of $24.50 = $2.02125: $2.02.
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
    // 8.25 % of $19.99 = $1.649175: $1.65.
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
    // The rest of the goods, $19.99 + $24.50 = $44.49, and the $6.99 shipping with the last
    // item; the tax is what is left of the $5.90: $5.90 - $1.65 = $4.25 (8.25 % of $51.48 would
    // be $4.2471; the last return takes the rounding). $44.49 + $6.99 + $4.25 = $55.73.
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
    // 8.25 % of $64.48 = $5.3196: $5.32. The other $0.58 of the $5.90 is the tax on the $6.99
    // shipping kept (8.25 % of $6.99 = $0.576675).
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
    // 8.25 % of ($24.50 + $6.00 postage) = 8.25 % of $30.50 = $2.51625: $2.52.
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
