import { queryByHand, type Database } from "#app/db/client.server.ts";
import type { OrderLine, ValidPlaceOrderInput } from "./checkout-input.ts";
import type { CustomerOrder } from "./customer-orders.server.ts";
import type { OrderPrice } from "./pricing.ts";

/** An earlier unpaid order of the account, released by a new checkout: its page must close. */
export type ReleasedCheckout = {
  orderId: number;
  provider: string | null;
  sessionId: string | null;
};

/**
 * Placing an order in one statement, and so one round trip and one commit (`place_order`,
 * migration 0027): the account's earlier unpaid orders released (one open checkout per
 * account), the order row, one item row per line (lines and their titles and prices in the fixed
 * order of `mergeOrderLines`) and the stock, the released copies back and the new ones taken:
 * the titles' rows locked in that order, then one update per catalogue (migration 0033). Nothing
 * is taken when the checkout key already placed an order (a null id); a short line raises RR001
 * as `take_stock` does, which undoes the whole statement.
 */
const PLACE_ORDER_SQL = `
  select placed_id, released
    from place_order($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                     $17::text[], $18::integer[], $19::integer[], $20::text[], $21::integer[],
                     $22::date)`;

export type PricedLine = OrderLine & { title: string; unitPriceCents: number };

export type PlacedRow = { placed_id: string | null; released: ReleasedCheckout[] };

/** The statement placing this order (PLACE_ORDER_SQL), its parameters in their order. */
export function placeOrderStatement(
  input: ValidPlaceOrderInput,
  priced: readonly PricedLine[],
  price: OrderPrice,
  placing: { paymentExpiresAt: Date; now: Date; dateOfBirth: string | null },
) {
  return {
    name: "place-order",
    text: PLACE_ORDER_SQL,
    values: [
      input.customerId,
      input.checkoutKey,
      input.shipping.name,
      input.shipping.address,
      input.shipping.city,
      input.shipping.state,
      input.shipping.postalCode,
      input.shipping.phone,
      input.shipping.email,
      input.shippingMethod,
      price.subtotalCents,
      price.shippingCents,
      price.taxCents,
      price.totalCents,
      placing.paymentExpiresAt,
      placing.now,
      priced.map((line) => line.productType),
      priced.map((line) => line.serialNo),
      priced.map((line) => line.quantity),
      priced.map((line) => line.title),
      priced.map((line) => line.unitPriceCents),
      placing.dateOfBirth,
    ],
  };
}

/** The order just placed by PLACE_ORDER_SQL, as `loadOrders` would read it. */
export function placedOrder(
  id: number,
  input: ValidPlaceOrderInput,
  priced: PricedLine[],
  price: OrderPrice,
  paymentExpiresAt: Date,
  now: Date,
): CustomerOrder {
  return {
    id,
    status: "pending",
    createdAt: now.toISOString(),
    shipping: { ...input.shipping, method: input.shippingMethod },
    items: priced,
    subtotalCents: price.subtotalCents,
    shippingCents: price.shippingCents,
    taxCents: price.taxCents,
    totalCents: price.totalCents,
    paymentExpiresAt: paymentExpiresAt.toISOString(),
    paidAt: null,
    paymentProvider: null,
    paymentSessionId: null,
    shippedAt: null,
    carrier: null,
    trackingNumber: null,
    refundedAt: null,
    pickup:
      input.shippingMethod === "pickup" ? { code: null, readyAt: null, collectedAt: null } : null,
  };
}

export async function releaseOpenCheckouts(
  db: Database,
  customerId: string,
  checkoutKey: string,
): Promise<ReleasedCheckout[]> {
  const { rows } = await queryByHand<{
    order_id: string;
    provider: string | null;
    session_id: string | null;
  }>(db, {
    name: "release-open-checkouts",
    text: "select order_id, provider, session_id from release_open_checkouts($1, $2)",
    values: [customerId, checkoutKey],
  });
  return rows.map((row) => ({
    orderId: Number(row.order_id),
    provider: row.provider,
    sessionId: row.session_id,
  }));
}
