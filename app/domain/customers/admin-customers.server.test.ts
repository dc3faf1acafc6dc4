import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inject } from "vitest";
import { createDatabase } from "#app/db/client.server.ts";
import {
  customers,
  orderItems,
  orders,
  regularTitles,
  serviceRequests,
  users,
} from "#app/db/schema.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import {
  CUSTOMER_LIST_FAILED,
  getCustomerForAdmin,
  listCustomersForAdmin,
} from "./admin-customers.server.ts";

// The list counts every customer: this file has a database of its own.
const scratch = scratchDatabase();
let db: ReturnType<typeof scratch.db>;

const JOINED = Date.UTC(2026, 0, 1, 12);
const DAY = 86_400_000;

async function addCustomer(
  id: string,
  email: string,
  names: { first?: string | null; last?: string | null; joined: number; born?: string | null },
) {
  await db.insert(users).values({ id, name: email, email, emailVerified: true });
  await db.insert(customers).values({
    id,
    email,
    firstName: names.first ?? null,
    lastName: names.last ?? null,
    dateOfBirth: names.born ?? null,
    createdAt: new Date(names.joined),
  });
}

async function addOrder(
  userId: string,
  createdAt: string,
  status: OrderStatus,
  lines: { serialNo: number; quantity: number; unitPriceCents: number }[],
) {
  const subtotal = lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
  const [order] = await db
    .insert(orders)
    .values({
      userId,
      status,
      shippingName: "Grace Hopper",
      shippingAddress: "1 Compiler Row",
      shippingCity: "Austin",
      shippingState: "TX",
      shippingPostalCode: "78701",
      shippingPhone: "5125550100",
      shippingEmail: "grace@example.test",
      shippingMethod: "standard",
      subtotalCents: subtotal,
      shippingCents: 500,
      totalCents: subtotal + 500,
      createdAt: new Date(createdAt),
    })
    .returning({ id: orders.id });
  await db.insert(orderItems).values(
    lines.map((line) => ({
      orderId: order!.id,
      productType: "regular" as const,
      productSerialNo: line.serialNo,
      title: `Title ${line.serialNo}`,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
    })),
  );
  return order!.id;
}

async function addBooking(email: string, startsAt: string, cancelled = false) {
  const [row] = await db
    .insert(serviceRequests)
    .values({
      name: "Grace Hopper",
      email,
      phone: "5125550100",
      serviceType: "Game Console Repair",
      issue: "The disc tray sticks.",
      preferredDate: startsAt.slice(0, 10),
      preferredTime: "10:00",
      startsAt: new Date(startsAt),
      confirmedAt: new Date("2026-01-02T12:00:00Z"),
      cancelledAt: cancelled ? new Date(startsAt) : null,
      cancelledBy: cancelled ? "customer" : null,
    })
    .returning({ id: serviceRequests.id });
  return row!.id;
}

beforeAll(async () => {
  db = scratch.db();
  // 22 customers joined a day apart (customer 21 newest), and Grace, who joined last of all.
  for (let i = 0; i < 22; i++) {
    await addCustomer(`filler-${i}`, `filler${i}@example.test`, {
      first: "Filler",
      last: `Person ${i}`,
      joined: JOINED + i * DAY,
    });
  }
  await addCustomer("grace", "Grace.Hopper@Example.test", {
    first: "Grace",
    last: "Hopper",
    born: "1906-12-09",
    joined: JOINED + 30 * DAY,
  });
  // A name with a LIKE wildcard in it, to be searched for literally.
  await addCustomer("percent", "percent@example.test", {
    first: "100%",
    last: "Sure",
    joined: JOINED - DAY,
  });
});

