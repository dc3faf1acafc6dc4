import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { saleLineArbitrary } from "#tests/support/sale-lines.ts";
import { propertyRuns } from "#tests/support/property.ts";
import { returnAmounts, splitRefund, type ReturnSale } from "./return-money.ts";
import { saleTotals } from "./sale-money.ts";

const RATE = 82_500; // 8.25 %

function sale(
  lines: { unitPriceCents: number; quantity: number; discountCents: number; taxable: boolean }[],
  rate = RATE,
) {
  const withIds = lines.map((line, index) => ({ ...line, id: index + 1 }));
  const totals = saleTotals(withIds, rate);
  return { sale: { lines: withIds, taxCents: totals.taxCents } satisfies ReturnSale, totals };
}

describe("returnAmounts", () => {
  it("gives back a line's price after its discount, and its share of the tax", () => {
    const { sale: sold, totals } = sale([
      { unitPriceCents: 1999, quantity: 2, discountCents: 500, taxable: true },
      { unitPriceCents: 1000, quantity: 1, discountCents: 0, taxable: false },
    ]);
    const first = returnAmounts(sold, new Map(), new Map([[1, 1]]));
    // 1999 - 250 of the discount = 1749; tax 289 × 1749 / 3498 = 144.5 → 145
    expect(first).toEqual([
      { saleLineId: 1, quantity: 1, goodsCents: 1749, taxCents: 145, amountCents: 1894 },
    ]);
    const rest = returnAmounts(
      sold,
      new Map([[1, 1]]),
      new Map([
        [1, 1],
        [2, 1],
      ]),
    );
    expect(rest).toEqual([
      { saleLineId: 1, quantity: 1, goodsCents: 1749, taxCents: 144, amountCents: 1893 },
      { saleLineId: 2, quantity: 1, goodsCents: 1000, taxCents: 0, amountCents: 1000 },
    ]);
    expect(first[0]!.amountCents + rest[0]!.amountCents + rest[1]!.amountCents).toBe(
      totals.totalCents,
    );
  });

  it("never gives back more than the sale's total, and exactly the total once all is back", () => {
    const line = saleLineArbitrary(50_000, 12);
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 199_999 }),
        // Each unit of each line is given a return to go back in (0..5), and the returns come in
        // a random order; some units never come back unless `all` is set.
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 96, maxLength: 96 }),
        fc.boolean(),
        (lines, rate, batches, all) => {
          const { sale: sold, totals } = sale(lines, rate);
          const plans = Array.from({ length: 7 }, () => new Map<number, number>());
          let unit = 0;
          for (const soldLine of sold.lines) {
            for (let i = 0; i < soldLine.quantity; i++) {
              const batch = batches[unit++ % batches.length]!;
              const plan = plans[all ? batch % 6 : batch]!;
              plan.set(soldLine.id, (plan.get(soldLine.id) ?? 0) + 1);
            }
          }
          const earlier = new Map<number, number>();
          let given = 0;
          for (const plan of plans.slice(0, 6)) {
            const amounts = returnAmounts(sold, earlier, plan);
            for (const amount of amounts) {
              expect(amount.goodsCents).toBeGreaterThanOrEqual(0);
              expect(amount.taxCents).toBeGreaterThanOrEqual(0);
              expect(amount.amountCents).toBe(amount.goodsCents + amount.taxCents);
              given += amount.amountCents;
              earlier.set(
                amount.saleLineId,
                (earlier.get(amount.saleLineId) ?? 0) + amount.quantity,
              );
            }
            expect(given).toBeLessThanOrEqual(totals.totalCents);
          }
          const everything = sold.lines.every((l) => (earlier.get(l.id) ?? 0) === l.quantity);
          if (all) expect(everything).toBe(true);
          if (everything) expect(given).toBe(totals.totalCents);
        },
      ),
      propertyRuns(300),
    );
  });
});

describe("splitRefund", () => {
  it("gives back to the card what it paid and has not had back, the rest in cash", () => {
    expect(splitRefund(1000, { cardPaidCents: 0, cardRefundedCents: 0 })).toEqual({
      cardCents: 0,
      cashCents: 1000,
    });
    expect(splitRefund(1000, { cardPaidCents: 3000, cardRefundedCents: 0 })).toEqual({
      cardCents: 1000,
      cashCents: 0,
    });
    expect(splitRefund(1000, { cardPaidCents: 3000, cardRefundedCents: 2400 })).toEqual({
      cardCents: 600,
      cashCents: 400,
    });
  });

  it("never puts more back on the card than it paid", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 10 }),
        fc.integer({ min: 0, max: 50_000 }),
        (refunds, cardPaidCents) => {
          let cardRefundedCents = 0;
          for (const amount of refunds) {
            const split = splitRefund(amount, { cardPaidCents, cardRefundedCents });
            expect(split.cardCents + split.cashCents).toBe(amount);
            expect(split.cardCents).toBeGreaterThanOrEqual(0);
            expect(split.cashCents).toBeGreaterThanOrEqual(0);
            cardRefundedCents += split.cardCents;
            expect(cardRefundedCents).toBeLessThanOrEqual(cardPaidCents);
          }
        },
      ),
      propertyRuns(200),
    );
  });
});
