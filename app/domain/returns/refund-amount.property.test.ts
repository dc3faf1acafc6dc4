// The refund arithmetic's invariants over random orders and random sequences of returns: random
// lines and quantities, prices, shipping, tax rates and both shipping policies; returns of
// random parts of the order by mail or drop-off, some rejected, refunded in a random order. The
// workflow against the database, with returns refunded at the same moment and through both
// providers, is proved the same way in returns.property.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertyRuns } from "#tests/support/property.ts";
import {
  addRefund,
  NO_REFUNDS,
  postagePromise,
  refundAmount,
  type RefundAmount,
  type ShippingRefundPolicy,
} from "./refund-amount.ts";

/** An order as `priceOrder` makes one: tax on goods and shipping together, rounded once. */
const orderArbitrary: fc.Arbitrary<Order> = fc
  .record({
    lines: fc.array(
      fc.record({
        quantity: fc.integer({ min: 1, max: 5 }),
        unitPriceCents: fc.integer({ min: 1, max: 100_000 }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    shippingCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3_000 })),
    taxRate: fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 0.15, noNaN: true })),
  })
  .map(({ lines, shippingCents, taxRate }) => {
    const subtotalCents = lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
    const taxCents = Math.round((subtotalCents + shippingCents) * taxRate);
    return {
      subtotalCents,
      shippingCents,
      taxCents,
      totalCents: subtotalCents + shippingCents + taxCents,
      lines: lines.map((line, i) => ({ key: `regular:${i + 1}`, ...line })),
    };
  });

type Order = {
  subtotalCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  lines: { key: string; quantity: number; unitPriceCents: number }[];
};

/** Each unit of the order goes to one return (or none: the customer keeps it). */
function caseArbitrary(order: Order) {
  const units = order.lines.flatMap((line) =>
    Array.from({ length: line.quantity }, () => line.key),
  );
  return fc.record({
    order: fc.constant(order),
    policy: fc.constantFrom<ShippingRefundPolicy>("when-all-returned", "never"),
    postageCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_500 })),
    returnOf: fc.array(fc.integer({ min: -1, max: 3 }), {
      minLength: units.length,
      maxLength: units.length,
    }),
    methods: fc.array(fc.constantFrom("mail", "drop_off"), { minLength: 4, maxLength: 4 }),
    rejected: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    refundOrder: fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
    units: fc.constant(units),
  });
}

const cases = orderArbitrary.chain(caseArbitrary);

describe("refund arithmetic over random sequences of returns", () => {
  it("never gives back more than was paid, keeps every postage promise, and adds up when all is back", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const { order, policy } = c;
        // The returns asked for, in number order: their lines, and the postage promised then.
        const asked = [0, 1, 2, 3].map((index) => {
          const quantities = new Map<string, number>();
          c.units.forEach((key, unit) => {
            if (c.returnOf[unit] === index) quantities.set(key, (quantities.get(key) ?? 0) + 1);
          });
          return {
            index,
            method: c.methods[index]!,
            rejected: c.rejected[index]!,
            lines: [...quantities].map(([key, quantity]) => ({
              key,
              quantity,
              unitPriceCents: order.lines.find((line) => line.key === key)!.unitPriceCents,
            })),
            promised: 0,
          };
        });
        let promisedSoFar = 0;
        for (const entry of asked) {
          if (entry.lines.length === 0) continue;
          entry.promised =
            entry.method === "mail"
              ? postagePromise(order, promisedSoFar, { postageCents: c.postageCents })
              : 0;
          // A return rejected later gives its promise back; until then it holds it.
          if (!entry.rejected) promisedSoFar += entry.promised;
          else entry.promised = 0;
        }
        const refunded = c.refundOrder
          .map((index) => asked[index]!)
          .filter((entry) => entry.lines.length > 0 && !entry.rejected);
        let earlier = NO_REFUNDS;
        const amounts: RefundAmount[] = [];
        for (const entry of refunded) {
          const amount = refundAmount(order, entry.lines, earlier, {
            shipping: policy,
            postagePromisedCents: entry.promised,
          });
          const left =
            order.totalCents -
            (earlier.goodsCents + earlier.shippingCents + earlier.taxCents + earlier.postageCents);
          // No refund asks for more than is left, and none is negative in any part.
          expect(amount.totalCents).toBeLessThanOrEqual(left);
          for (const part of Object.values(amount)) expect(part).toBeGreaterThanOrEqual(0);
          expect(amount.totalCents).toBe(
            amount.goodsCents + amount.shippingCents + amount.taxCents + amount.postageCents,
          );
          // The promise made when the return was asked for is what is paid.
          expect(amount.postageCents).toBe(entry.promised);
          earlier = addRefund(earlier, amount, entry.lines);
          amounts.push(amount);
        }
        const sum = amounts.reduce((total, amount) => total + amount.totalCents, 0);
        expect(sum).toBeLessThanOrEqual(order.totalCents);
        const goodsBack = amounts.reduce((total, amount) => total + amount.goodsCents, 0);
        const allBack = order.lines.every(
          (line) => (earlier.quantities.get(line.key) ?? 0) === line.quantity,
        );
        if (allBack) {
          expect(goodsBack).toBe(order.subtotalCents);
          if (policy === "when-all-returned") expect(sum).toBe(order.totalCents);
          else {
            // The shipping stays with the shop, less what it paid toward postage.
            expect(earlier.shippingCents).toBe(0);
            expect(earlier.taxCents).toBeLessThanOrEqual(order.taxCents);
          }
        }
        // Whatever came back, the postage paid fits in the shipping charged.
        expect(earlier.postageCents + earlier.shippingCents).toBeLessThanOrEqual(
          order.shippingCents,
        );
      }),
      propertyRuns(10_000),
    );
  });
});
