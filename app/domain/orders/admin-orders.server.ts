import { and, asc, count, desc, eq, ilike, lt, sql, type SQL } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { customers, orderEvents, orderItems, orders, orderSearchText } from "#app/db/schema.ts";
import { countUpTo, COUNT_CAP, pageWindow } from "#app/domain/admin/lists.server.ts";
import { containsPattern } from "#app/domain/catalog/search-text.ts";
import { ORDER_STATUSES, type OrderStatus } from "#app/domain/orders/status.ts";
import { csvRows } from "#app/lib/csv.server.ts";
import { compareLines } from "./checkout-input.ts";

export type AdminOrderFilter = {
  /** An order number ("1234" or "#1234"), or part of the customer's name or e-mail. */
  query: string;
  status: OrderStatus | null;
};

export function adminOrderFilter(params: URLSearchParams): AdminOrderFilter {
  const status = params.get("status");
  return {
    query: (params.get("q") ?? "").replace(/\s+/g, " ").trim().slice(0, 100),
    status: ORDER_STATUSES.includes(status as OrderStatus) ? (status as OrderStatus) : null,
  };
}

function orderNumberIn(query: string): number | null {
  const match = /^#?(\d{1,15})$/.exec(query);
  return match ? Number(match[1]) : null;
}

function filterCondition(filter: AdminOrderFilter): SQL | undefined {
  const number = filter.query ? orderNumberIn(filter.query) : null;
  const text = filter.query
    ? number !== null
      ? eq(orders.id, number)
      : ilike(orderSearchText(orders), containsPattern(filter.query.toLowerCase()))
    : undefined;
  return and(text, filter.status ? eq(orders.status, filter.status) : undefined);
}

