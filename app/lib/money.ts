const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Formats integer cents as "$x.xx" — the only place money becomes text. */
export function formatUsd(cents: number): string {
  return usd.format(cents / 100);
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
