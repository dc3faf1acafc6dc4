/**
 * A whole number with en-US thousands separators ("1,234,567"), as `toLocaleString("en-US")`
 * writes it (digits.test.ts). Storefront code writes numbers with this, not through `Intl`: in
 * Chromium a page's first `Intl` formatter (`toLocaleString` builds one) costs 17–60 ms of its main
 * thread on this project's benchmark machine, while the page loads.
 */
export function groupDigits(value: number): string {
  const sign = value < 0 ? "-" : "";
  return sign + String(Math.abs(Math.round(value))).replace(/\B(?=(\d{3})+$)/g, ",");
}
