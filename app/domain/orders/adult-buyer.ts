import { shopCalendarDate } from "#app/lib/shop-time.ts";

const ADULT_AGE = 18;

/**
 * Whole years between a date of birth and a day (both "YYYY-MM-DD"). Someone born on 29
 * February becomes a year older on 1 March in other years.
 */
export function ageOn(dateOfBirth: string, day: string): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const beforeBirthday = m < bm || (m === bm && d < bd);
  return y - by - (beforeBirthday ? 1 : 0);
}

/**
 * The latest date of birth of someone who is an adult on `day` ("YYYY-MM-DD"): the same day
 * eighteen years before, or the last day of that month when it has none (29 February), so that
 * `dateOfBirth <= adultBornBy(day)` exactly when `ageOn(dateOfBirth, day) >= 18`.
 */
export function adultBornBy(day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const year = y - ADULT_AGE;
  const lastDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${String(year).padStart(4, "0")}-${pad(m)}-${pad(Math.min(d, lastDay))}`;
}

export type AdultBuyerCheck =
  { ok: true } | { ok: false; reason: "date-of-birth-required" | "under-age" };

/**
 * May this customer buy adult titles at this moment? The date of birth on the customer's
 * profile is the whole check today; a stronger age-verification provider would replace this one
 * function (DESIGN §3.6). A birthday starts at midnight on the shop's calendar (`timeZone`,
 * SHOP_TIME_ZONE), wherever the server's clock is set.
 */
export function checkAdultBuyer(
  dateOfBirth: string | null,
  at: Date,
  timeZone: string,
): AdultBuyerCheck {
  if (!dateOfBirth || !/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) {
    return { ok: false, reason: "date-of-birth-required" };
  }
  return ageOn(dateOfBirth, shopCalendarDate(at, timeZone)) >= ADULT_AGE
    ? { ok: true }
    : { ok: false, reason: "under-age" };
}
