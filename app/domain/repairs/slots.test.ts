import { describe, expect, it } from "vitest";
import { addDays, formatAppointment, wallTimeToInstant } from "#app/lib/shop-time.ts";
import {
  checkSlot,
  DEFAULT_BOOKING_RULES,
  earliestStart,
  slotsForDate,
  type BookingRules,
} from "./slots.ts";

const rules = DEFAULT_BOOKING_RULES;
/** Every day, midnight to 06:00: the hours where America/Chicago changes its clocks. */
const nightRules: BookingRules = {
  ...rules,
  openDays: [0, 1, 2, 3, 4, 5, 6],
  opensAt: "00:00",
  closesAt: "06:00",
};
// Sunday 2026-11-22, 09:00 in Arlington (CST, UTC-6).
const sundayMorning = new Date("2026-11-22T15:00:00Z");

const iso = (slots: { startsAt: Date }[]) => slots.map((slot) => slot.startsAt.toISOString());

describe("slotsForDate", () => {
  it("offers the opening hours of an open day in one-hour slots, in shop time", () => {
    const slots = slotsForDate("2026-11-23", rules, sundayMorning);
    expect(slots.map((slot) => slot.time)).toEqual([
      "10:00",
      "11:00",
      "12:00",
      "13:00",
      "14:00",
      "15:00",
      "16:00",
      "17:00",
    ]);
    expect(slots[0]!.startsAt.toISOString()).toBe("2026-11-23T16:00:00.000Z");
  });

  it("offers nothing on a closed day, a past date, a date too far ahead or a non-date", () => {
    expect(slotsForDate("2026-11-22", rules, sundayMorning)).toEqual([]);
    expect(slotsForDate("2026-11-21", rules, sundayMorning)).toEqual([]);
    // 2026-11-22 + 60 days = 2027-01-21 (Thursday) is the last bookable date.
    expect(slotsForDate("2027-01-21", rules, sundayMorning)).toHaveLength(8);
    expect(slotsForDate("2027-01-22", rules, sundayMorning)).toEqual([]);
    expect(slotsForDate("2026-02-30", rules, sundayMorning)).toEqual([]);
    expect(slotsForDate("not a date", rules, sundayMorning)).toEqual([]);
  });

  it("starts today's slots from the next full hour", () => {
    // Monday 2026-11-23 10:20 CST.
    const at1020 = slotsForDate("2026-11-23", rules, new Date("2026-11-23T16:20:00Z"));
    expect(at1020[0]!.time).toBe("11:00");
    // Exactly 10:00: the 10:00 slot is starting, so the next one is the first.
    const at1000 = slotsForDate("2026-11-23", rules, new Date("2026-11-23T16:00:00Z"));
    expect(at1000[0]!.time).toBe("11:00");
    // 16:59:59: only the 17:00 slot is left; after 17:00 nothing.
    expect(
      slotsForDate("2026-11-23", rules, new Date("2026-11-23T22:59:59Z")).map((s) => s.time),
    ).toEqual(["17:00"]);
    expect(slotsForDate("2026-11-23", rules, new Date("2026-11-23T23:00:00Z"))).toEqual([]);
  });

  it("goes by the shop's date, not UTC's, around midnight", () => {
    // 2026-03-10 04:30 UTC is still Monday 2026-03-09, 23:30 CDT, in Arlington.
    const lateMonday = new Date("2026-03-10T04:30:00Z");
    expect(slotsForDate("2026-03-09", rules, lateMonday)).toEqual([]);
    const tuesday = slotsForDate("2026-03-10", rules, lateMonday);
    expect(tuesday).toHaveLength(8);
    expect(tuesday[0]!.startsAt.toISOString()).toBe("2026-03-10T15:00:00.000Z");
    // The day ahead limit counts from the shop's date too: 2026-03-09 + 60 = 2026-05-08.
    expect(slotsForDate("2026-05-08", rules, lateMonday)).toHaveLength(8);
    expect(slotsForDate("2026-05-09", rules, lateMonday)).toEqual([]);
  });

  it("keeps slots at the same shop time across the spring DST change (2026-03-08)", () => {
    const before = new Date("2026-03-01T12:00:00Z");
    // Saturday before: CST (UTC-6); Monday after: CDT (UTC-5).
    expect(slotsForDate("2026-03-07", rules, before)[0]!.startsAt.toISOString()).toBe(
      "2026-03-07T16:00:00.000Z",
    );
    expect(slotsForDate("2026-03-09", rules, before)[0]!.startsAt.toISOString()).toBe(
      "2026-03-09T15:00:00.000Z",
    );
    // The change day itself is a Sunday: closed by default.
    expect(slotsForDate("2026-03-08", rules, before)).toEqual([]);
    // With night hours, 02:00 does not exist that night: no slot.
    const night = slotsForDate("2026-03-08", nightRules, before);
    expect(night.map((slot) => slot.time)).toEqual(["00:00", "01:00", "03:00", "04:00", "05:00"]);
    expect(iso(night)).toEqual([
      "2026-03-08T06:00:00.000Z",
      "2026-03-08T07:00:00.000Z",
      "2026-03-08T08:00:00.000Z",
      "2026-03-08T09:00:00.000Z",
      "2026-03-08T10:00:00.000Z",
    ]);
    expect(checkSlot("2026-03-08", "02:00", nightRules, before)).toMatchObject({
      ok: false,
      reason: "not-a-slot",
    });
  });

  it("takes the first of a repeated hour at the autumn DST change (2026-11-01)", () => {
    const before = new Date("2026-10-25T12:00:00Z");
    const night = slotsForDate("2026-11-01", nightRules, before);
    expect(night.map((slot) => slot.time)).toEqual([
      "00:00",
      "01:00",
      "02:00",
      "03:00",
      "04:00",
      "05:00",
    ]);
    // 01:00 happens at 06:00Z (CDT) and again at 07:00Z (CST): the first one is the slot.
    expect(iso(night)).toEqual([
      "2026-11-01T05:00:00.000Z",
      "2026-11-01T06:00:00.000Z",
      "2026-11-01T08:00:00.000Z",
      "2026-11-01T09:00:00.000Z",
      "2026-11-01T10:00:00.000Z",
      "2026-11-01T11:00:00.000Z",
    ]);
    expect(wallTimeToInstant("2026-11-01", "01:30", "America/Chicago")!.toISOString()).toBe(
      "2026-11-01T06:30:00.000Z",
    );
    expect(slotsForDate("2026-10-31", rules, before)[0]!.startsAt.toISOString()).toBe(
      "2026-10-31T15:00:00.000Z",
    );
    expect(slotsForDate("2026-11-02", rules, before)[0]!.startsAt.toISOString()).toBe(
      "2026-11-02T16:00:00.000Z",
    );
  });
});

