// What a repair ticket can give back when the device goes back unrepaired (decision 023, point
// 8), and how: pure arithmetic in integer cents over the ticket's payments, the rules the
// refund applies and its property tests prove. Money goes back the way it came, as at the
// counter: to the card that paid first (up to what it paid less what it had back), then in
// cash; each payment never gives back more than it took.
import { formatUsd } from "#app/lib/money.ts";
import type { RepairPaymentKind, RepairPaymentMethod } from "./status.ts";

/** A row of `repair_payments` as the rules need it. */
export type PaymentRow = {
  id: number;
  kind: RepairPaymentKind;
  method: RepairPaymentMethod;
  amountCents: number;
  /** A refund: the payment it gave back. */
  refundedPaymentId: number | null;
};

/** A payment that can still give money back at the desk, and how much. */
export type RefundSource = {
  paymentId: number;
  method: "cash" | "card";
  leftCents: number;
};

/** One part of a refund: what goes back to one payment, its way. */
export type RefundPart = RefundSource & { amountCents: number };

/**
 * The payments taken at the desk with what each can still give back, in the order a refund
 * takes them: card payments (oldest first), then cash (oldest first). A payment made online
 * goes back through its pay link's provider, not from the desk, so it is not among them (a pay
 * link is only offered once the device is repaired, so an unrepaired ticket has none).
 */
export function refundSources(payments: readonly PaymentRow[]): RefundSource[] {
  const refunded = new Map<number, number>();
  for (const payment of payments) {
    if (payment.kind !== "refund" || payment.refundedPaymentId === null) continue;
    refunded.set(
      payment.refundedPaymentId,
      (refunded.get(payment.refundedPaymentId) ?? 0) + payment.amountCents,
    );
  }
  const sources: RefundSource[] = [];
  for (const method of ["card", "cash"] as const) {
    for (const payment of payments) {
      if (payment.kind === "refund" || payment.method !== method) continue;
      const leftCents = payment.amountCents - (refunded.get(payment.id) ?? 0);
      if (leftCents > 0) sources.push({ paymentId: payment.id, method, leftCents });
    }
  }
  return sources;
}

/** All a ticket's desk payments can still give back. */
export function refundableCents(payments: readonly PaymentRow[]): number {
  return refundSources(payments).reduce((sum, source) => sum + source.leftCents, 0);
}

/**
 * Splits a refund of `amountCents` over the payments it goes back to (`refundSources`' order),
 * or says why it cannot be: nothing to give back, or more than was taken and not given back.
 */
export function splitRefund(
  payments: readonly PaymentRow[],
  amountCents: number,
): { ok: true; parts: RefundPart[] } | { ok: false; message: string } {
  const sources = refundSources(payments);
  const left = sources.reduce((sum, source) => sum + source.leftCents, 0);
  if (left === 0) return { ok: false, message: "Nothing taken on this ticket is left to refund." };
  if (!Number.isInteger(amountCents) || amountCents < 1) {
    return { ok: false, message: "Please enter the amount to refund, e.g. 50.00." };
  }
  if (amountCents > left) {
    return {
      ok: false,
      message: `At most ${formatUsd(left)} can be refunded: what was taken and not yet given back.`,
    };
  }
  const parts: RefundPart[] = [];
  let rest = amountCents;
  for (const source of sources) {
    if (rest === 0) break;
    const cents = Math.min(rest, source.leftCents);
    parts.push({ ...source, amountCents: cents });
    rest -= cents;
  }
  return { ok: true, parts };
}

/** "$30.00 to the card, $20.00 in cash": a refund's parts in words, card first. */
export function refundWords(parts: readonly { method: string; amountCents: number }[]): string {
  const by = (method: string) =>
    parts.filter((part) => part.method === method).reduce((sum, p) => sum + p.amountCents, 0);
  return [
    by("card") > 0 ? `${formatUsd(by("card"))} to the card` : null,
    by("cash") > 0 ? `${formatUsd(by("cash"))} in cash from the till` : null,
  ]
    .filter(Boolean)
    .join(", ");
}
