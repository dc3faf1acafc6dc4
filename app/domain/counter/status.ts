// The counter's vocabulary (decision 023, points 5 to 7): a sale is open while the clerk adds
// its lines, awaiting the card while the card reader takes its card part (its stock taken), paid
// once the money is in (the receipt), or voided; it is paid in cash, by card or both.

export const SALE_STATUSES = ["open", "awaiting_card", "paid", "voided"] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

export const TENDER_METHODS = ["cash", "card"] as const;
export type TenderMethod = (typeof TENDER_METHODS)[number];

/** How a receipt and the Z report name each method. */
export const TENDER_LABELS: Record<TenderMethod, string> = { cash: "Cash", card: "Card" };

/** A sale's number as the receipt prints it and staff say it: S-100001. */
export function saleNumber(id: number): string {
  return `S-${id}`;
}

/** The id in a sale's number, or undefined when it is not one ("S-100001", "s100001"). */
export function saleIdOf(number: string): number | undefined {
  const match = /^s-?(\d{6,12})$/i.exec(number.trim());
  return match ? Number(match[1]) : undefined;
}
