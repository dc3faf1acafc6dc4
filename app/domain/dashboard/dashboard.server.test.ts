import { inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adultTitles,
  contacts,
  counterSales,
  customers,
  orders,
  regularTitles,
  serviceRequests,
  tillSessions,
  users,
} from "#app/db/schema.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { addDays } from "#app/lib/shop-time.ts";
import { dashboardFigures, revenueChange, SALES_DAYS } from "./dashboard.server.ts";

// The dashboard sums the whole shop: this file has a database of its own, with known rows.
const scratch = scratchDatabase();
let db: ReturnType<typeof scratch.db>;

const CHICAGO = "America/Chicago";
// Monday 2 March 2026, 09:00 in Chicago (UTC-6; summer time starts on 8 March).
const NOW = new Date("2026-03-02T15:00:00Z");

async function addOrder(status: OrderStatus, totalCents: number, paidAt: string | null) {
  await db.insert(orders).values({
    userId: "buyer",
    status,
    shippingName: "Ada Lovelace",
    shippingAddress: "12 Analytical Way",
    shippingCity: "Austin",
    shippingState: "TX",
    shippingPostalCode: "78701",
    shippingPhone: "5125550100",
    shippingEmail: "ada@example.test",
    shippingMethod: "standard",
    subtotalCents: totalCents,
    shippingCents: 0,
    totalCents,
    paidAt: paidAt ? new Date(paidAt) : null,
    createdAt: new Date(paidAt ?? "2026-03-02T12:00:00Z"),
  });
}

async function addBooking(name: string, startsAt: string, options: { cancelled?: boolean } = {}) {
  const [row] = await db
    .insert(serviceRequests)
    .values({
      name,
      email: `${name.toLowerCase()}@example.test`,
      phone: "5125550100",
      serviceType: "TV & Home Electronics",
      issue: "No picture.",
      preferredDate: startsAt.slice(0, 10),
      preferredTime: "10:00",
      startsAt: new Date(startsAt),
      confirmedAt: new Date("2026-03-01T12:00:00Z"),
      cancelledAt: options.cancelled ? new Date("2026-03-01T12:00:00Z") : null,
      cancelledBy: options.cancelled ? "customer" : null,
    })
    .returning({ id: serviceRequests.id });
  return row!.id;
}

const bookings: Record<string, number> = {};
const serials: Record<string, number> = {};

beforeAll(async () => {
  db = scratch.db();
  await db.insert(users).values({ id: "buyer", name: "Ada", email: "ada@example.test" });
  await db.insert(customers).values({ id: "buyer", email: "ada@example.test" });

  // 03:00 UTC on 2 March is 21:00 on 1 March in Chicago.
  await addOrder("paid", 1500, "2026-03-02T03:00:00Z");
  // 05:30 UTC on 1 March is still February in Chicago: last month's.
  await addOrder("shipped", 2000, "2026-03-01T05:30:00Z");
  // 00:30 on 1 March in Chicago: this month's first sale.
  await addOrder("completed", 3000, "2026-03-01T06:30:00Z");
  // Today, 08:00 in Chicago.
  await addOrder("paid", 1000, "2026-03-02T14:00:00Z");
  // Midnight opening 1 February in Chicago: the chart's first day.
  await addOrder("shipped", 500, "2026-02-01T06:00:00Z");
  // A second before that: 31 January in Chicago, neither on the chart nor last month.
  await addOrder("completed", 700, "2026-02-01T05:59:59Z");
  // Long ago, and still waiting to ship.
  await addOrder("paid", 4200, "2026-01-10T18:00:00Z");
  // Money the shop does not keep, or never had.
  await addOrder("refunded", 9999, "2026-03-02T10:00:00Z");
  await addOrder("cancelled", 8888, "2026-03-01T18:00:00Z");
  await addOrder("expired", 7777, "2026-02-20T18:00:00Z");
  await addOrder("pending", 6666, null);

  bookings.early = await addBooking("Early", "2026-03-02T14:00:00Z"); // today 08:00
  bookings.late = await addBooking("Late", "2026-03-03T05:30:00Z"); // today 23:30
  bookings.morning = await addBooking("Morning", "2026-03-03T15:00:00Z"); // tomorrow 09:00
  bookings.lastMinute = await addBooking("Lastminute", "2026-03-04T05:59:00Z"); // tomorrow 23:59
  await addBooking("Cancelled", "2026-03-03T17:00:00Z", { cancelled: true });
  await addBooking("Yesterday", "2026-03-02T05:59:00Z"); // 1 March 23:59
  await addBooking("Later", "2026-03-04T06:00:00Z"); // 4 March, midnight

  await db.insert(contacts).values([
    { name: "A", email: "a@example.test", message: "Hello" },
    { name: "B", email: "b@example.test", message: "Hello" },
    { name: "C", email: "c@example.test", message: "Hello", readAt: NOW },
  ]);
  // Two of the seven repair requests have been opened.
  await db
    .update(serviceRequests)
    .set({ readAt: NOW })
    .where(inIds([bookings.early!, bookings.morning!]));

  const regular = (title: string, qtyToList: number) => ({
    productId: `LOW-${title}`,
    title,
    disc: "DVD" as const,
    qtyToList,
    currentPriceCents: 999,
  });
  const inserted = await db
    .insert(regularTitles)
    .values([
      regular("Zeta", 0),
      regular("Beta", 2),
      regular("Mid", 1),
      regular("Alpha", 2),
      regular("Plenty", 3),
      ...Array.from({ length: 9 }, (_, i) => regular(`Filler ${i + 1}`, 4)),
    ])
    .returning({ serialNo: regularTitles.regSerialNo, title: regularTitles.title });
  const adult = await db
    .insert(adultTitles)
    .values([
      { productId: 1, title: "Night", quantity: 1, priceCents: 1999 },
      { productId: 2, title: "Dawn", quantity: 0, priceCents: 1999 },
      { productId: 3, title: "Crowd", quantity: 5, priceCents: 1999 },
    ])
    .returning({ serialNo: adultTitles.adultSerialNo, title: adultTitles.title });
  for (const row of [...inserted, ...adult]) serials[row.title] = row.serialNo;
});

