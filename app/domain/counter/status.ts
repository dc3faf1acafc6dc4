// The counter's vocabulary (decision 023, points 5 to 7): a sale is open while the clerk adds
// its lines, awaiting the card while the card reader takes its card part (its stock taken), paid
// once the money is in (the receipt), or voided; it is paid in cash, by card or both.

export const SALE_STATUSES = ["open", "awaiting_card", "paid", "voided"] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

/** `credit`: an exchange's, the value of the goods returned for the new sale (a counter return). */
export const TENDER_METHODS = ["cash", "card", "credit"] as const;
export type TenderMethod = (typeof TENDER_METHODS)[number];

/** How a receipt and the Z report name each method. */
export const TENDER_LABELS: Record<TenderMethod, string> = {
  cash: "Cash",
  card: "Card",
  credit: "Exchange credit",
};

/** A sale's number as the receipt prints it and staff say it: S-100001. */
export function saleNumber(id: number): string {
  return `S-${id}`;
}

/** The id in a sale's number, or undefined when it is not one ("S-100001", "s100001"). */
export function saleIdOf(number: string): number | undefined {
  const match = /^s-?(\d{6,12})$/i.exec(number.trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * The sale a code scanned or typed at the counter names: its number ("S-100001"), or the
 * address its receipt's QR code carries (`…/counter/sales/S-100001`), which a scanner that reads
 * QR codes types as it is, and the camera reads. Whatever the host: the receipt printed before
 * the shop's address changed still opens its sale.
 */
export function saleIdOfScan(code: string): number | undefined {
  const text = code.trim();
  const onReceipt =
    /^(?:https?:\/\/[^\s/]+)?(?:\/[^\s?#]*)?\/counter\/sales\/([^\s/?#]+)\/?$/i.exec(text);
  return saleIdOf(onReceipt?.[1] ?? text);
}

/**
 * How a counter return gives its money back: cash from the till, to the card that paid, or as
 * credit toward the till's open sale (an exchange).
 */
export const REFUND_METHODS = ["cash", "card", "credit"] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

export const REFUND_LABELS: Record<RefundMethod, string> = {
  cash: "Cash refund",
  card: "Refund to card",
  credit: "Credit to sale",
};

/** A counter return's number, as its slip prints it: CR-100001 (web returns are RMA-1042). */
export function counterReturnNumber(id: number): string {
  return `CR-${id}`;
}

/** The id in a counter return's number, or undefined ("CR-100001", "cr100001"). */
export function counterReturnIdOf(number: string): number | undefined {
  const match = /^cr-?(\d{6,12})$/i.exec(number.trim());
  return match ? Number(match[1]) : undefined;
}

/** Why a customer brings something back to the counter. */
export const COUNTER_RETURN_REASONS = [
  "Changed their mind",
  "Faulty or damaged",
  "Exchange for another title",
  "Gift return",
  "Other",
] as const;
