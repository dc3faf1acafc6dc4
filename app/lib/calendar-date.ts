/** A real day of the calendar written YYYY-MM-DD: "2026-02-30" has the shape but is no day. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A date of birth as the shop takes one: a real day, before today, from 1900 on. */
export function isBirthDate(value: string, today = new Date()): boolean {
  return isCalendarDate(value) && value >= "1900-01-01" && new Date(`${value}T00:00:00Z`) < today;
}
