import { shippingCents, type ShippingOption } from "#app/lib/shipping.ts";
import { salesTaxCents, taxRateFor, type SalesTaxRates } from "#app/lib/sales-tax.ts";

export type PricingConfig = {
  salesTaxRates: SalesTaxRates;
  /** Standard shipping is free from this subtotal on (FREE_SHIPPING_THRESHOLD_CENTS). */
  freeShippingThresholdCents: number;
};

/**
 * The most an order may come to, tax and shipping included: $999,999.99, the most a card payment
 * in dollars may be, and well within the order's integer columns. The dearest title is $100,000,
 * so fifty lines of 99 copies would otherwise overflow them.
 */
export const MAX_ORDER_TOTAL_CENTS = 99_999_999;
export const ORDER_TOO_LARGE =
  "An order can come to at most $999,999.99. Please order fewer copies, or contact the shop.";

/** A line as the server priced it: the unit price always comes from the catalogue. */
export type PricedLine = { unitPriceCents: number; quantity: number };

export type OrderPrice = {
  subtotalCents: number;
  shippingCents: number;
  /** The destination's rate in millionths (0 where the shop collects no tax). */
  taxRate: number;
  taxCents: number;
  totalCents: number;
};

/**
 * What an order costs. Sales tax is charged on the goods and on the shipping charge: the shop
 * is in Texas, where delivery charges are part of the taxable sales price of taxable items
 * (Comptroller rule 34 TAC §3.303), and every title it sells is taxable. A shop registered in a
 * state that exempts separately stated shipping would need a per-state switch here.
 */
export function priceOrder(
  lines: readonly PricedLine[],
  shippingMethod: ShippingOption["id"],
  state: string,
  config: PricingConfig,
): OrderPrice {
  const subtotalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const shipping = shippingCents(shippingMethod, subtotalCents, config.freeShippingThresholdCents);
  const taxRate = taxRateFor(config.salesTaxRates, state);
  const taxCents = salesTaxCents(subtotalCents + shipping, taxRate);
  return {
    subtotalCents,
    shippingCents: shipping,
    taxRate,
    taxCents,
    totalCents: subtotalCents + shipping + taxCents,
  };
}
