const releaseDate = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** "2026-12-01" → "Dec 1, 2026": a calendar date, the same wherever it is read. */
export function formatReleaseDate(isoDate: string) {
  return releaseDate.format(new Date(`${isoDate}T12:00:00Z`));
}
