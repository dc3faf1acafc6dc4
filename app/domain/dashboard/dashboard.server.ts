import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, lte, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { adultTitles, contacts, orders, regularTitles, serviceRequests } from "#app/db/schema.ts";
import type { ServiceType } from "#app/lib/catalog.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import { addDays, shopCalendarDate } from "#app/lib/shop-time.ts";

/** Orders whose money the shop has and keeps; refunded, cancelled and expired ones do not count. */
export const COUNTED_STATUSES: OrderStatus[] = ["paid", "shipped", "completed"];

/** The sales chart covers this many shop-local days, today included. */
export const SALES_DAYS = 30;

/** Each low-stock list shows at most this many titles. */
export const LOW_STOCK_LIMIT = 10;

export type DailySales = { day: string; orders: number; revenueCents: number };
export type MonthSales = { month: string; orders: number; revenueCents: number };
export type DashboardAppointment = {
  id: number;
  /** The shop-local day it falls on (YYYY-MM-DD): today or tomorrow. */
  day: string;
  startsAt: string;
  serviceType: ServiceType;
  name: string;
};
export type LowStockTitle = { serialNo: number; title: string; quantity: number };

export type DashboardFigures = {
  today: string;
  tomorrow: string;
  /** One entry per day, oldest first, ending today; a day without sales is 0. */
  salesByDay: DailySales[];
  thisMonth: MonthSales;
  lastMonth: MonthSales;
  /** Change from last month to this one in percent (one decimal); null when last month had none. */
  revenueChangePercent: number | null;
  /** Paid orders not shipped yet. */
  ordersToShip: number;
  /** Today's takings at the counter and on the web, side by side (decision 023). */
  todaySales: {
    counter: { sales: number; totalCents: number };
    web: { orders: number; totalCents: number };
  };
  /** Repair appointments of today and tomorrow, not cancelled, in order. */
  appointments: DashboardAppointment[];
  unread: { contacts: number; repairs: number };
  lowStock: {
    regular: LowStockTitle[];
    adult: LowStockTitle[];
    /** More titles are low than the list shows. */
    moreRegular: boolean;
    moreAdult: boolean;
  };
};

