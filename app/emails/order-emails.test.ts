import { describe, expect, it } from "vitest";
import { TEST_ADDRESS } from "#tests/support/order-fixtures.ts";
import { orderConfirmationMessage, type OrderConfirmation } from "./order-emails.ts";

const order: OrderConfirmation = {
  orderNumber: 42,
  name: TEST_ADDRESS.name,
  // 03:00 UTC on 15 June: the evening of the 14th in Texas, the morning of the 15th in Berlin.
  placedAt: new Date("2026-06-15T03:00:00Z"),
  timeZone: "America/Chicago",
  lines: [{ title: "Alien", quantity: 1, unitPriceCents: 1999 }],
  shippingMethodName: "Standard",
  subtotalCents: 1999,
  shippingCents: 0,
  taxCents: 165,
  totalCents: 2164,
  address: TEST_ADDRESS,
  ordersUrl: "http://shop.test/orders",
};

describe("the order confirmation", () => {
  it("dates the order on the shop's calendar", () => {
    expect(orderConfirmationMessage(order).text).toContain("placed on June 14, 2026");
    expect(orderConfirmationMessage({ ...order, timeZone: "Europe/Berlin" }).text).toContain(
      "placed on June 15, 2026",
    );
  });
});
