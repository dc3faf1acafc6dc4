import { count, desc, eq, ilike, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import {
  customerSearchText,
  customers,
  orderItems,
  orders,
  serviceRequests,
} from "#app/db/schema.ts";
import type { ServiceType } from "#app/lib/catalog.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import { COUNT_CAP, countUpTo, pageWindow } from "#app/domain/admin/lists.server.ts";
import { containsPattern } from "#app/domain/catalog/search-text.ts";

/** Spec §8 shows 'Error: {message}'; the message is ours, never the database's own text. */
export const CUSTOMER_LIST_FAILED = "The customer list could not be loaded. Please try again.";

export type AdminCustomer = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** YYYY-MM-DD, as entered at sign-up. */
  dateOfBirth: string | null;
  /** ISO instant the customer joined. */
  createdAt: string;
};

export type CustomerListPage =
  | {
      ok: true;
      rows: AdminCustomer[];
      total: number;
      capped: boolean;
      page: number;
      pageCount: number;
    }
  | { ok: false; message: string };

const customerColumns = {
  id: customers.id,
  email: customers.email,
  firstName: customers.firstName,
  lastName: customers.lastName,
  dateOfBirth: customers.dateOfBirth,
  createdAt: customers.createdAt,
};

function toAdminCustomer(row: {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  createdAt: Date;
}): AdminCustomer {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/**
 * The back office's customer list (spec §7: every column, newest first), searchable by e-mail
 * or name, 20 a page. A failure to load is answered with a message for the page to show.
 */
export async function listCustomersForAdmin(
  db: Database,
  params: { query: string; page: number },
): Promise<CustomerListPage> {
  try {
    const where = params.query
      ? ilike(customerSearchText(customers), containsPattern(params.query.toLowerCase()))
      : undefined;
    // Every customer is counted exactly (an index-only count); a search only up to COUNT_CAP.
    const { total, capped } = where
      ? await countUpTo(
          db,
          db
            .select({ one: sql`1` })
            .from(customers)
            .where(where)
            .limit(COUNT_CAP + 1)
            .as("matches"),
        )
      : {
          total: (await db.select({ total: count() }).from(customers))[0]?.total ?? 0,
          capped: false,
        };
    const { page, pageCount, offset, limit } = pageWindow(total, params.page);
    const rows = await db
      .select(customerColumns)
      .from(customers)
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(limit)
      .offset(offset);
    return { ok: true, rows: rows.map(toAdminCustomer), total, capped, page, pageCount };
  } catch (error) {
    console.error("The customer list could not be loaded", error);
    return { ok: false, message: CUSTOMER_LIST_FAILED };
  }
}

/** A customer page shows this many of their orders and repair appointments, newest first. */
export const CUSTOMER_HISTORY_LIMIT = 50;

export type CustomerOrderSummary = {
  id: number;
  createdAt: string;
  /** Copies over all lines. */
  itemCount: number;
  totalCents: number;
  status: OrderStatus;
};

export type CustomerAppointment = {
  id: number;
  serviceType: ServiceType;
  startsAt: string;
  status: "booked" | "cancelled";
};

export type CustomerDetail = {
  customer: AdminCustomer;
  orders: CustomerOrderSummary[];
  /** More orders than shown. */
  moreOrders: boolean;
  appointments: CustomerAppointment[];
  moreAppointments: boolean;
};

/** One customer with their orders and their repair appointments; null when there is none. */
export async function getCustomerForAdmin(
  db: Database,
  customerId: string,
): Promise<CustomerDetail | null> {
  if (customerId.length === 0 || customerId.length > 200) return null;
  const [row] = await db
    .select(customerColumns)
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);
  if (!row) return null;
  const [orderRows, appointmentRows] = await Promise.all([
    db
      .select({
        id: orders.id,
        createdAt: orders.createdAt,
        itemCount: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
        totalCents: orders.totalCents,
        status: orders.status,
      })
      .from(orders)
      .where(eq(orders.userId, row.id))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(CUSTOMER_HISTORY_LIMIT + 1),
    // Bookings are made without signing in: they belong to the customer by e-mail address,
    // once confirmed through it (anyone can type an address).
    db
      .select({
        id: serviceRequests.id,
        serviceType: serviceRequests.serviceType,
        startsAt: serviceRequests.startsAt,
        cancelledAt: serviceRequests.cancelledAt,
      })
      .from(serviceRequests)
      .where(
        sql`lower(${serviceRequests.email}) = lower(${row.email}) and ${serviceRequests.confirmedAt} is not null`,
      )
      .orderBy(desc(serviceRequests.startsAt), desc(serviceRequests.id))
      .limit(CUSTOMER_HISTORY_LIMIT + 1),
  ]);
  return {
    customer: toAdminCustomer(row),
    orders: orderRows.slice(0, CUSTOMER_HISTORY_LIMIT).map((order) => ({
      ...order,
      createdAt: order.createdAt.toISOString(),
    })),
    moreOrders: orderRows.length > CUSTOMER_HISTORY_LIMIT,
    appointments: appointmentRows.slice(0, CUSTOMER_HISTORY_LIMIT).map((booking) => ({
      id: booking.id,
      serviceType: booking.serviceType,
      startsAt: booking.startsAt.toISOString(),
      status: booking.cancelledAt ? "cancelled" : "booked",
    })),
    moreAppointments: appointmentRows.length > CUSTOMER_HISTORY_LIMIT,
  };
}
