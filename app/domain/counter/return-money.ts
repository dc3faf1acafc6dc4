import type { SaleLineMoney } from "./sale-money.ts";

// What a counter return gives back (decision 023, point 7): pure arithmetic in integer cents,
// worked out from the sale as it was paid, never from what the browser sends.
//
// Everything is a function of how many of each line have come back so far. A line's goods back
// after k of its n units are k × its price less k/n of its discount (rounded); the tax back is
// the sale's tax in proportion to the taxable goods back so far (rounded). A return gives back
// what that comes to after it less what it came to before, line by line, so however a sale is
// returned (in any order, in any split) the refunds add up to what the last state says: never
// more than the sale's total, and exactly the total once everything is back.

export type ReturnSale = {
  lines: readonly (SaleLineMoney & { id: number })[];
  /** The sale's tax as charged (on the taxable lines after their discounts). */
  taxCents: number;
};

/** How many of each sale line (by id) have come back. */
export type Returned = ReadonlyMap<number, number>;

export type ReturnLineAmount = {
  saleLineId: number;
  quantity: number;
  goodsCents: number;
  taxCents: number;
  amountCents: number;
};

function goodsBack(line: SaleLineMoney, returned: number): number {
  if (line.quantity === 0) return 0;
  return (
    line.unitPriceCents * returned - Math.round((line.discountCents * returned) / line.quantity)
  );
}

function taxableBase(sale: ReturnSale): number {
  return sale.lines.reduce(
    (sum, line) =>
      sum + (line.taxable ? line.unitPriceCents * line.quantity - line.discountCents : 0),
    0,
  );
}

/** What a sale has given back once `returned` of its lines are back: goods and tax. */
export function backSoFar(sale: ReturnSale, returned: Returned): { goods: number; tax: number } {
  const base = taxableBase(sale);
  let goods = 0;
  let taxableGoods = 0;
  for (const line of sale.lines) {
    const back = goodsBack(line, returned.get(line.id) ?? 0);
    goods += back;
    if (line.taxable) taxableGoods += back;
  }
  const tax = base === 0 ? 0 : Math.round((sale.taxCents * taxableGoods) / base);
  return { goods, tax };
}

/**
 * The amounts of one return: each of its lines (in the sale's line order) gives back its goods
 * and the tax its goods add, given what earlier returns took back (`earlier`). The quantities
 * must be checked first: at most what was sold less what came back before.
 */
export function returnAmounts(
  sale: ReturnSale,
  earlier: Returned,
  returning: ReadonlyMap<number, number>,
): ReturnLineAmount[] {
  const state = new Map(earlier);
  let before = backSoFar(sale, state);
  const amounts: ReturnLineAmount[] = [];
  for (const line of sale.lines) {
    const quantity = returning.get(line.id) ?? 0;
    if (quantity <= 0) continue;
    state.set(line.id, (state.get(line.id) ?? 0) + quantity);
    const after = backSoFar(sale, state);
    const goodsCents = after.goods - before.goods;
    const taxCents = after.tax - before.tax;
    amounts.push({
      saleLineId: line.id,
      quantity,
      goodsCents,
      taxCents,
      amountCents: goodsCents + taxCents,
    });
    before = after;
  }
  return amounts;
}

/** What a sale's card and cash paid, and what earlier returns gave back to the card. */
export type RefundSources = { cardPaidCents: number; cardRefundedCents: number };

/** How a return's money goes back: to the card first, the rest in cash or as credit. */
export type RefundSplit = { cardCents: number; cashCents: number };

/**
 * The shop's rule for a counter refund: money goes back the way it came. The card that paid gets
 * back up to what it paid less what earlier returns gave it; the rest is cash from the till. So a
 * cash sale is refunded in cash, a card sale to its card, and a split sale card first.
 */
export function splitRefund(amountCents: number, sources: RefundSources): RefundSplit {
  const cardLeft = Math.max(0, sources.cardPaidCents - sources.cardRefundedCents);
  const cardCents = Math.min(amountCents, cardLeft);
  return { cardCents, cashCents: amountCents - cardCents };
}