describe("earliestStart", () => {
  it("is the next full shop-local hour, across a DST change and in half-hour zones", () => {
    // 01:30 CST on 2026-03-08; the next hour on the clock is 03:00 CDT.
    expect(earliestStart(rules, new Date("2026-03-08T07:30:00Z")).toISOString()).toBe(
      "2026-03-08T08:00:00.000Z",
    );
    // 10:20 IST (UTC+5:30) → 11:00 IST.
    const kolkata = { ...rules, timeZone: "Asia/Kolkata" };
    expect(earliestStart(kolkata, new Date("2026-11-23T04:50:00Z")).toISOString()).toBe(
      "2026-11-23T05:30:00.000Z",
    );
    // A lead time moves the earliest start on by whole hours.
    expect(
      earliestStart({ ...rules, leadMinutes: 120 }, new Date("2026-11-23T16:20:00Z")).toISOString(),
    ).toBe("2026-11-23T19:00:00.000Z");
  });
});

describe("checkSlot", () => {
  const mondayMorning = new Date("2026-11-23T16:20:00Z"); // 10:20 CST

  it("accepts an offered slot with its instant", () => {
    expect(checkSlot("2026-11-24", "10:00", rules, mondayMorning)).toEqual({
      ok: true,
      startsAt: new Date("2026-11-24T16:00:00Z"),
    });
  });

  it.each([
    ["2026-11-20", "10:00", "past"],
    ["2026-11-23", "10:00", "past"],
    ["2026-11-29", "10:00", "closed"],
    ["2026-11-24", "09:00", "closed"],
    ["2026-11-24", "18:00", "closed"],
    ["2026-11-24", "10:30", "not-a-slot"],
    ["2026-11-24", "25:00", "not-a-slot"],
    ["2026-02-30", "10:00", "not-a-slot"],
    ["2027-01-23", "10:00", "too-far"],
  ] as const)("refuses %s %s as %s, with a message", (date, time, reason) => {
    const check = checkSlot(date, time, rules, mondayMorning);
    expect(check).toMatchObject({ ok: false, reason });
    expect(check.ok ? "" : check.message).toMatch(/\./);
  });

  it("accepts exactly what slotsForDate offers", () => {
    const now = new Date("2026-03-08T07:30:00Z");
    for (let day = 0; day < 5; day++) {
      const date = addDays("2026-03-07", day);
      const offered = slotsForDate(date, nightRules, now);
      for (const time of ["00:00", "01:00", "02:00", "03:00", "04:00", "05:00"]) {
        const check = checkSlot(date, time, nightRules, now);
        const slot = offered.find((s) => s.time === time);
        expect(check.ok ? check.startsAt : null).toEqual(slot ? slot.startsAt : null);
      }
    }
  });
});

describe("formatAppointment", () => {
  it("shows the shop's time and zone", () => {
    expect(formatAppointment(new Date("2026-11-24T16:00:00Z"), rules)).toBe(
      "Tuesday, November 24, 2026 at 10:00 AM CST",
    );
  });
});