/** The first day of the month before a month's first day. */
function previousMonth(monthStart: string): string {
  const date = new Date(`${monthStart}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - 1);
  return date.toISOString().slice(0, 10);
}

function nextMonth(monthStart: string): string {
  const date = new Date(`${monthStart}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString().slice(0, 10);
}

/** Change in percent, one decimal; there is none to speak of from nothing. */
export function revenueChange(thisCents: number, lastCents: number): number | null {
  if (lastCents === 0) return null;
  return Math.round(((thisCents - lastCents) / lastCents) * 1000) / 10;
}

/**
 * The instant a shop-local day begins. Days are turned into instants by PostgreSQL's time zone
 * rules, so a day across a daylight-saving change is 23 or 25 hours long, as it should be.
 */
function dayStart(day: string, timeZone: string) {
  return sql`(${day}::date::timestamp at time zone ${timeZone}::text)`;
}

const counted = inArray(orders.status, COUNTED_STATUSES);

async function salesByDay(db: Database, from: string, until: string, timeZone: string) {
  // `group by 1`: the time zone is a parameter, and two parameters are never "the same" column.
  const result = await db.execute<{ day: string; orders: number; revenue: string }>(sql`
    select to_char(${orders.paidAt} at time zone ${timeZone}::text, 'YYYY-MM-DD') as day,
           count(*)::int as orders,
           sum(${orders.totalCents})::bigint as revenue
      from ${orders}
     where ${counted}
       and ${orders.paidAt} >= ${dayStart(from, timeZone)}
       and ${orders.paidAt} < ${dayStart(until, timeZone)}
     group by 1`);
  return new Map(result.rows.map((row) => [row.day, row]));
}

/** Counter sales and web orders paid today (the shop's day), counted and summed. */
async function todaySales(db: Database, today: string, timeZone: string) {
  const result = await db.execute<{ sales: number; counter: string; orders: number; web: string }>(
    sql`
    select c.sales, c.counter, w.orders, w.web
      from (select count(*)::int as sales, coalesce(sum(total_cents), 0)::bigint as counter
              from counter_sales
             where status = 'paid' and paid_at >= ${dayStart(today, timeZone)}
               and paid_at < ${dayStart(addDays(today, 1), timeZone)}) as c,
           (select count(*)::int as orders, coalesce(sum(${orders.totalCents}), 0)::bigint as web
              from ${orders}
             where ${counted} and ${orders.paidAt} >= ${dayStart(today, timeZone)}
               and ${orders.paidAt} < ${dayStart(addDays(today, 1), timeZone)}) as w`,
  );
  const row = result.rows[0]!;
  return {
    counter: { sales: row.sales, totalCents: Number(row.counter) },
    web: { orders: row.orders, totalCents: Number(row.web) },
  };
}

async function monthSales(
  db: Database,
  lastStart: string,
  thisStart: string,
  nextStart: string,
  timeZone: string,
) {
  const result = await db.execute<{
    this_orders: number;
    this_revenue: string;
    last_orders: number;
    last_revenue: string;
  }>(sql`
    select count(*) filter (where ${orders.paidAt} >= ${dayStart(thisStart, timeZone)})::int as this_orders,
           coalesce(sum(${orders.totalCents}) filter (where ${orders.paidAt} >= ${dayStart(thisStart, timeZone)}), 0)::bigint as this_revenue,
           count(*) filter (where ${orders.paidAt} < ${dayStart(thisStart, timeZone)})::int as last_orders,
           coalesce(sum(${orders.totalCents}) filter (where ${orders.paidAt} < ${dayStart(thisStart, timeZone)}), 0)::bigint as last_revenue
      from ${orders}
     where ${counted}
       and ${orders.paidAt} >= ${dayStart(lastStart, timeZone)}
       and ${orders.paidAt} < ${dayStart(nextStart, timeZone)}`);
  const row = result.rows[0];
  return {
    thisMonth: { orders: row?.this_orders ?? 0, revenueCents: Number(row?.this_revenue ?? 0) },
    lastMonth: { orders: row?.last_orders ?? 0, revenueCents: Number(row?.last_revenue ?? 0) },
  };
}

async function unreadCounts(db: Database) {
  const result = await db.execute<{ contacts: number; repairs: number }>(sql`
    select (select count(*) from ${contacts} where ${contacts.readAt} is null)::int as contacts,
           (select count(*) from ${serviceRequests}
             where ${serviceRequests.readAt} is null
               and ${serviceRequests.confirmedAt} is not null)::int as repairs`);
  return result.rows[0] ?? { contacts: 0, repairs: 0 };
}

/**
 * Titles with `threshold` copies or fewer, fewest first. Stock changes with every order, so it
 * has no index: this reads the whole catalogue, which only the dashboard does.
 */
async function lowStock(db: Database, threshold: number) {
  const [regular, adult] = await Promise.all([
    db
      .select({
        serialNo: regularTitles.regSerialNo,
        title: regularTitles.title,
        quantity: regularTitles.qtyToList,
      })
      .from(regularTitles)
      .where(lte(regularTitles.qtyToList, threshold))
      .orderBy(
        asc(regularTitles.qtyToList),
        asc(regularTitles.title),
        asc(regularTitles.regSerialNo),
      )
      .limit(LOW_STOCK_LIMIT + 1),
    db
      .select({
        serialNo: adultTitles.adultSerialNo,
        title: adultTitles.title,
        quantity: adultTitles.quantity,
      })
      .from(adultTitles)
      .where(lte(adultTitles.quantity, threshold))
      .orderBy(asc(adultTitles.quantity), asc(adultTitles.title), asc(adultTitles.adultSerialNo))
      .limit(LOW_STOCK_LIMIT + 1),
  ]);
  return {
    regular: regular.slice(0, LOW_STOCK_LIMIT),
    adult: adult.slice(0, LOW_STOCK_LIMIT),
    moreRegular: regular.length > LOW_STOCK_LIMIT,
    moreAdult: adult.length > LOW_STOCK_LIMIT,
  };
}

/**
 * Everything the back office's landing page shows, as of `now`. Days and months are the shop's
 * (`timeZone`): an order paid at 03:00 UTC belongs to the day before in Chicago.
 */
export async function dashboardFigures(
  db: Database,
  options: { now: Date; timeZone: string; lowStockThreshold: number },
): Promise<DashboardFigures> {
  const { now, timeZone } = options;
  const today = shopCalendarDate(now, timeZone);
  const tomorrow = addDays(today, 1);
  const firstDay = addDays(today, 1 - SALES_DAYS);
  const thisStart = `${today.slice(0, 7)}-01`;
  const lastStart = previousMonth(thisStart);

  const [daily, months, [toShip], appointments, unread, low, takings] = await Promise.all([
    salesByDay(db, firstDay, tomorrow, timeZone),
    monthSales(db, lastStart, thisStart, nextMonth(thisStart), timeZone),
    db.select({ total: count() }).from(orders).where(eq(orders.status, "paid")),
    db
      .select({
        id: serviceRequests.id,
        day: sql<string>`to_char(${serviceRequests.startsAt} at time zone ${timeZone}::text, 'YYYY-MM-DD')`,
        startsAt: serviceRequests.startsAt,
        serviceType: serviceRequests.serviceType,
        name: serviceRequests.name,
      })
      .from(serviceRequests)
      .where(
        and(
          isNull(serviceRequests.cancelledAt),
          // Unconfirmed bookings never reach staff (they may be a stranger's).
          isNotNull(serviceRequests.confirmedAt),
          gte(serviceRequests.startsAt, dayStart(today, timeZone)),
          lt(serviceRequests.startsAt, dayStart(addDays(today, 2), timeZone)),
        ),
      )
      .orderBy(asc(serviceRequests.startsAt), asc(serviceRequests.id))
      .limit(200),
    unreadCounts(db),
    lowStock(db, options.lowStockThreshold),
    todaySales(db, today, timeZone),
  ]);

  const salesDays: DailySales[] = Array.from({ length: SALES_DAYS }, (_, i) => {
    const day = addDays(firstDay, i);
    const row = daily.get(day);
    return { day, orders: row?.orders ?? 0, revenueCents: Number(row?.revenue ?? 0) };
  });

  return {
    today,
    tomorrow,
    salesByDay: salesDays,
    thisMonth: { month: thisStart.slice(0, 7), ...months.thisMonth },
    lastMonth: { month: lastStart.slice(0, 7), ...months.lastMonth },
    revenueChangePercent: revenueChange(
      months.thisMonth.revenueCents,
      months.lastMonth.revenueCents,
    ),
    ordersToShip: toShip?.total ?? 0,
    todaySales: takings,
    appointments: appointments.map((row) => ({ ...row, startsAt: row.startsAt.toISOString() })),
    unread,
    lowStock: low,
  };
}
