import { describe, expect, it } from "vitest";
import {
  addRefund,
  NO_REFUNDS,
  postagePromise,
  refundAmount,
  type RefundAmount,
  type RefundLine,
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
/** A return by mail promised $6.00 of postage. */
const byMail = { shipping: "when-all-returned", postagePromisedCents: 600 } as const;
/** The order's second line, its one copy of $24.50. */
const secondLine: RefundLine[] = [{ key: "regular:2", quantity: 1, unitPriceCents: 2450 }];
/** Every copy of the order: 2 × $19.99 and 1 × $24.50. */
const wholeOrder: RefundLine[] = [
  { key: "regular:1", quantity: 2, unitPriceCents: 1999 },
  ...secondLine,
];
const parts = ({ totalCents, ...rest }: RefundAmount) => {
  void totalCents;
  return rest;
};

/** The refund of a first return of `lines` of the order (dropped off unless told). */
const firstRefund = (lines: RefundLine[], policy: Parameters<typeof refundAmount>[3] = dropOff) =>
  refundAmount(order, lines, NO_REFUNDS, policy);

/** A refund, in cents, as a test works it out: no shipping, tax or postage unless given. */
const refund = (cents: {
  goods: number;
  shipping?: number;
  tax?: number;
  postage?: number;
  total: number;
}): RefundAmount => ({
  goodsCents: cents.goods,
  shippingCents: cents.shipping ?? 0,
  taxCents: cents.tax ?? 0,
  postageCents: cents.postage ?? 0,
  totalCents: cents.total,
});

describe("refundAmount", () => {
  it("refunds one line at the price paid with its share of the tax, and no shipping", () => {
    // 8.25 % of $24.50 = $2.02125: $2.02. $24.50 + $2.02 = $26.52.
    expect(firstRefund(secondLine)).toEqual(refund({ goods: 2450, tax: 202, total: 2652 }));
  });

  it("gives back exactly what was paid when the whole order comes back in several returns", () => {
    const firstLines = [{ key: "regular:1", quantity: 1, unitPriceCents: 1999 }];
    const first = firstRefund(firstLines);
    // 8.25 % of $19.99 = $1.649175: $1.65. $19.99 + $1.65 = $21.64.
    expect(first).toEqual(refund({ goods: 1999, tax: 165, total: 2164 }));
    const second = refundAmount(
      order,
      [{ key: "regular:1", quantity: 1, unitPriceCents: 1999 }, ...secondLine],
      addRefund(NO_REFUNDS, parts(first), firstLines),
      dropOff,
    );
    // The rest of the goods, $19.99 + $24.50 = $44.49, and the $6.99 shipping with the last
    // item; the tax is what is left of the $5.90: $5.90 - $1.65 = $4.25 (8.25 % of $51.48 would
    // be $4.2471; the last return takes the rounding). $44.49 + $6.99 + $4.25 = $55.73.
    expect(second).toEqual(refund({ goods: 4449, shipping: 699, tax: 425, total: 5573 }));
    // $21.64 + $55.73 = $77.37, what was paid.
    expect(first.totalCents + second.totalCents).toBe(7737);
  });

  it("keeps the shipping, and the tax on it, when the policy never refunds shipping", () => {
    const amount = firstRefund(wholeOrder, { shipping: "never", postagePromisedCents: 0 });
    // 8.25 % of $64.48 = $5.3196: $5.32. The other $0.58 of the $5.90 is the tax on the $6.99
    // shipping kept (8.25 % of $6.99 = $0.576675). $64.48 + $5.32 = $69.80.
    expect(amount).toEqual(refund({ goods: 6448, tax: 532, total: 6980 }));
  });

  it("pays a return by mail the postage it was promised, out of the shipping, with its tax", () => {
    const amount = firstRefund(secondLine, byMail);
    // 8.25 % of ($24.50 + $6.00 postage) = 8.25 % of $30.50 = $2.51625: $2.52.
    // $24.50 + $2.52 + $6.00 = $33.02.
    expect(amount).toEqual(refund({ goods: 2450, tax: 252, postage: 600, total: 3302 }));
  });

  it("a whole order back by mail: the postage is part of the shipping, the sum is what was paid", () => {
    const amount = firstRefund(wholeOrder, byMail);
    // All of the goods, $64.48, and all of the $5.90 tax; of the $6.99 shipping, $6.00 is the
    // postage and $0.99 the rest. $64.48 + $0.99 + $5.90 + $6.00 = $77.37, what was paid.
    expect(amount).toEqual(
      refund({ goods: 6448, shipping: 99, tax: 590, postage: 600, total: 7737 }),
    );
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
    // The $6.00 postage is more than the $5.99 shipping paid: $5.99 is promised.
    const promised = postagePromise(small, 0, { postageCents: 600 });
    expect(promised).toBe(599);
    const mailed = refundAmount(small, one, NO_REFUNDS, {
      shipping: "when-all-returned",
      postagePromisedCents: promised,
    });
    // $7.99 and the $5.99 postage: $13.98.
    expect(mailed.totalCents).toBe(1398);
    const dropped = refundAmount(small, one, addRefund(NO_REFUNDS, parts(mailed), one), dropOff);
    // The last copy, $7.99; the shipping is all gone to the postage, no tax was charged.
    expect(dropped).toEqual(refund({ goods: 799, total: 799 }));
    // $13.98 + $7.99 = $21.97, what was paid.
    expect(mailed.totalCents + dropped.totalCents).toBe(2197);
  });

  it("refunds no tax where none was charged", () => {
    const untaxed = { ...order, taxCents: 0, totalCents: 7147 };
    const amount = refundAmount(untaxed, secondLine, NO_REFUNDS, dropOff);
    // $24.50 and nothing else: no tax, and the shipping stays until the last item is back.
    expect(amount).toEqual(refund({ goods: 2450, total: 2450 }));
  });
});

describe("postagePromise", () => {
  it("promises the shop's contribution within the shipping the order's other returns left", () => {
    // Of $6.99 shipping: $6.00 to the first; $6.99 - $6.00 = $0.99 left for the next; none then.
    expect(postagePromise({ shippingCents: 699 }, 0, { postageCents: 600 })).toBe(600);
    expect(postagePromise({ shippingCents: 699 }, 600, { postageCents: 600 })).toBe(99);
    expect(postagePromise({ shippingCents: 699 }, 699, { postageCents: 600 })).toBe(0);
  });

  it("promises nothing on an order shipped free: there is no shipping to pay it from", () => {
    expect(postagePromise({ shippingCents: 0 }, 0, { postageCents: 600 })).toBe(0);
  });
});
