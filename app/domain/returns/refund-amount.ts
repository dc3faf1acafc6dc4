// What a return gives back: worked out by the server from the lines as they were sold, never
// from anything the browser sends. Pure arithmetic, so its invariants are proved over random
// sequences of returns (refund-amount.property.test.ts).
//
// The order's money is four parts: goods, shipping, and the sales tax on both (`priceOrder`
// charges it on goods and shipping together), adding up to what was paid. Every cent a return
// gives back comes out of one of them, so however many returns an order has and in whatever
// order they are refunded, their sum never exceeds what was paid, and when every item has come
// back (and the policy refunds shipping) it is exactly what was paid:
// - goods at the price paid;
// - postage for a parcel sent by mail, out of the shipping the customer paid (so it never
//   needs more than the card can take back): promised when the return is asked for, within the
//   shipping other returns have not been promised, and paid with the refund;
// - the rest of the shipping with the last item back (RETURNS_REFUND_SHIPPING=when-all-returned);
// - the tax on all of it, as the order's tax in proportion to what has gone back so far, less
//   what earlier refunds gave, so rounding never adds up across returns.

/** When the order's own shipping charge goes back (RETURNS_REFUND_SHIPPING). */
export type ShippingRefundPolicy = "when-all-returned" | "never";

export type RefundOrder = {
  subtotalCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
};
export type RefundLine = { key: string; quantity: number; unitPriceCents: number };

/** What a refund gives back, part by part. */
export type RefundAmount = {
  goodsCents: number;
  shippingCents: number;
  taxCents: number;
  postageCents: number;
  totalCents: number;
};

/**
 * What the order's other refunds gave back (or are giving: a refund claimed and not yet
 * confirmed counts, so two returns refunded at once each see the other), and how many of each
 * line they took back.
 */
export type EarlierRefunds = Omit<RefundAmount, "totalCents"> & {
  quantities: ReadonlyMap<string, number>;
};

export const NO_REFUNDS: EarlierRefunds = {
  goodsCents: 0,
  shippingCents: 0,
  taxCents: 0,
  postageCents: 0,
  quantities: new Map(),
};

/** Adds one refund to the ones before it. */
export function addRefund(
  earlier: EarlierRefunds,
  refund: Omit<RefundAmount, "totalCents">,
  lines: readonly { key: string; quantity: number }[],
): EarlierRefunds {
  const quantities = new Map(earlier.quantities);
  for (const line of lines) {
    quantities.set(line.key, (quantities.get(line.key) ?? 0) + line.quantity);
  }
  return {
    goodsCents: earlier.goodsCents + refund.goodsCents,
    shippingCents: earlier.shippingCents + refund.shippingCents,
    taxCents: earlier.taxCents + refund.taxCents,
    postageCents: earlier.postageCents + refund.postageCents,
    quantities,
  };
}

export type RefundPolicy = {
  shipping: ShippingRefundPolicy;
  /** The most paid toward the postage of one return sent by mail (RETURN_POSTAGE_CENTS). */
  postageCents: number;
};

/**
 * What a return sent by mail is promised toward its postage when it is asked for: the shop's
 * contribution, within the order's shipping charge less what its other returns (not rejected)
 * were promised. Recorded on the return, so the form, the e-mail and the refund say the same.
 */
export function postagePromise(
  order: Pick<RefundOrder, "shippingCents">,
  promisedToOthersCents: number,
  policy: Pick<RefundPolicy, "postageCents">,
): number {
  return Math.max(0, Math.min(policy.postageCents, order.shippingCents - promisedToOthersCents));
}

/**
 * The refund of one return, given every other refund of the order (`earlier`). Its postage is
 * what it was promised (`postagePromisedCents`), within the shipping not yet given back.
 */
export function refundAmount(
  order: RefundOrder & { lines: readonly { key: string; quantity: number }[] },
  lines: readonly RefundLine[],
  earlier: EarlierRefunds,
  policy: Pick<RefundPolicy, "shipping"> & { postagePromisedCents: number },
): RefundAmount {
  const goodsCents = lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
  const returning = new Map(lines.map((line) => [line.key, line.quantity]));
  const allBack = order.lines.every(
    (line) =>
      (earlier.quantities.get(line.key) ?? 0) + (returning.get(line.key) ?? 0) >= line.quantity,
  );
  const shippingLeft = Math.max(
    0,
    order.shippingCents - earlier.shippingCents - earlier.postageCents,
  );
  const postageCents = Math.max(0, Math.min(policy.postagePromisedCents, shippingLeft));
  const shippingCents =
    policy.shipping === "when-all-returned" && allBack ? shippingLeft - postageCents : 0;
  const taxedBase = order.subtotalCents + order.shippingCents;
  const baseBackSoFar =
    earlier.goodsCents +
    earlier.shippingCents +
    earlier.postageCents +
    goodsCents +
    shippingCents +
    postageCents;
  const taxBackSoFar =
    taxedBase === 0 ? 0 : Math.round((order.taxCents * baseBackSoFar) / taxedBase);
  const taxCents = Math.max(0, Math.min(order.taxCents, taxBackSoFar) - earlier.taxCents);
  return {
    goodsCents,
    shippingCents,
    taxCents,
    postageCents,
    totalCents: goodsCents + shippingCents + taxCents + postageCents,
  };
}
