import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { orderItems, orders } from "#app/db/schema.ts";
import type { ProductType } from "#app/lib/catalog.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import { compareLines } from "./checkout-input.ts";

export type CustomerOrder = {
  id: number;
  status: OrderStatus;
  createdAt: string;
  shipping: {
    name: string;
    address: string;
    city: string;
    state: string;
    postalCode: string;
    phone: string;
    email: string;
    method: string;
  };
  items: {
    productType: ProductType;
    serialNo: number;
    title: string;
    quantity: number;
    unitPriceCents: number;
  }[];
  subtotalCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  /** Until when an unpaid order holds its stock. */
  paymentExpiresAt: string | null;
  paidAt: string | null;
  paymentProvider: string | null;
  paymentSessionId: string | null;
  shippedAt: string | null;
  carrier: string | null;
  trackingNumber: string | null;
  refundedAt: string | null;
  /** Picked up at the store: its code once it is ready, and when it was collected. */
  pickup: { code: string | null; readyAt: string | null; collectedAt: string | null } | null;
};

/** Orders matching a condition, newest first, with their lines (two queries, not one per order). */
export async function loadOrders(
  db: Database | Transaction,
  where: SQL | undefined,
  limit: number,
): Promise<CustomerOrder[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const lines = await db
    .select()
    .from(orderItems)
    .where(
      inArray(
        orderItems.orderId,
        rows.map((row) => row.id),
      ),
    );
  return rows.map((row) =>
    toCustomerOrder(
      row,
      lines.filter((line) => line.orderId === row.id),
    ),
  );
}

/** An order row and its item rows as the shop shows them. */
export function toCustomerOrder(
  row: typeof orders.$inferSelect,
  lines: (typeof orderItems.$inferSelect)[],
): CustomerOrder {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    shipping: {
      name: row.shippingName,
      address: row.shippingAddress,
      city: row.shippingCity,
      state: row.shippingState,
      postalCode: row.shippingPostalCode,
      phone: row.shippingPhone,
      email: row.shippingEmail,
      method: row.shippingMethod,
    },
    items: lines
      .map((line) => ({
        productType: line.productType,
        serialNo: line.productSerialNo,
        title: line.title,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
      }))
      .sort(compareLines),
    subtotalCents: row.subtotalCents,
    shippingCents: row.shippingCents,
    taxCents: row.taxCents,
    totalCents: row.totalCents,
    paymentExpiresAt: row.paymentExpiresAt?.toISOString() ?? null,
    paidAt: row.paidAt?.toISOString() ?? null,
    paymentProvider: row.paymentProvider,
    paymentSessionId: row.paymentSessionId,
    shippedAt: row.shippedAt?.toISOString() ?? null,
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    refundedAt: row.refundedAt?.toISOString() ?? null,
    pickup:
      row.fulfilment === "pickup"
        ? {
            code: row.pickupCode,
            readyAt: row.readyForPickupAt?.toISOString() ?? null,
            collectedAt: row.collectedAt?.toISOString() ?? null,
          }
        : null,
  };
}

/** A customer's own orders, newest first, with their lines. */
export async function listCustomerOrders(db: Database, userId: string): Promise<CustomerOrder[]> {
  return loadOrders(db, eq(orders.userId, userId), 100);
}

/** One of the customer's orders; null when there is no such order or it is someone else's. */
export async function getCustomerOrder(
  db: Database,
  userId: string,
  orderId: number,
): Promise<CustomerOrder | null> {
  if (!Number.isSafeInteger(orderId) || orderId < 1) return null;
  const [order] = await loadOrders(db, and(eq(orders.id, orderId), eq(orders.userId, userId)), 1);
  return order ?? null;
}

/** The shipping details of the customer's last order, to fill the checkout form with. */
export async function lastShippingDetails(db: Database, userId: string) {
  const [row] = await db
    .select({
      name: orders.shippingName,
      address: orders.shippingAddress,
      city: orders.shippingCity,
      state: orders.shippingState,
      postalCode: orders.shippingPostalCode,
      phone: orders.shippingPhone,
      email: orders.shippingEmail,
      fulfilment: orders.fulfilment,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (!row) return null;
  const { fulfilment, ...details } = row;
  // A pickup order's address is the shop's, not the customer's: the next parcel needs theirs.
  return fulfilment === "pickup"
    ? { ...details, address: "", city: "", state: "", postalCode: "" }
    : details;
}

/** The customer's order paid through a given payment session; null if not theirs. */
export async function getCustomerOrderBySession(
  db: Database,
  userId: string,
  paymentSessionId: string,
): Promise<CustomerOrder | null> {
  const [order] = await loadOrders(
    db,
    and(eq(orders.paymentSessionId, paymentSessionId), eq(orders.userId, userId)),
    1,
  );
  return order ?? null;
}
