import { describe, expect, it } from "vitest";
import { isBirthDate, isCalendarDate } from "./calendar-date.ts";

describe("calendar dates", () => {
  it("are days the calendar has, written YYYY-MM-DD", () => {
    for (const day of ["2024-02-29", "2026-02-28", "2026-04-30", "2026-12-31", "1900-01-01"]) {
      expect(isCalendarDate(day), day).toBe(true);
    }
    for (const text of [
      "2026-02-30",
      "2025-02-29",
      "2026-04-31",
      "2026-13-01",
      "2026-00-10",
      "2026-01-00",
      "2026-1-05",
      "05/01/2026",
      "",
    ]) {
      expect(isCalendarDate(text), text).toBe(false);
    }
  });

  it("are a date of birth when past and from 1900", () => {
    const today = new Date("2026-11-27T12:00:00Z");
    expect(isBirthDate("1900-01-01", today)).toBe(true);
    expect(isBirthDate("2026-11-26", today)).toBe(true);
    expect(isBirthDate("1899-12-31", today)).toBe(false);
    expect(isBirthDate("2026-11-28", today)).toBe(false);
    expect(isBirthDate("2001-02-30", today)).toBe(false);
  });
});
