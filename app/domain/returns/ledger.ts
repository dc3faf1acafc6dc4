// One order's money in one place: what was paid, each refund (the whole order's, each return's),
// what of it went toward return postage, and what is left. The customer's order card, the back
// office's order page, the e-mails and the orders export all show this, so they cannot disagree.
import { returnLabel, type ReturnStatus } from "./status.ts";

export type LedgerOrder = {
  totalCents: number;
  paidAt: Date | string | null;
  /** The whole order paid back (cancelled after payment). */
  refundedAt: Date | string | null;
};

export type LedgerReturn = {
  number: number;
  status: ReturnStatus;
  refundCents: number | null;
  refundPostageCents: number | null;
  refundedAt: Date | string | null;
};

export type LedgerRefund = {
  /** "Order refund" or the return's number ("RMA-1042"). */
  label: string;
  cents: number;
  /** Of `cents`, paid toward the customer's return postage. */
  postageCents: number;
  at: string | null;
};

export type OrderLedger = {
  paidCents: number;
  refunds: LedgerRefund[];
  refundedCents: number;
  postageCents: number;
  /** Paid and not given back. */
  leftCents: number;
};

const iso = (at: Date | string | null) =>
  at === null ? null : typeof at === "string" ? at : at.toISOString();

export function orderLedger(order: LedgerOrder, returns: readonly LedgerReturn[]): OrderLedger {
  const paidCents = order.paidAt ? order.totalCents : 0;
  const refunds: LedgerRefund[] = [];
  if (order.refundedAt && order.paidAt) {
    refunds.push({
      label: "Order refund",
      cents: order.totalCents,
      postageCents: 0,
      at: iso(order.refundedAt),
    });
  }
  for (const entry of [...returns].sort((a, b) => a.number - b.number)) {
    if (entry.status !== "refunded" || entry.refundCents === null) continue;
    refunds.push({
      label: returnLabel(entry.number),
      cents: entry.refundCents,
      postageCents: entry.refundPostageCents ?? 0,
      at: iso(entry.refundedAt),
    });
  }
  const refundedCents = refunds.reduce((sum, refund) => sum + refund.cents, 0);
  return {
    paidCents,
    refunds,
    refundedCents,
    postageCents: refunds.reduce((sum, refund) => sum + refund.postageCents, 0),
    leftCents: paidCents - refundedCents,
  };
}
