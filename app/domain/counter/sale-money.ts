import { salesTaxCents } from "#app/lib/sales-tax.ts";

// What a counter sale comes to and how its tenders settle it (decision 023, point 5): pure
// arithmetic in integer cents, the rules the sale's transaction applies and its tests prove.

export type SaleLineMoney = {
  unitPriceCents: number;
  quantity: number;
  /** Taken off the line's price × quantity, never more than it. */
  discountCents: number;
  taxable: boolean;
};

export type SaleTotals = {
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
};

/**
 * The sale's totals. Sales tax is charged once, on the taxable lines' total after their
 * discounts (a discount lowers the taxable price in Texas, 34 TAC §3.301), rounded half up.
 */
export function saleTotals(lines: readonly SaleLineMoney[], taxRate: number): SaleTotals {
  let subtotalCents = 0;
  let discountCents = 0;
  let taxableCents = 0;
  for (const line of lines) {
    const gross = line.unitPriceCents * line.quantity;
    subtotalCents += gross;
    discountCents += line.discountCents;
    if (line.taxable) taxableCents += gross - line.discountCents;
  }
  const taxCents = salesTaxCents(taxableCents, taxRate);
  return {
    subtotalCents,
    discountCents,
    taxCents,
    totalCents: subtotalCents - discountCents + taxCents,
  };
}

/**
 * What the customer hands over: part or all by card, the rest in cash; an exchange's credit (the
 * goods returned for this sale, decision 023 point 7) pays first.
 */
export type Tender = { cardCents: number; cashTenderedCents: number; creditCents?: number };

export type Settlement = {
  /** An exchange's credit, when it paid part or all. */
  creditCents?: number;
  cardCents: number;
  /** The cash the sale keeps: what was handed over less the change. */
  cashCents: number;
  cashTenderedCents: number;
  changeCents: number;
};

export type TenderProblem = { field: "cardCents" | "cashTenderedCents"; message: string };

/**
 * How a tender settles a total: the card pays what it is charged (never more than the total),
 * cash pays the rest and gets its change back. Change is only ever given from cash.
 */
export function settle(
  totalCents: number,
  tender: Tender,
): { ok: true; settlement: Settlement } | ({ ok: false } & TenderProblem) {
  const { cardCents, cashTenderedCents } = tender;
  const creditCents = Math.min(tender.creditCents ?? 0, totalCents);
  if (cardCents > totalCents - creditCents) {
    return { ok: false, field: "cardCents", message: "The card cannot pay more than the total." };
  }
  const cashDue = totalCents - creditCents - cardCents;
  if (cashTenderedCents < cashDue) {
    return {
      ok: false,
      field: "cashTenderedCents",
      message:
        cardCents > 0
          ? "Cash and card together must cover the total."
          : "The cash handed over must cover the total.",
    };
  }
  if (cashDue === 0 && cashTenderedCents > 0) {
    return {
      ok: false,
      field: "cashTenderedCents",
      message:
        creditCents > 0
          ? "Nothing is left to pay in cash: leave the cash empty."
          : "The card pays the whole total: leave the cash empty.",
    };
  }
  return {
    ok: true,
    settlement: {
      ...(creditCents > 0 ? { creditCents } : {}),
      cardCents,
      cashCents: cashDue,
      cashTenderedCents,
      changeCents: cashTenderedCents - cashDue,
    },
  };
}
