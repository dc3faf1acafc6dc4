import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertyRuns } from "#tests/support/property.ts";
import { adultBornBy, ageOn } from "./adult-buyer.ts";

const day = fc
  .date({ min: new Date("1950-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z") })
  .filter((date) => !Number.isNaN(date.getTime()))
  .map((date) => date.toISOString().slice(0, 10));

describe("the latest birth date of an adult", () => {
  it("is born by it exactly when 18 or older that day, leap days included", () => {
    const nearby = fc.tuple(day, fc.integer({ min: -3, max: 3 })).map(([today, shift]) => {
      const bound = new Date(`${adultBornBy(today)}T00:00:00Z`);
      bound.setUTCDate(bound.getUTCDate() + shift);
      return [today, bound.toISOString().slice(0, 10)] as const;
    });
    fc.assert(
      fc.property(fc.oneof(nearby, fc.tuple(day, day)), ([today, born]) => {
        expect(born <= adultBornBy(today)).toBe(ageOn(born, today) >= 18);
      }),
      propertyRuns(500),
    );
    expect(adultBornBy("2028-02-29")).toBe("2010-02-28");
    expect(adultBornBy("2026-03-01")).toBe("2008-03-01");
  });
});
