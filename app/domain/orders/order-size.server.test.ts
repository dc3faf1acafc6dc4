import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders } from "#app/db/schema.ts";
import {
  createCustomer,
  createRegularTitle,
  orderInput,
  regularStock,
  TEXAS_PRICING,
} from "#tests/support/order-fixtures.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { quoteCheckout } from "./checkout.server.ts";
import { placeOrder } from "./place-order.server.ts";
import { MAX_ORDER_TOTAL_CENTS } from "./pricing.ts";

const db = testDatabase();

describe("an order's size", () => {
  it("is refused past $999,999.99 in all, with a message, before anything is reserved", async () => {
    // $99,999.99 a copy, the dearest a title can be: eleven come to $1,099,999.89 before tax,
    // past what the order's columns and the card provider take.
    const customer = await createCustomer(db);
    const dear = await createRegularTitle(db, { qty: 20, priceCents: 9_999_999 });
    const lines = [{ productType: "regular" as const, serialNo: dear.serialNo, quantity: 11 }];

    const quoted = await quoteCheckout(
      db,
      { lines, shippingMethod: "standard", state: "TX" },
      TEXAS_PRICING,
    );
    expect(quoted).toEqual({
      ok: false,
      message:
        "An order can come to at most $999,999.99. Please order fewer copies, or contact the shop.",
    });
    const placed = await placeOrder(db, orderInput(customer, lines), TEXAS_PRICING);
    expect(placed).toMatchObject({ ok: false, reason: "order-too-large" });
    expect(await regularStock(db, dear.serialNo)).toBe(20);
    const [{ n }] = (await db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(eq(orders.userId, customer))) as [{ n: number }];
    expect(n).toBe(0);

    // Nine copies ($899,999.91 and Texas's 8.25 %) stay under it and are placed.
    const nine = [{ ...lines[0]!, quantity: 9 }];
    const placedNine = await placeOrder(db, orderInput(customer, nine), TEXAS_PRICING);
    expect(placedNine.ok && placedNine.order.totalCents).toBe(97_424_990);
    expect(97_424_990).toBeLessThanOrEqual(MAX_ORDER_TOTAL_CENTS);
  });
});
