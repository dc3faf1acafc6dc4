import fc from "fast-check";

/** A counter sale's line of any price, quantity and discount (within the line), taxable or not. */
export const saleLineArbitrary = (maxPriceCents: number, maxQuantity: number) =>
  fc
    .record({
      unitPriceCents: fc.integer({ min: 0, max: maxPriceCents }),
      quantity: fc.integer({ min: 1, max: maxQuantity }),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
      taxable: fc.boolean(),
    })
    .map(({ share, ...rest }) => ({
      ...rest,
      discountCents: Math.floor(rest.unitPriceCents * rest.quantity * share),
    }));
