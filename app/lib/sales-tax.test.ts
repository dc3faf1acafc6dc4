import { describe, expect, it } from "vitest";
import { formatTaxRate, parseSalesTaxRates, salesTaxCents, taxRateFor } from "./sales-tax.ts";

describe("SALES_TAX_RATES", () => {
  it("reads state:rate pairs into exact millionths", () => {
    expect(parseSalesTaxRates("TX:0.0825,CA:0.0725")).toEqual({ TX: 82_500, CA: 72_500 });
    expect(parseSalesTaxRates(" tx : .0625 , ny:0.08875 ")).toEqual({ TX: 62_500, NY: 88_750 });
    expect(parseSalesTaxRates("PR:0,DC:0.06")).toEqual({ PR: 0, DC: 60_000 });
  });

  it("means no tax anywhere when empty", () => {
    expect(parseSalesTaxRates("")).toEqual({});
    expect(parseSalesTaxRates("   ")).toEqual({});
  });

  it.each([
    ["TX", /not a STATE:rate pair/],
    ["TX=0.0825", /not a STATE:rate pair/],
    ["TX:-0.01", /not a STATE:rate pair/],
    ["TX:abc", /not a STATE:rate pair/],
    ["TX:0.0825,", /not a STATE:rate pair/],
    ["TX:.", /not a STATE:rate pair/],
    ["XX:0.05", /"XX" is not a US state/],
    ["Texas:0.05", /not a STATE:rate pair/],
    ["TX:0.05,tx:0.06", /TX is listed twice/],
    ["TX:8.25", /below 0\.2/],
    ["TX:0.2", /below 0\.2/],
    ["TX:0.0000001", /more than six decimals/],
  ])("refuses %j with a clear error", (text, message) => {
    expect(() => parseSalesTaxRates(text)).toThrow(message);
  });

  it("finds the rate of a destination, whatever its case, and none elsewhere", () => {
    const rates = parseSalesTaxRates("TX:0.0825");
    expect(taxRateFor(rates, "tx")).toBe(82_500);
    expect(taxRateFor(rates, "OK")).toBe(0);
    expect(taxRateFor(rates, "Texas")).toBe(0);
  });

  it("rounds tax half up to the cent, exactly", () => {
    // 8.25 % of $1.00 is 8.25 cents → 8; of $2.00 is 16.5 → 17; of $0.06 is 0.495 → 0.
    expect(salesTaxCents(100, 82_500)).toBe(8);
    expect(salesTaxCents(200, 82_500)).toBe(17);
    expect(salesTaxCents(6, 82_500)).toBe(0);
    // 0.0725 × 1000 cents = 72.5 → 73 (binary floating point would give 72.49999…).
    expect(salesTaxCents(1000, 72_500)).toBe(73);
    expect(salesTaxCents(0, 82_500)).toBe(0);
    expect(salesTaxCents(12_345, 0)).toBe(0);
    expect(salesTaxCents(2_000_000_000, 199_999)).toBe(399_998_000);
  });

  it("shows a rate as a percentage", () => {
    expect(formatTaxRate(82_500)).toBe("8.25%");
    expect(formatTaxRate(60_000)).toBe("6%");
    expect(formatTaxRate(88_750)).toBe("8.875%");
  });
});
