import { isUsStateCode, type UsStateCode } from "./us-states.ts";

/**
 * Sales tax rate per destination state, in millionths (82_500 is 8.25 %): whole numbers, so
 * the tax of any amount is exact integer arithmetic. States not listed charge no tax.
 */
export type SalesTaxRates = Readonly<Partial<Record<UsStateCode, number>>>;

const MILLION = 1_000_000;
/** Anything from 20 % up is almost certainly a percentage written as a fraction's digits. */
const MAX_RATE_MILLIONTHS = 200_000;

/**
 * Reads `SALES_TAX_RATES`, e.g. `TX:0.0825,CA:0.0725`: comma-separated pairs of a two-letter US
 * state or territory code and a rate from 0 up to (not including) 0.2, at most six decimals.
 * Empty text means no sales tax anywhere. Throws an Error naming the first bad pair.
 */
export function parseSalesTaxRates(text: string): SalesTaxRates {
  const rates: Partial<Record<UsStateCode, number>> = {};
  if (text.trim() === "") return rates;
  for (const rawPair of text.split(",")) {
    const pair = rawPair.trim();
    const match = /^([A-Za-z]{2})\s*:\s*(\d*)(?:\.(\d*))?$/.exec(pair);
    const [, rawState = "", whole = "", fraction = ""] = match ?? [];
    if (!match || (whole === "" && fraction === "")) {
      throw new Error(
        `SALES_TAX_RATES: "${pair}" is not a STATE:rate pair (write e.g. TX:0.0825,CA:0.0725).`,
      );
    }
    const state = rawState.toUpperCase();
    if (!isUsStateCode(state)) {
      throw new Error(`SALES_TAX_RATES: "${rawState}" is not a US state or territory code.`);
    }
    if (state in rates) throw new Error(`SALES_TAX_RATES: ${state} is listed twice.`);
    if (fraction.length > 6) {
      throw new Error(`SALES_TAX_RATES: the rate of ${state} has more than six decimals.`);
    }
    const millionths = Number(whole || "0") * MILLION + Number(fraction.padEnd(6, "0"));
    if (millionths >= MAX_RATE_MILLIONTHS) {
      throw new Error(
        `SALES_TAX_RATES: the rate of ${state} must be a fraction below 0.2 (write 8.25 % as 0.0825).`,
      );
    }
    rates[state] = millionths;
  }
  return rates;
}

/** The rate (millionths) charged for a destination state; 0 where the shop collects none. */
export function taxRateFor(rates: SalesTaxRates, state: string): number {
  const code = state.trim().toUpperCase();
  return isUsStateCode(code) ? (rates[code] ?? 0) : 0;
}

/** Tax on an amount, rounded half up to the cent (exact: no binary fractions involved). */
export function salesTaxCents(amountCents: number, rateMillionths: number): number {
  if (amountCents <= 0 || rateMillionths <= 0) return 0;
  const scaled = BigInt(amountCents) * BigInt(rateMillionths) + BigInt(MILLION / 2);
  return Number(scaled / BigInt(MILLION));
}

/** "8.25%" for a rate in millionths. */
export function formatTaxRate(rateMillionths: number): string {
  return `${Number((rateMillionths / 10_000).toFixed(4))}%`;
}
