import { describe, expect, it } from "vitest";
import { deliveryLabel, shippingCents, shippingChoiceLabel, shippingOption } from "./shipping.ts";

describe("shipping", () => {
  it("charges $5.99 standard and $12.99 express, standard by default", () => {
    expect(shippingCents("standard", 1000, 20000)).toBe(599);
    expect(shippingCents("express", 1000, 20000)).toBe(1299);
    expect(shippingOption("teleport").id).toBe("standard");
  });

  it("makes standard free from the threshold, never express", () => {
    expect(shippingCents("standard", 19999, 20000)).toBe(599);
    expect(shippingCents("standard", 20000, 20000)).toBe(0);
    expect(shippingCents("express", 50000, 20000)).toBe(1299);
  });

  it("makes a pickup at the store free, whatever the subtotal", () => {
    expect(shippingCents("pickup", 1000, 20000)).toBe(0);
    expect(shippingCents("pickup", 50000, 20000)).toBe(0);
    expect(shippingChoiceLabel(shippingOption("pickup"), String)).toBe(
      "Pick up at the store (free)",
    );
    expect(deliveryLabel("pickup")).toBe("Pick up at the store");
    expect(deliveryLabel("express")).toBe("Express shipping");
  });
});
