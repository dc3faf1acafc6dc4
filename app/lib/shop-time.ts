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

// Shop-local calendar dates and wall times, with `Intl.DateTimeFormat` only (there is no date
// library): repair slots, the return window and the dashboard's days all count days this way.

const DAY = 24 * 60 * 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export type WallClock = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

/** The shop-local calendar date and clock time at an instant. */
export function wallClockAt(instant: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of wallClockFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** How far the zone's clocks are ahead of UTC at an instant, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const wall = wallClockAt(new Date(ms), timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

export type CalendarDate = { year: number; month: number; day: number };

/** "YYYY-MM-DD" that names a real calendar day, or null. */
export function parseDate(date: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1) return null;
  if (check.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** "HH:MM" (24-hour) as minutes after midnight, or null. */
export function parseTime(time: string): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return null;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : null;
}

export function formatDate(date: CalendarDate): string {
  return `${String(date.year).padStart(4, "0")}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
}

/**
 * The instant a shop-local wall time happens: null when it does not exist (skipped by a DST
 * change), the earlier instant when it happens twice.
 */
export function wallTimeToInstant(date: string, time: string, timeZone: string): Date | null {
  const day = parseDate(date);
  const minutes = parseTime(time);
  if (!day || minutes === null) return null;
  const asUtc = Date.UTC(day.year, day.month - 1, day.day, 0, minutes);
  // Offsets change at most once a day: the ones a day either side cover every candidate.
  const offsets = new Set([
    offsetAt(asUtc - DAY, timeZone),
    offsetAt(asUtc, timeZone),
    offsetAt(asUtc + DAY, timeZone),
  ]);
  const candidates = [...offsets]
    .map((offset) => asUtc - offset)
    .filter((ms) => {
      const wall = wallClockAt(new Date(ms), timeZone);
      return (
        wall.year === day.year &&
        wall.month === day.month &&
        wall.day === day.day &&
        wall.hour * 60 + wall.minute === minutes
      );
    })
    .sort((a, b) => a - b);
  return candidates.length ? new Date(candidates[0]!) : null;
}

/** A calendar date plus some days, "YYYY-MM-DD". */
export function addDays(date: string, days: number): string {
  const day = parseDate(date);
  if (!day) throw new Error(`Not a date: ${date}`);
  const moved = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return formatDate({
    year: moved.getUTCFullYear(),
    month: moved.getUTCMonth() + 1,
    day: moved.getUTCDate(),
  });
}
