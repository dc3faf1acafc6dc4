/**
 * Repair appointment slots: which shop-local times can be booked. Pure and browser-safe, so the
 * form can offer the same slots the server accepts. Time-zone math uses `Intl.DateTimeFormat`
 * only; there is no date library.
 *
 * Decisions:
 * - Slots are wall-clock times in the shop's zone (10:00, 11:00, … every day, DST or not).
 * - A wall time that does not exist (the hour skipped when clocks spring forward) is no slot.
 *   A wall time that happens twice (the hour repeated when clocks fall back) is the first one,
 *   in daylight time. With the default 10:00–18:00 hours neither case arises in America/Chicago
 *   (the change happens at 02:00), but the rule keeps other configurations deterministic.
 * - Lead time: a slot can be booked when it starts at or after the first full shop-local hour
 *   after `now + leadMinutes`. With `leadMinutes: 0` that is "from the next hour": at 10:00:00
 *   and at 10:59 alike the earliest slot is 11:00.
 * - "Up to `daysAhead` days ahead": the last bookable date is today (shop time) plus
 *   `daysAhead` calendar days.
 */

import {
  addDays,
  formatDate,
  parseDate,
  parseTime,
  wallClockAt,
  wallTimeToInstant,
  type CalendarDate,
} from "#app/lib/shop-time.ts";

export type BookingRules = {
  /** IANA zone of the shop, e.g. "America/Chicago". */
  timeZone: string;
  /** Days the shop takes appointments, 0 = Sunday … 6 = Saturday. */
  openDays: number[];
  /** "HH:MM", shop time: the first slot starts then. */
  opensAt: string;
  /** "HH:MM", shop time: the last slot ends by then. */
  closesAt: string;
  slotMinutes: number;
  placesPerSlot: number;
  /** Minimum notice before the start of a slot, rounded up to the next full hour (see above). */
  leadMinutes: number;
  daysAhead: number;
  /**
   * How long a booking from an address nobody has proven holds its place while the link mailed
   * to it waits to be followed.
   */
  confirmMinutes: number;
};

export const DEFAULT_BOOKING_RULES: BookingRules = {
  timeZone: "America/Chicago",
  openDays: [1, 2, 3, 4, 5, 6],
  opensAt: "10:00",
  closesAt: "18:00",
  slotMinutes: 60,
  placesPerSlot: 2,
  leadMinutes: 0,
  daysAhead: 60,
  confirmMinutes: 30,
};

export type Slot = { time: string; startsAt: Date };

export type SlotRefusal = "past" | "closed" | "too-far" | "not-a-slot";

export type SlotCheck =
  { ok: true; startsAt: Date } | { ok: false; reason: SlotRefusal; message: string };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function formatTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** Today's date in the shop's zone, "YYYY-MM-DD". */
export function shopToday(rules: Pick<BookingRules, "timeZone">, now: Date): string {
  return formatDate(wallClockAt(now, rules.timeZone));
}

/** 0 = Sunday … 6 = Saturday: the calendar's weekday, the same in every zone. */
function weekday(day: CalendarDate): number {
  return new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
}

/** The earliest instant a slot may start (see the lead-time decision above). */
export function earliestStart(rules: BookingRules, now: Date): Date {
  const notice = now.getTime() + rules.leadMinutes * MINUTE;
  // The start of the shop-local hour holding `notice`; zones' offsets are whole minutes.
  const wall = wallClockAt(new Date(notice), rules.timeZone);
  const startOfSecond = Math.floor(notice / 1000) * 1000;
  return new Date(startOfSecond - (wall.minute * 60 + wall.second) * 1000 + HOUR);
}

/** The slots of the opening hours, as shop-local minutes after midnight. */
function slotMinutesOfDay(rules: BookingRules): number[] {
  const opens = parseTime(rules.opensAt);
  const closes = parseTime(rules.closesAt);
  if (opens === null || closes === null || rules.slotMinutes <= 0) {
    throw new Error("Invalid booking rules: opening hours or slot length.");
  }
  const slots = [];
  for (let start = opens; start + rules.slotMinutes <= closes; start += rules.slotMinutes) {
    slots.push(start);
  }
  return slots;
}

/**
 * The slots of a shop-local date that can be booked now (leaving out whether they are full):
 * none on closed days, past dates and dates beyond `daysAhead`; none that start too soon.
 */
export function slotsForDate(date: string, rules: BookingRules, now: Date): Slot[] {
  const day = parseDate(date);
  if (!day || !rules.openDays.includes(weekday(day))) return [];
  const today = shopToday(rules, now);
  if (date < today || date > addDays(today, rules.daysAhead)) return [];
  const earliest = earliestStart(rules, now).getTime();
  const slots: Slot[] = [];
  for (const minutes of slotMinutesOfDay(rules)) {
    const time = formatTime(minutes);
    const startsAt = wallTimeToInstant(date, time, rules.timeZone);
    if (startsAt && startsAt.getTime() >= earliest) slots.push({ time, startsAt });
  }
  return slots;
}

function refuse(reason: SlotRefusal, message: string): SlotCheck {
  return { ok: false, reason, message };
}

/** Whether a shop-local date and time is a slot that can be booked now (fullness aside). */
export function checkSlot(date: string, time: string, rules: BookingRules, now: Date): SlotCheck {
  const day = parseDate(date);
  const minutes = parseTime(time);
  if (!day || minutes === null) {
    return refuse("not-a-slot", "Please choose a date and one of the offered times.");
  }
  const today = shopToday(rules, now);
  if (date < today) return refuse("past", "That date has passed. Please choose another time.");
  if (date > addDays(today, rules.daysAhead)) {
    return refuse(
      "too-far",
      `Appointments can be booked up to ${rules.daysAhead} days ahead. Please choose an earlier date.`,
    );
  }
  const slots = slotMinutesOfDay(rules);
  const closes = parseTime(rules.closesAt)!;
  if (!rules.openDays.includes(weekday(day)) || minutes < slots[0]! || minutes >= closes) {
    return refuse("closed", "The shop is closed then. Please choose another time.");
  }
  const startsAt = slots.includes(minutes) ? wallTimeToInstant(date, time, rules.timeZone) : null;
  if (!startsAt) {
    return refuse("not-a-slot", "Please choose one of the offered times.");
  }
  if (startsAt.getTime() < earliestStart(rules, now).getTime()) {
    return refuse(
      "past",
      "That time has passed or is too soon: appointments start from the next full hour. Please choose a later time.",
    );
  }
  return { ok: true, startsAt };
}