function inIds(ids: number[]) {
  return inArray(serviceRequests.id, ids);
}

describe("the dashboard's figures", () => {
  it("sums sales per shop-local day over the last 30 days, with empty days as 0", async () => {
    const figures = await dashboardFigures(db, {
      now: NOW,
      timeZone: CHICAGO,
      lowStockThreshold: 2,
    });
    expect(figures.today).toBe("2026-03-02");
    expect(figures.tomorrow).toBe("2026-03-03");
    expect(figures.salesByDay).toHaveLength(SALES_DAYS);
    expect(figures.salesByDay[0]!.day).toBe("2026-02-01");
    expect(figures.salesByDay.at(-1)!.day).toBe("2026-03-02");
    const withSales = figures.salesByDay.filter((day) => day.orders > 0);
    expect(withSales).toEqual([
      { day: "2026-02-01", orders: 1, revenueCents: 500 },
      { day: "2026-02-28", orders: 1, revenueCents: 2000 },
      { day: "2026-03-01", orders: 2, revenueCents: 4500 },
      { day: "2026-03-02", orders: 1, revenueCents: 1000 },
    ]);
    expect(figures.salesByDay[10]).toEqual({ day: "2026-02-11", orders: 0, revenueCents: 0 });
  });

  it("compares this calendar month with the last, in the shop's time zone", async () => {
    const figures = await dashboardFigures(db, {
      now: NOW,
      timeZone: CHICAGO,
      lowStockThreshold: 2,
    });
    expect(figures.thisMonth).toEqual({ month: "2026-03", orders: 3, revenueCents: 5500 });
    expect(figures.lastMonth).toEqual({ month: "2026-02", orders: 2, revenueCents: 2500 });
    expect(figures.revenueChangePercent).toBe(120);
  });

  it("moves sales across days and months when the shop's time zone is another", async () => {
    const figures = await dashboardFigures(db, {
      now: NOW,
      timeZone: "UTC",
      lowStockThreshold: 2,
    });
    expect(figures.salesByDay.filter((day) => day.orders > 0)).toEqual([
      { day: "2026-02-01", orders: 2, revenueCents: 1200 },
      { day: "2026-03-01", orders: 2, revenueCents: 5000 },
      { day: "2026-03-02", orders: 2, revenueCents: 2500 },
    ]);
    expect(figures.thisMonth).toEqual({ month: "2026-03", orders: 4, revenueCents: 7500 });
    expect(figures.lastMonth).toEqual({ month: "2026-02", orders: 2, revenueCents: 1200 });
    expect(figures.revenueChangePercent).toBe(525);
  });

  it("has no change in percent when last month sold nothing", async () => {
    // April: March had sales, so there is a change; May: April had none.
    const april = await dashboardFigures(db, {
      now: new Date("2026-04-15T17:00:00Z"),
      timeZone: CHICAGO,
      lowStockThreshold: 2,
    });
    expect(april.thisMonth).toEqual({ month: "2026-04", orders: 0, revenueCents: 0 });
    expect(april.lastMonth).toEqual({ month: "2026-03", orders: 3, revenueCents: 5500 });
    expect(april.revenueChangePercent).toBe(-100);
    const may = await dashboardFigures(db, {
      now: new Date("2026-05-15T17:00:00Z"),
      timeZone: CHICAGO,
      lowStockThreshold: 2,
    });
    expect(may.revenueChangePercent).toBeNull();
    expect(may.salesByDay.every((day) => day.orders === 0 && day.revenueCents === 0)).toBe(true);
  });

  it("counts paid orders waiting to ship, whenever they were paid", async () => {
    const figures = await dashboardFigures(db, {
      now: NOW,
      timeZone: CHICAGO,
      lowStockThreshold: 2,
    });
    expect(figures.ordersToShip).toBe(3);
  });

  it("shows today's takings at the counter and on the web side by side", async () => {
    const [till] = await db
      .insert(tillSessions)
      .values({ openedByName: "Casey Counter", floatCents: 0 })
      .returning({ id: tillSessions.id });
    const sale = (
      status: "paid" | "voided" | "open",
      totalCents: number,
      paidAt: string | null,
    ) => ({
      tillSessionId: till!.id,
      clerkName: "Casey Counter",
      status,
      totalCents,
      paidAt: paidAt ? new Date(paidAt) : null,
    });
    await db.insert(counterSales).values([
      // Today in Chicago (2 March from 06:00 UTC), yesterday, voided, and still open.
      sale("paid", 1083, "2026-03-02T14:00:00Z"),
      sale("paid", 2166, "2026-03-02T06:30:00Z"),
      sale("paid", 999, "2026-03-02T05:30:00Z"),
      sale("voided", 5000, null),
      sale("open", 0, null),
    ]);
    const figures = await dashboardFigures(db, {
      now: NOW,
      timeZone: CHICAGO,
      lowStockThreshold: 2,
    });
    const web = figures.salesByDay.at(-1)!;
    expect(figures.todaySales).toEqual({
      counter: { sales: 2, totalCents: 3249 },
      web: { orders: web.orders, totalCents: web.revenueCents },
    });
  });

  it("lists today's and tomorrow's repair appointments that still stand, in order", async () => {
    const figures = await dashboardFigures(db, {
      now: NOW,
      timeZone: CHICAGO,
      lowStockThreshold: 2,
    });
    expect(figures.appointments).toEqual([
      {
        id: bookings.early,
        day: "2026-03-02",
        startsAt: "2026-03-02T14:00:00.000Z",
        serviceType: "TV & Home Electronics",
        name: "Early",
      },
      {
        id: bookings.late,
        day: "2026-03-02",
        startsAt: "2026-03-03T05:30:00.000Z",
        serviceType: "TV & Home Electronics",
        name: "Late",
      },
      {
        id: bookings.morning,
        day: "2026-03-03",
        startsAt: "2026-03-03T15:00:00.000Z",
        serviceType: "TV & Home Electronics",
        name: "Morning",
      },
      {
        id: bookings.lastMinute,
        day: "2026-03-03",
        startsAt: "2026-03-04T05:59:00.000Z",
        serviceType: "TV & Home Electronics",
        name: "Lastminute",
      },
    ]);
  });

  it("counts unread contact messages and repair requests", async () => {
    const figures = await dashboardFigures(db, {
      now: NOW,
      timeZone: CHICAGO,
      lowStockThreshold: 2,
    });
    expect(figures.unread).toEqual({ contacts: 2, repairs: 5 });
  });

  it("lists titles low on stock, fewest first then by title, at most ten of each", async () => {
    const low = (await dashboardFigures(db, { now: NOW, timeZone: CHICAGO, lowStockThreshold: 2 }))
      .lowStock;
    const entry = (title: string, quantity: number) => ({
      serialNo: serials[title],
      title,
      quantity,
    });
    expect(low).toEqual({
      regular: [entry("Zeta", 0), entry("Mid", 1), entry("Alpha", 2), entry("Beta", 2)],
      adult: [entry("Dawn", 0), entry("Night", 1)],
      moreRegular: false,
      moreAdult: false,
    });

    const wider = (
      await dashboardFigures(db, { now: NOW, timeZone: CHICAGO, lowStockThreshold: 4 })
    ).lowStock;
    expect(wider.regular.map((row) => row.title)).toEqual([
      "Zeta",
      "Mid",
      "Alpha",
      "Beta",
      "Plenty",
      "Filler 1",
      "Filler 2",
      "Filler 3",
      "Filler 4",
      "Filler 5",
    ]);
    expect(wider.moreRegular).toBe(true);
    expect(wider.moreAdult).toBe(false);
  });
});

describe("calendar arithmetic", () => {
  it("moves dates across months and leap days", () => {
    expect(addDays("2026-03-02", -29)).toBe("2026-02-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });

  it("gives the change in percent to one decimal, and none from nothing", () => {
    expect(revenueChange(5500, 2500)).toBe(120);
    expect(revenueChange(1000, 3000)).toBe(-66.7);
    expect(revenueChange(0, 0)).toBeNull();
    expect(revenueChange(500, 0)).toBeNull();
  });
});