const itemCount = sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`;

/**
 * The back office's order list, newest first, 20 a page. Without a text search the count is
 * exact (an index-only count, cheap at 100,000 orders); a name search is counted up to
 * COUNT_CAP, as the catalogue's are.
 */
export async function listOrdersForAdmin(
  db: Database,
  filter: AdminOrderFilter,
  requestedPage: number,
) {
  const where = filterCondition(filter);
  const { total, capped } =
    filter.query && orderNumberIn(filter.query) === null
      ? await countUpTo(
          db,
          db
            .select({ one: sql`1` })
            .from(orders)
            .where(where)
            .limit(COUNT_CAP + 1)
            .as("matches"),
        )
      : {
          total: (await db.select({ total: count() }).from(orders).where(where))[0]?.total ?? 0,
          capped: false,
        };
  const { page, pageCount, offset, limit } = pageWindow(total, requestedPage);
  // The page's order numbers first (an index walk, nothing computed for the rows skipped), then
  // their details and item counts for those 20 only.
  const pageIds = db
    .select({ id: orders.id })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit)
    .offset(offset)
    .as("page_ids");
  const rows = await db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      name: orders.shippingName,
      email: orders.shippingEmail,
      itemCount,
      totalCents: orders.totalCents,
      status: orders.status,
      refundDue: sql<boolean>`((${orders.paidAt} is not null and ${orders.refundedAt} is null and ${orders.status} in ('cancelled', 'expired')) or exists (select 1 from extra_payments as x where x.order_id = ${orders.id} and x.refunded_at is null))`,
    })
    .from(orders)
    .innerJoin(pageIds, eq(pageIds.id, orders.id))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return { rows, total, capped, page, pageCount };
}

/** Everything the order page shows: the order, its lines, its customer and its history. */
export async function getOrderForAdmin(db: Database, orderId: number) {
  if (!Number.isSafeInteger(orderId) || orderId < 1) return null;
  const [order] = await db
    .select({
      order: orders,
      customer: {
        id: customers.id,
        email: customers.email,
        firstName: customers.firstName,
        lastName: customers.lastName,
      },
    })
    .from(orders)
    .innerJoin(customers, eq(customers.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!order) return null;
  const [lines, history] = await Promise.all([
    db
      .select({
        productType: orderItems.productType,
        serialNo: orderItems.productSerialNo,
        title: orderItems.title,
        quantity: orderItems.quantity,
        unitPriceCents: orderItems.unitPriceCents,
      })
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId)),
    db
      .select({
        id: orderEvents.id,
        fromStatus: orderEvents.fromStatus,
        toStatus: orderEvents.toStatus,
        actorName: orderEvents.actorName,
        note: orderEvents.note,
        returnNumber: orderEvents.returnNumber,
        createdAt: orderEvents.createdAt,
      })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, orderId))
      .orderBy(asc(orderEvents.id)),
  ]);
  return { ...order, lines: lines.sort(compareLines), history };
}

export const ORDER_CSV_COLUMNS = [
  "Order",
  "Placed",
  "Status",
  "Customer",
  "Email",
  "Items",
  "Subtotal",
  "Shipping",
  "Sales tax",
  "Total",
  "Shipping method",
  "Address",
  "City",
  "State",
  "ZIP",
  "Phone",
  "Paid",
  "Shipped",
  "Carrier",
  "Tracking number",
  "Payment reference",
  "Refunded",
  "Refunded amount",
  "Refunded toward postage",
  "Kept",
];

const dollars = (cents: number) => (cents / 100).toFixed(2);
const instant = (date: Date | null) => date?.toISOString() ?? "";

/** What an order's returns and refunds came to, for its last three columns. */
export type OrderMoneyBack = { refundedCents: number; postageCents: number; leftCents: number };

/**
 * The filtered orders as CSV, newest (highest number) first, fetched 1,000 at a time by keyset on
 * the order number, so an export of 100,000 orders holds one batch in memory and never slows
 * down with depth. `moneyBack` works out each batch's refunds (the returns' ledgers): returns
 * build on orders, so the caller brings them together.
 */
export async function* exportOrdersCsv(
  db: Database,
  filter: AdminOrderFilter,
  options: {
    moneyBack: (
      db: Database,
      batch: (typeof orders.$inferSelect)[],
    ) => Promise<ReadonlyMap<number, OrderMoneyBack>>;
    batchSize?: number;
  },
): AsyncGenerator<string> {
  const batchSize = options.batchSize ?? 1000;
  yield csvRows([ORDER_CSV_COLUMNS], { bom: true });
  let before: number | null = null;
  for (;;) {
    const rows = await db
      .select({ order: orders, itemCount })
      .from(orders)
      .where(and(filterCondition(filter), before === null ? undefined : lt(orders.id, before)))
      .orderBy(desc(orders.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    const ledgers = await options.moneyBack(
      db,
      rows.map(({ order }) => order),
    );
    yield csvRows(
      rows.map(({ order, itemCount: items }) => [
        order.id,
        instant(order.createdAt),
        order.status,
        order.shippingName,
        order.shippingEmail,
        items,
        dollars(order.subtotalCents),
        dollars(order.shippingCents),
        dollars(order.taxCents),
        dollars(order.totalCents),
        order.shippingMethod,
        order.shippingAddress,
        order.shippingCity,
        order.shippingState,
        order.shippingPostalCode,
        order.shippingPhone,
        instant(order.paidAt),
        instant(order.shippedAt),
        order.carrier ?? "",
        order.trackingNumber ?? "",
        order.paymentReference ?? "",
        instant(order.refundedAt),
        // The order's ledger: the whole order refunded (cancelled after payment), or what its
        // returns gave back, of it toward their postage, and what the shop kept.
        dollars(ledgers.get(order.id)!.refundedCents),
        dollars(ledgers.get(order.id)!.postageCents),
        dollars(ledgers.get(order.id)!.leftCents),
      ]),
    );
    if (rows.length < batchSize) return;
    before = rows[rows.length - 1]!.order.id;
  }
}
