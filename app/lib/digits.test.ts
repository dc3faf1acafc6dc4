import { describe, expect, it } from "vitest";
import { groupDigits } from "./digits.ts";

describe("groupDigits", () => {
  it("writes whole numbers as toLocaleString('en-US') does", () => {
    const values = [0, 1, -1, 999, 1000, -1000, 10_000, 123_456, 1_234_567, 2_147_483_647];
    for (let power = 0; power <= 15; power++) values.push(10 ** power - 1, 10 ** power);
    for (const value of values)
      expect(groupDigits(value), String(value)).toBe(value.toLocaleString("en-US"));
  });
});
