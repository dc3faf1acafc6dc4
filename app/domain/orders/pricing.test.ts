import { describe, expect, it } from "vitest";
import { priceOrder } from "./pricing.ts";
import { parseSalesTaxRates } from "#app/lib/sales-tax.ts";

const config = {
  salesTaxRates: parseSalesTaxRates("TX:0.0825"),
  freeShippingThresholdCents: 20_000,
};

describe("priceOrder", () => {
  it("adds up lines, standard shipping and no tax where none is configured", () => {
    const price = priceOrder(
      [
        { unitPriceCents: 1999, quantity: 2 },
        { unitPriceCents: 500, quantity: 1 },
      ],
      "standard",
      "OK",
      config,
    );
    expect(price).toEqual({
      subtotalCents: 4498,
      shippingCents: 599,
      taxRate: 0,
      taxCents: 0,
      totalCents: 5097,
    });
  });

  it("taxes goods and shipping in Texas, rounded half up", () => {
    // (4498 + 599) × 0.0825 = 420.5025 → 421.
    const price = priceOrder([{ unitPriceCents: 2249, quantity: 2 }], "standard", "TX", config);
    expect(price).toMatchObject({ subtotalCents: 4498, shippingCents: 599, taxCents: 421 });
    expect(price.totalCents).toBe(4498 + 599 + 421);
    // 1000 + 1299 = 2299 × 0.0825 = 189.6675 → 190.
    expect(
      priceOrder([{ unitPriceCents: 1000, quantity: 1 }], "express", "tx", config).taxCents,
    ).toBe(190);
  });

  it("ships standard free from the threshold, express never", () => {
    const atThreshold = [{ unitPriceCents: 10_000, quantity: 2 }];
    expect(priceOrder(atThreshold, "standard", "OK", config).shippingCents).toBe(0);
    expect(priceOrder(atThreshold, "express", "OK", config).shippingCents).toBe(1299);
    const justBelow = [{ unitPriceCents: 19_999, quantity: 1 }];
    expect(priceOrder(justBelow, "standard", "OK", config).shippingCents).toBe(599);
    expect(
      priceOrder(justBelow, "standard", "OK", { ...config, freeShippingThresholdCents: 5000 })
        .shippingCents,
    ).toBe(0);
  });

  it("taxes only the goods when standard shipping is free", () => {
    const price = priceOrder([{ unitPriceCents: 25_000, quantity: 1 }], "standard", "TX", config);
    expect(price).toMatchObject({ shippingCents: 0, taxCents: 2063, totalCents: 27_063 });
  });
});
