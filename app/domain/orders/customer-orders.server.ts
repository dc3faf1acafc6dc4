import { desc, eq, inArray } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { orderItems, orders } from "#app/db/schema.ts";
import type { OrderStatus, ProductType } from "#app/lib/catalog.ts";

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
  totalCents: number;
};

/** A customer's own orders, newest first, with their lines (two queries, not one per order). */
export async function listCustomerOrders(db: Database, userId: string): Promise<CustomerOrder[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(100);
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
  return rows.map((row) => ({
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
      .filter((line) => line.orderId === row.id)
      .map((line) => ({
        productType: line.productType,
        serialNo: line.productSerialNo,
        title: line.title,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
      })),
    subtotalCents: row.subtotalCents,
    shippingCents: row.shippingCents,
    totalCents: row.totalCents,
  }));
}
