const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "2026-12-01" → "Dec 1, 2026": a calendar date, the same wherever it is read. Written out rather
 * than through `Intl.DateTimeFormat`, which it matches (release-date.test.ts): the home page shows
 * it while it loads, and a page's first `Intl` formatter is slow to build (digits.ts).
 */
export function formatReleaseDate(isoDate: string) {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${MONTHS[month! - 1]} ${day}, ${year}`;
}
