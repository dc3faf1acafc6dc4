import { describe, expect, it } from "vitest";
import { formatUsd, parsePriceToCents } from "./money.ts";

describe("formatUsd", () => {
  it("shows dollars with two decimals", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(599)).toBe("$5.99");
    expect(formatUsd(1299)).toBe("$12.99");
    expect(formatUsd(20000)).toBe("$200.00");
    expect(formatUsd(123456789)).toBe("$1,234,567.89");
  });
});

describe("parsePriceToCents", () => {
  it("reads numbers and decimal text into cents", () => {
    expect(parsePriceToCents(12.99)).toBe(1299);
    expect(parsePriceToCents(0.1 + 0.2)).toBe(30);
    expect(parsePriceToCents("12.99")).toBe(1299);
    expect(parsePriceToCents(" $1,299.5 ")).toBe(129950);
    expect(parsePriceToCents("7")).toBe(700);
    expect(parsePriceToCents(".5")).toBe(50);
    expect(parsePriceToCents("19.995")).toBe(2000);
    expect(parsePriceToCents("19.994")).toBe(1999);
  });

  it("refuses what is not a non-negative amount", () => {
    for (const bad of [
      "",
      "abc",
      "-1",
      "1.2.3",
      "12,99.0.1",
      null,
      undefined,
      NaN,
      -5,
      Infinity,
      {},
    ]) {
      expect(parsePriceToCents(bad)).toBeUndefined();
    }
  });
});
