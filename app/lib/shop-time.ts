const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * One `Intl.DateTimeFormat` per locale and options, kept: building one costs far more than
 * formatting with it (a page listing fifty dates built fifty).
 */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/**
 * Dates shown in the back office and e-mails, in the shop's time zone (SHOP_TIME_ZONE), formatted
 * on the server so the page reads the same wherever the browser is.
 */
export function formatShopDateTime(date: Date, timeZone: string): string {
  return dateFormat("en-US", { timeZone, dateStyle: "medium", timeStyle: "short" }).format(date);
}

export function formatShopDate(date: Date, timeZone: string): string {
  return dateFormat("en-US", { timeZone, dateStyle: "medium" }).format(date);
}

/** "June 14, 2026": the calendar date an instant falls on in the shop's time zone, in words. */
export function formatShopLongDate(date: Date, timeZone: string): string {
  return dateFormat("en-US", { timeZone, year: "numeric", month: "long", day: "numeric" }).format(
    date,
  );
}

/** The calendar date (YYYY-MM-DD) an instant falls on in the shop's time zone. */
export function shopCalendarDate(date: Date, timeZone: string): string {
  return dateFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(date);
}

/** "Monday, March 9, 2026 at 10:00 AM CDT", in the shop's zone, for messages. */
export function formatAppointment(startsAt: Date, rules: { timeZone: string }): string {
  const { timeZone } = rules;
  const when = new Intl.DateTimeFormat("en-US", {
    timeZone,
    dateStyle: "full",
    timeStyle: "short",
  });
  const zone = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" })
    .formatToParts(startsAt)
    .find((part) => part.type === "timeZoneName")?.value;
  return zone ? `${when.format(startsAt)} ${zone}` : when.format(startsAt);
}
