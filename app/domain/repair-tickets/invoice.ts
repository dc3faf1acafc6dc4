// A repair's invoice and what has been paid toward it (decision 023, point 8): pure arithmetic in
// integer cents, the rules the estimate, the payments and collection apply and their tests prove.
import type { RepairPaymentKind } from "./status.ts";

export type InvoiceLine = { kind: "labour" | "part"; quantity: number; unitCents: number };

export type Invoice = {
  labourCents: number;
  partsCents: number;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
};

/** Integer cents of tax on an amount at a rate (a fraction, 0.0825), rounded half up. */
export function repairTaxCents(cents: number, rate: number): number {
  return Math.round(cents * rate);
}

/**
 * The invoice of an estimate's lines at its tax rate. Texas taxes the labour of repairing
 * tangible personal property as well as the parts (34 TAC §3.292), so one rate applies to the
 * whole subtotal, charged once and rounded half up.
 */
export function repairInvoice(lines: readonly InvoiceLine[], rate: number): Invoice {
  let labourCents = 0;
  let partsCents = 0;
  for (const line of lines) {
    const amount = line.quantity * line.unitCents;
    if (line.kind === "labour") labourCents += amount;
    else partsCents += amount;
  }
  const subtotalCents = labourCents + partsCents;
  const taxCents = repairTaxCents(subtotalCents, rate);
  return { labourCents, partsCents, subtotalCents, taxCents, totalCents: subtotalCents + taxCents };
}

/** A payment of a ticket: every amount positive, a refund paid back to the customer. */
export type PaymentAmount = { kind: RepairPaymentKind; amountCents: number };

export type Account = {
  /** The approved estimate's total; 0 while none is approved. */
  totalCents: number;
  depositCents: number;
  /** Balance payments (at the counter or online). */
  paymentsCents: number;
  refundsCents: number;
  /** deposit + payments − refunds. */
  paidCents: number;
  /** total − paid: negative when the customer paid more than the invoice. */
  balanceCents: number;
};

/** Where a ticket stands: its total against the payments made so far. */
export function repairAccount(totalCents: number, payments: readonly PaymentAmount[]): Account {
  let depositCents = 0;
  let paymentsCents = 0;
  let refundsCents = 0;
  for (const payment of payments) {
    if (payment.kind === "deposit") depositCents += payment.amountCents;
    else if (payment.kind === "balance") paymentsCents += payment.amountCents;
    else refundsCents += payment.amountCents;
  }
  const paidCents = depositCents + paymentsCents - refundsCents;
  return {
    totalCents,
    depositCents,
    paymentsCents,
    refundsCents,
    paidCents,
    balanceCents: totalCents - paidCents,
  };
}

/** Cash handed over for an amount: the change due, or a message when it is not enough. */
export function cashChange(
  amountCents: number,
  tenderedCents: number | undefined,
): { ok: true; tenderedCents: number; changeCents: number } | { ok: false; message: string } {
  const tendered = tenderedCents ?? amountCents;
  if (tendered < amountCents) {
    return { ok: false, message: "The cash handed over is less than the amount taken." };
  }
  return { ok: true, tenderedCents: tendered, changeCents: tendered - amountCents };
}
