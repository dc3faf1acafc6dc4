// What a return gives back: worked out by the server from the lines as they were sold, never
// from anything the browser sends.

/** When the order's own shipping charge goes back (RETURNS_REFUND_SHIPPING). */
export type ShippingRefundPolicy = "when-all-returned" | "never";

export type RefundOrder = {
  subtotalCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
};
export type RefundLine = { key: string; quantity: number; unitPriceCents: number };
/** What the order's earlier refunded returns gave back, and how many of each line came back. */
export type EarlierRefunds = {
  goodsCents: number;
  shippingCents: number;
  taxCents: number;
  postageCents: number;
  quantities: ReadonlyMap<string, number>;
};

export type RefundPolicy = {
  shipping: ShippingRefundPolicy;
  /** Paid toward the customer's postage when the return comes by mail (not taxed). */
  postageCents: number;
};

export type RefundAmount = {
  goodsCents: number;
  shippingCents: number;
  taxCents: number;
  postageCents: number;
  totalCents: number;
};

/**
 * The refund of one return. Goods at the price paid; the order's shipping when the policy says
 * so and this return brings back the last of the order; the sales tax on both; and, for a parcel
 * sent by mail, the shop's flat contribution to its postage (returns are free). Tax is the
 * order's tax in proportion to what has come back so far, less what earlier returns refunded, so
 * rounding never adds up across several returns and a whole order returned gets exactly its tax
 * back (the tax was charged on goods and shipping together, see `priceOrder`).
 */
export function refundAmount(
  order: RefundOrder & { lines: readonly { key: string; quantity: number }[] },
  lines: readonly RefundLine[],
  earlier: EarlierRefunds,
  policy: RefundPolicy & { byMail: boolean },
): RefundAmount {
  const goodsCents = lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
  const returning = new Map(lines.map((line) => [line.key, line.quantity]));
  const allBack = order.lines.every(
    (line) =>
      (earlier.quantities.get(line.key) ?? 0) + (returning.get(line.key) ?? 0) >= line.quantity,
  );
  const shippingCents =
    policy.shipping === "when-all-returned" && allBack
      ? Math.max(0, order.shippingCents - earlier.shippingCents)
      : 0;
  const taxedBase = order.subtotalCents + order.shippingCents;
  const baseBackSoFar = earlier.goodsCents + earlier.shippingCents + goodsCents + shippingCents;
  const taxBackSoFar =
    taxedBase === 0 ? 0 : Math.round((order.taxCents * baseBackSoFar) / taxedBase);
  const taxCents = Math.max(0, Math.min(order.taxCents, taxBackSoFar) - earlier.taxCents);
  // A card refund cannot exceed what was paid: the postage share fits in what is left of it.
  const left =
    order.totalCents -
    (earlier.goodsCents + earlier.shippingCents + earlier.taxCents + earlier.postageCents) -
    (goodsCents + shippingCents + taxCents);
  const postageCents = policy.byMail ? Math.max(0, Math.min(policy.postageCents, left)) : 0;
  return {
    goodsCents,
    shippingCents,
    taxCents,
    postageCents,
    totalCents: goodsCents + shippingCents + taxCents + postageCents,
  };
}
