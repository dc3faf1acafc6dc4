import { describe, expect, it } from "vitest";
import { ageOn, checkAdultBuyer } from "./adult-buyer.ts";
import {
  checkoutDetailsSchema,
  mergeOrderLines,
  PICKUP_ADDRESS,
  placeOrderInputSchema,
} from "./checkout-input.ts";
import { TEST_ADDRESS } from "#tests/support/order-fixtures.ts";

const valid = {
  customerId: "user-1",
  checkoutKey: "3f1c0d7e-8a55-4b8e-9d1e-2b7a0c1f9e42",
  shippingMethod: "standard",
  shipping: TEST_ADDRESS,
  lines: [{ productType: "regular", serialNo: 7, quantity: 1 }],
};

describe("checkout input", () => {
  it("asks a pickup order only who collects it, and puts the shop's address on it", () => {
    const contact = { name: "Pat Pickup", phone: "(817) 555-0100", email: "pat@example.test" };
    const pickup = checkoutDetailsSchema("pickup").safeParse(contact);
    expect(pickup.success && pickup.data).toEqual({ ...contact, ...PICKUP_ADDRESS });
    expect(checkoutDetailsSchema("standard").safeParse(contact).success).toBe(false);
    const missing = checkoutDetailsSchema("pickup").safeParse({ ...contact, phone: "" });
    expect(missing.success).toBe(false);
  });

  it("sends a pickup order to the shop, whatever address the form carried", () => {
    const parsed = placeOrderInputSchema.parse({
      ...valid,
      shippingMethod: "pickup",
      shipping: { ...TEST_ADDRESS, state: "DE", postalCode: "19901", city: "Dover" },
    });
    expect(parsed.shipping).toMatchObject(PICKUP_ADDRESS);
    expect(parsed.shipping.name).toBe(TEST_ADDRESS.name);
  });

  it("has no price field: anything price-like from the browser is dropped", () => {
    const parsed = placeOrderInputSchema.parse({
      ...valid,
      totalCents: 1,
      lines: [{ productType: "regular", serialNo: 7, quantity: 2, priceCents: 1 }],
    });
    expect(parsed).not.toHaveProperty("totalCents");
    expect(parsed.lines[0]).toEqual({ productType: "regular", serialNo: 7, quantity: 2 });
  });

  it("normalises the state to its postal code and refuses what is not one", () => {
    const parsed = placeOrderInputSchema.parse({
      ...valid,
      shipping: { ...TEST_ADDRESS, state: " tx " },
    });
    expect(parsed.shipping.state).toBe("TX");
    const texas = placeOrderInputSchema.safeParse({
      ...valid,
      shipping: { ...TEST_ADDRESS, state: "Texas" },
    });
    expect(texas.success).toBe(false);
  });

  it.each([
    ["no lines", { lines: [] }],
    [
      "51 lines",
      {
        lines: Array.from({ length: 51 }, (_, i) => ({
          productType: "regular",
          serialNo: i + 1,
          quantity: 1,
        })),
      },
    ],
    ["quantity 0", { lines: [{ productType: "regular", serialNo: 7, quantity: 0 }] }],
    ["quantity 100", { lines: [{ productType: "regular", serialNo: 7, quantity: 100 }] }],
    ["fractional quantity", { lines: [{ productType: "regular", serialNo: 7, quantity: 1.5 }] }],
    ["unknown kind", { lines: [{ productType: "memorabilia", serialNo: 7, quantity: 1 }] }],
    ["unknown method", { shippingMethod: "drone" }],
    ["short key", { checkoutKey: "abc" }],
    ["empty name", { shipping: { ...TEST_ADDRESS, name: "  " } }],
    ["bad ZIP", { shipping: { ...TEST_ADDRESS, postalCode: "7870" } }],
    ["bad e-mail", { shipping: { ...TEST_ADDRESS, email: "ada@" } }],
  ])("refuses %s", (_, change) => {
    expect(placeOrderInputSchema.safeParse({ ...valid, ...change }).success).toBe(false);
  });

  it("merges lines of the same product and orders them regular first, then by serial", () => {
    expect(
      mergeOrderLines([
        { productType: "adult", serialNo: 3, quantity: 1 },
        { productType: "regular", serialNo: 9, quantity: 2 },
        { productType: "regular", serialNo: 4, quantity: 1 },
        { productType: "regular", serialNo: 9, quantity: 3 },
        { productType: "adult", serialNo: 9, quantity: 1 },
      ]),
    ).toEqual([
      { productType: "regular", serialNo: 4, quantity: 1 },
      { productType: "regular", serialNo: 9, quantity: 5 },
      { productType: "adult", serialNo: 3, quantity: 1 },
      { productType: "adult", serialNo: 9, quantity: 1 },
    ]);
  });
});

describe("adult buyers", () => {
  it("counts whole years on the shop's calendar", () => {
    expect(ageOn("2008-06-15", "2026-06-14")).toBe(17);
    expect(ageOn("2008-06-15", "2026-06-15")).toBe(18);
    expect(ageOn("2008-02-29", "2026-02-28")).toBe(17);
    expect(ageOn("2008-02-29", "2026-03-01")).toBe(18);
  });

  it("needs a date of birth at least 18 years back", () => {
    const at = new Date("2026-06-15T18:00:00Z");
    const zone = "America/Chicago";
    expect(checkAdultBuyer("2008-06-15", at, zone)).toEqual({ ok: true });
    expect(checkAdultBuyer("2008-06-16", at, zone)).toEqual({ ok: false, reason: "under-age" });
    expect(checkAdultBuyer(null, at, zone)).toEqual({
      ok: false,
      reason: "date-of-birth-required",
    });
    expect(checkAdultBuyer("", at, zone)).toEqual({
      ok: false,
      reason: "date-of-birth-required",
    });
  });

  it("turns a day older at midnight in the shop's time zone, not the server's", () => {
    // 03:00 UTC on 15 June is still 14 June in Texas, and already the 15th in Berlin.
    const at = new Date("2026-06-15T03:00:00Z");
    expect(checkAdultBuyer("2008-06-15", at, "America/Chicago")).toEqual({
      ok: false,
      reason: "under-age",
    });
    expect(checkAdultBuyer("2008-06-15", at, "Europe/Berlin")).toEqual({ ok: true });
  });
});
