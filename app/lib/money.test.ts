import { describe, expect, it, vi } from "vitest";
import { formatUsd, parsePriceToCents } from "./money.ts";

describe("formatUsd", () => {
  it("shows dollars with two decimals", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(599)).toBe("$5.99");
    expect(formatUsd(1299)).toBe("$12.99");
    expect(formatUsd(20000)).toBe("$200.00");
    expect(formatUsd(123456789)).toBe("$1,234,567.89");
  });

  it("writes what Intl's en-US currency format writes, refunds and part cents included", () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    const amounts = [-123456, -100, -5, -1, 1, 5, 9, 10, 99, 100, 101, 99999, 100000, 999999];
    for (let cents = 0; cents < 200_000; cents += 7) amounts.push(cents);
    for (let power = 0; power <= 13; power++) amounts.push(10 ** power - 1, 10 ** power);
    for (const cents of amounts)
      expect(formatUsd(cents), String(cents)).toBe(intl.format(cents / 100));
    // Half a cent rounds away from zero, as Intl does.
    expect(formatUsd(0.5)).toBe(intl.format(0.005));
    expect(formatUsd(12.5)).toBe(intl.format(0.125));
    expect(formatUsd(-0.5)).toBe(intl.format(-0.005));
  });

  it("builds no Intl formatter: a page's first one costs 17-60 ms of its main thread", async () => {
    const built = vi.spyOn(Intl, "NumberFormat");
    try {
      vi.resetModules();
      const fresh = await import("./money.ts");
      expect(fresh.formatUsd(1299)).toBe("$12.99");
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
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
