/** The shop's calendar: it is in Texas, so a birthday starts at midnight in Central time. */
const SHOP_TIME_ZONE = "America/Chicago";
export const ADULT_AGE = 18;

const shopDate = new Intl.DateTimeFormat("en-CA", {
  timeZone: SHOP_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** "YYYY-MM-DD" of an instant on the shop's calendar. */
export function shopDay(at: Date): string {
  return shopDate.format(at);
}

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

export type AdultBuyerCheck =
  { ok: true } | { ok: false; reason: "date-of-birth-required" | "under-age" };

/**
 * May this customer buy adult titles at this moment? The date of birth on the customer's
 * profile is the whole check today; a stronger age-verification provider would replace this one
 * function (DESIGN §3.6).
 */
export function checkAdultBuyer(dateOfBirth: string | null, at: Date): AdultBuyerCheck {
  if (!dateOfBirth || !/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) {
    return { ok: false, reason: "date-of-birth-required" };
  }
  return ageOn(dateOfBirth, shopDay(at)) >= ADULT_AGE
    ? { ok: true }
    : { ok: false, reason: "under-age" };
}
