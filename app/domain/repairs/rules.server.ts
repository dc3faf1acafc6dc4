import { getEnv, type Env } from "#app/lib/env.server.ts";
import { DEFAULT_BOOKING_RULES, type BookingRules } from "./slots.ts";

/** The repair appointment rules from the configuration (REPAIR_*, SHOP_TIME_ZONE). */
export function bookingRules(env: Env = getEnv()): BookingRules {
  const [opensAt, closesAt] = env.REPAIR_HOURS.split("-") as [string, string];
  return {
    ...DEFAULT_BOOKING_RULES,
    timeZone: env.SHOP_TIME_ZONE,
    openDays: env.REPAIR_OPEN_DAYS,
    opensAt,
    closesAt,
    slotMinutes: env.REPAIR_SLOT_MINUTES,
    placesPerSlot: env.REPAIR_PLACES_PER_SLOT,
    daysAhead: env.REPAIR_DAYS_AHEAD,
    confirmMinutes: env.REPAIR_CONFIRM_MINUTES,
  };
}
