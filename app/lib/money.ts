import { groupDigits } from "./digits.ts";

/**
 * Formats cents as "$1,234.56" ("-$5.00" for a refund) — the only place money becomes text.
 * Written out rather than through `Intl.NumberFormat`, which it matches (money.test.ts): every
 * storefront page loads this module, and a page's first `Intl` formatter is slow to build
 * (digits.ts).
 */
export function formatUsd(cents: number): string {
  const whole = Math.round(Math.abs(cents));
  const sign = cents < 0 && whole > 0 ? "-" : "";
  return `${sign}$${groupDigits(Math.floor(whole / 100))}.${String(whole % 100).padStart(2, "0")}`;
}

/** Cents as a back-office price field shows them to be edited: "12.99", no sign or grouping. */
export function formatPriceInput(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * Reads a price the way people write it ("12.99", "$1,299.5", 7) into integer cents.
 * Returns undefined for anything that is not a non-negative amount.
 */
export function parsePriceToCents(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) : undefined;
  }
  if (typeof value !== "string") return undefined;
  const cleaned = value.trim().replace(/^\$/, "").replaceAll(",", "").trim();
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(cleaned)) return undefined;
  const [whole = "0", fraction = ""] = cleaned.split(".");
  const padded = (fraction + "000").slice(0, 3);
  // Round half up on the third decimal without going through binary floating point.
  const thousandths = Number(whole || "0") * 1000 + Number(padded);
  return Math.round(thousandths / 10);
}