describe("the back office's customer list", () => {
  it("lists every customer newest first, 20 a page, with all the spec's columns", async () => {
    const first = await listCustomersForAdmin(db, { query: "", page: 1 });
    if (!first.ok) throw new Error(first.message);
    expect(first.total).toBe(24);
    expect(first.capped).toBe(false);
    expect(first.pageCount).toBe(2);
    expect(first.rows).toHaveLength(20);
    expect(first.rows[0]).toEqual({
      id: "grace",
      email: "Grace.Hopper@Example.test",
      firstName: "Grace",
      lastName: "Hopper",
      dateOfBirth: "1906-12-09",
      createdAt: new Date(JOINED + 30 * DAY).toISOString(),
    });
    expect(first.rows.slice(1, 4).map((row) => row.id)).toEqual([
      "filler-21",
      "filler-20",
      "filler-19",
    ]);

    const second = await listCustomersForAdmin(db, { query: "", page: 2 });
    if (!second.ok) throw new Error(second.message);
    expect(second.page).toBe(2);
    expect(second.rows.map((row) => row.id)).toEqual([
      "filler-2",
      "filler-1",
      "filler-0",
      "percent",
    ]);

    // A page past the end shows the last one.
    const beyond = await listCustomersForAdmin(db, { query: "", page: 9 });
    expect(beyond.ok && beyond.page).toBe(2);
  });

  it("searches e-mail and name case-insensitively, and a typed % literally", async () => {
    const ids = async (query: string) => {
      const result = await listCustomersForAdmin(db, { query, page: 1 });
      if (!result.ok) throw new Error(result.message);
      return { ids: result.rows.map((row) => row.id), total: result.total };
    };
    expect(await ids("grace.hopper@example")).toEqual({ ids: ["grace"], total: 1 });
    expect(await ids("HOPPER")).toEqual({ ids: ["grace"], total: 1 });
    expect(await ids("grace hopper")).toEqual({ ids: ["grace"], total: 1 });
    expect((await ids("filler person 1")).ids).toEqual([
      "filler-19",
      "filler-18",
      "filler-17",
      "filler-16",
      "filler-15",
      "filler-14",
      "filler-13",
      "filler-12",
      "filler-11",
      "filler-10",
      "filler-1",
    ]);
    expect(await ids("100%")).toEqual({ ids: ["percent"], total: 1 });
    expect(await ids("%")).toEqual({ ids: ["percent"], total: 1 });
    expect(await ids("nobody at all")).toEqual({ ids: [], total: 0 });
  });

  describe("when the database cannot answer", () => {
    const broken = createDatabase(inject("databaseUrl").replace(/\/[^/]+$/, "/no_such_shop"), 1);
    afterAll(() => broken.pool.end());

    it("answers the shop's own message, not the database's", async () => {
      const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
      try {
        const result = await listCustomersForAdmin(broken.db, { query: "grace", page: 1 });
        expect(result).toEqual({ ok: false, message: CUSTOMER_LIST_FAILED });
        expect(log).toHaveBeenCalledOnce();
      } finally {
        log.mockRestore();
      }
    });
  });
});

describe("a customer's page in the back office", () => {
  let serialNo: number;
  const orderIds: number[] = [];
  const bookingIds: number[] = [];

  beforeAll(async () => {
    const [title] = await db
      .insert(regularTitles)
      .values({ productId: "C-1", title: "Ledger Film", disc: "DVD", currentPriceCents: 1000 })
      .returning({ serialNo: regularTitles.regSerialNo });
    serialNo = title!.serialNo;
    orderIds.push(
      await addOrder("grace", "2026-02-01T10:00:00Z", "completed", [
        { serialNo, quantity: 2, unitPriceCents: 1000 },
      ]),
      await addOrder("grace", "2026-03-05T10:00:00Z", "pending", [
        { serialNo, quantity: 1, unitPriceCents: 1000 },
        { serialNo: serialNo + 1000, quantity: 3, unitPriceCents: 250 },
      ]),
      // Someone else's order is not Grace's.
      await addOrder("filler-3", "2026-03-06T10:00:00Z", "paid", [
        { serialNo, quantity: 1, unitPriceCents: 1000 },
      ]),
    );
    bookingIds.push(
      // Booked without signing in, with the e-mail typed in another case.
      await addBooking("grace.hopper@example.TEST", "2026-03-10T15:00:00Z"),
      await addBooking("Grace.Hopper@Example.test", "2026-04-01T15:00:00Z", true),
      await addBooking("someone@example.test", "2026-04-02T15:00:00Z"),
    );
  });

  it("shows their details, their orders and their repair appointments, newest first", async () => {
    const detail = await getCustomerForAdmin(db, "grace");
    expect(detail?.customer).toMatchObject({
      email: "Grace.Hopper@Example.test",
      firstName: "Grace",
      lastName: "Hopper",
      dateOfBirth: "1906-12-09",
    });
    expect(detail?.orders).toEqual([
      {
        id: orderIds[1],
        createdAt: "2026-03-05T10:00:00.000Z",
        itemCount: 4,
        totalCents: 1000 + 750 + 500,
        status: "pending",
      },
      {
        id: orderIds[0],
        createdAt: "2026-02-01T10:00:00.000Z",
        itemCount: 2,
        totalCents: 2500,
        status: "completed",
      },
    ]);
    expect(detail?.moreOrders).toBe(false);
    expect(detail?.appointments).toEqual([
      {
        id: bookingIds[1],
        serviceType: "Game Console Repair",
        startsAt: "2026-04-01T15:00:00.000Z",
        status: "cancelled",
      },
      {
        id: bookingIds[0],
        serviceType: "Game Console Repair",
        startsAt: "2026-03-10T15:00:00.000Z",
        status: "booked",
      },
    ]);
  });

  it("shows a customer without orders or bookings with empty lists", async () => {
    const detail = await getCustomerForAdmin(db, "filler-7");
    expect(detail?.customer.email).toBe("filler7@example.test");
    expect(detail?.orders).toEqual([]);
    expect(detail?.appointments).toEqual([]);
  });

  it("finds no one for an unknown id", async () => {
    expect(await getCustomerForAdmin(db, "no-such-customer")).toBeNull();
    expect(await getCustomerForAdmin(db, "")).toBeNull();
    expect(await getCustomerForAdmin(db, "x".repeat(500))).toBeNull();
  });
});
