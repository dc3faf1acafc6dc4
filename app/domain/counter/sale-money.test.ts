import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { saleLineArbitrary } from "#tests/support/sale-lines.ts";
import { saleTotals, settle } from "./sale-money.ts";

const RATE = 82_500; // 8.25 %

describe("saleTotals", () => {
  it("charges tax once on the taxable lines after their discounts", () => {
    const totals = saleTotals(
      [
        { unitPriceCents: 1999, quantity: 2, discountCents: 500, taxable: true },
        { unitPriceCents: 1000, quantity: 1, discountCents: 0, taxable: false },
      ],
      RATE,
    );
    // taxable 3998 - 500 = 3498 → 288.585 → 289
    expect(totals).toEqual({
      subtotalCents: 4998,
      discountCents: 500,
      taxCents: 289,
      totalCents: 4998 - 500 + 289,
    });
  });

  it("comes to nothing for an empty sale", () => {
    expect(saleTotals([], RATE)).toEqual({
      subtotalCents: 0,
      discountCents: 0,
      taxCents: 0,
      totalCents: 0,
    });
  });

  it("adds up: total = subtotal - discounts + tax, never below zero", () => {
    const line = saleLineArbitrary(100_000, 20);
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.integer({ min: 0, max: 199_999 }),
        (lines, rate) => {
          const totals = saleTotals(lines, rate);
          expect(totals.totalCents).toBe(
            totals.subtotalCents - totals.discountCents + totals.taxCents,
          );
          expect(totals.totalCents).toBeGreaterThanOrEqual(0);
          const taxable = lines
            .filter((l) => l.taxable)
            .reduce((sum, l) => sum + l.unitPriceCents * l.quantity - l.discountCents, 0);
          // Within half a cent of the exact tax.
          expect(Math.abs(totals.taxCents - (taxable * rate) / 1_000_000)).toBeLessThanOrEqual(0.5);
        },
      ),
    );
  });
});

describe("settle", () => {
  it("gives change from cash", () => {
    expect(settle(1234, { cardCents: 0, cashTenderedCents: 2000 })).toEqual({
      ok: true,
      settlement: { cardCents: 0, cashCents: 1234, cashTenderedCents: 2000, changeCents: 766 },
    });
  });

  it("splits between card and cash", () => {
    expect(settle(5000, { cardCents: 3000, cashTenderedCents: 2000 })).toEqual({
      ok: true,
      settlement: { cardCents: 3000, cashCents: 2000, cashTenderedCents: 2000, changeCents: 0 },
    });
  });

  it("refuses a tender that is short, a card above the total, and cash beside a full card", () => {
    expect(settle(1000, { cardCents: 0, cashTenderedCents: 999 })).toMatchObject({
      ok: false,
      field: "cashTenderedCents",
    });
    expect(settle(1000, { cardCents: 1001, cashTenderedCents: 0 })).toMatchObject({
      ok: false,
      field: "cardCents",
    });
    expect(settle(1000, { cardCents: 1000, cashTenderedCents: 500 })).toMatchObject({
      ok: false,
      field: "cashTenderedCents",
    });
  });

  it("always keeps exactly the total, with change only from cash", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (total, card, cash) => {
          const result = settle(total, { cardCents: card, cashTenderedCents: cash });
          if (!result.ok) return;
          const s = result.settlement;
          expect(s.cardCents + s.cashCents).toBe(total);
          expect(s.changeCents).toBe(s.cashTenderedCents - s.cashCents);
          expect(s.changeCents).toBeGreaterThanOrEqual(0);
          expect(s.cashCents).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe("settle with an exchange's credit", () => {
  it("takes the credit first, up to the total, and the rest in cash", () => {
    expect(settle(1624, { cardCents: 0, cashTenderedCents: 600, creditCents: 1083 })).toEqual({
      ok: true,
      settlement: {
        creditCents: 1083,
        cardCents: 0,
        cashCents: 541,
        cashTenderedCents: 600,
        changeCents: 59,
      },
    });
    expect(settle(1000, { cardCents: 0, cashTenderedCents: 0, creditCents: 1500 })).toEqual({
      ok: true,
      settlement: {
        creditCents: 1000,
        cardCents: 0,
        cashCents: 0,
        cashTenderedCents: 0,
        changeCents: 0,
      },
    });
    expect(settle(1000, { cardCents: 0, cashTenderedCents: 100, creditCents: 1500 })).toMatchObject(
      {
        ok: false,
        message: "Nothing is left to pay in cash: leave the cash empty.",
      },
    );
  });
});
