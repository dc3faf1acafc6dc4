import { asc, eq } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { orderEvents, orders } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { markReadyForPickup } from "#app/domain/orders/pickups.server.ts";
import { whyNoReturn } from "#app/domain/returns/returns.server.ts";
import { RETURNS_CONFIG } from "#tests/support/providers.ts";
import { paidPickupOrder, UNTAXED_PRICING } from "#tests/support/order-fixtures.ts";
import { createStaff } from "#tests/support/staff.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { collectPickup, findPickup } from "./pickup-collection.server.ts";
import { zReportRows } from "./z-report-csv.ts";
import { zReport } from "./z-report.server.ts";

const db = testDatabase();
const ORDERS_URL = "http://shop.test/orders";
const TIME_ZONE = "America/Chicago";
const config = { ...UNTAXED_PRICING, timeZone: TIME_ZONE };
// 15 June 2026, mid-morning in Arlington.
const NOW = new Date("2026-06-15T15:00:00Z");

let boss: PgBoss;
let clerk: Staff;
beforeAll(async () => {
  boss = await startOutbox(inject("databaseUrl"), { onError() {} });
  clerk = await createStaff(db, "Cora Clerk");
});
afterAll(() => stopOutbox(boss));

const collecting = () => ({ staff: clerk, timeZone: TIME_ZONE, now: NOW });

/** A paid pickup order marked ready, with its code. */
async function readyOrder(input: { adult?: boolean } = {}) {
  const placed = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config, ...input });
  const ready = await markReadyForPickup(
    db,
    { orderId: placed.orderId },
    { staff: clerk, ordersUrl: ORDERS_URL },
  );
  if (!ready.ok) throw new Error(ready.message);
  return { ...placed, code: ready.pickupCode };
}

async function order(orderId: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

describe("finding a pickup order at the counter", () => {
  it("finds it by its code, typed in any case and with spaces, with its lines", async () => {
    const ready = await readyOrder({ adult: true });
    const typed = `${ready.code.slice(0, 4).toLowerCase()} ${ready.code.slice(4)}`;
    const found = await findPickup(db, { code: typed });
    if (!found.ok) throw new Error(found.message);
    expect(found.order).toMatchObject({ id: ready.orderId, status: "paid", hasAdult: true });
    expect(found.order.lines.map((line) => line.productType)).toEqual(["adult", "regular"]);
  });

  it("finds it by the customer's name and the order number, as people type the name", async () => {
    const ready = await readyOrder();
    const found = await findPickup(db, {
      orderNumber: ready.orderId,
      name: `  ${ready.name.toUpperCase().replace(" ", "   ")} `,
    });
    expect(found.ok && found.order.id).toBe(ready.orderId);
    const wrongName = await findPickup(db, { orderNumber: ready.orderId, name: "Someone Else" });
    expect(wrongName).toMatchObject({ ok: false, reason: "not-found", field: "orderNumber" });
  });

  it("refuses an unknown code and what cannot be a code", async () => {
    expect(await findPickup(db, { code: "ZZZZ2222" })).toMatchObject({
      ok: false,
      reason: "not-found",
      message: "No order has this pickup code. Check it, or search by name.",
    });
    expect(await findPickup(db, { code: "hello" })).toMatchObject({
      ok: false,
      reason: "invalid",
      field: "code",
    });
  });
});

describe("handing a pickup order over", () => {
  it("records who and when and completes the order, in its history", async () => {
    const ready = await readyOrder();
    const done = await collectPickup(
      db,
      { orderId: ready.orderId, idCheckBirthDate: null },
      collecting(),
    );
    expect(done).toMatchObject({ ok: true });
    expect(await order(ready.orderId)).toMatchObject({
      status: "completed",
      completedAt: NOW,
      collectedAt: NOW,
      collectedById: clerk.id,
      collectedByName: "Cora Clerk",
      collectedIdCheckBirthDate: null,
    });
    // Its return window runs from the day it was collected, as a parcel's from the day it shipped.
    const returnable = whyNoReturn(await order(ready.orderId), [{ returnable: 1 }], NOW, {
      ...RETURNS_CONFIG,
      timeZone: TIME_ZONE,
    });
    expect(returnable.why).toBeNull();
    expect(returnable.windowEndsAt!.getTime()).toBeGreaterThan(NOW.getTime());
    const history = await db
      .select({ to: orderEvents.toStatus, by: orderEvents.actorName, note: orderEvents.note })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, ready.orderId))
      .orderBy(asc(orderEvents.id));
    expect(history.at(-1)).toEqual({
      to: "completed",
      by: "Cora Clerk",
      note: "Collected at the counter",
    });
  });

  it("refuses it when collected already, not ready, not paid or unknown", async () => {
    const ready = await readyOrder();
    const input = { orderId: ready.orderId, idCheckBirthDate: null };
    await collectPickup(db, input, collecting());
    expect(await collectPickup(db, input, collecting())).toMatchObject({
      ok: false,
      reason: "conflict",
      message: `Order #${ready.orderId} was collected already.`,
    });

    const notReady = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config });
    expect(
      await collectPickup(db, { orderId: notReady.orderId, idCheckBirthDate: null }, collecting()),
    ).toMatchObject({
      ok: false,
      message: `Order #${notReady.orderId} is not ready for pickup yet: it must be marked ready first.`,
    });

    const unpaid = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config, paid: false });
    expect(
      await collectPickup(db, { orderId: unpaid.orderId, idCheckBirthDate: null }, collecting()),
    ).toMatchObject({
      ok: false,
      message: `Order #${unpaid.orderId} is pending, not paid: it cannot be handed over.`,
    });

    expect(
      await collectPickup(db, { orderId: 999_999_999, idCheckBirthDate: null }, collecting()),
    ).toMatchObject({ ok: false, reason: "not-found" });
  });

  it("needs the ID check for adult titles: 18 or older on the shop's calendar", async () => {
    const ready = await readyOrder({ adult: true });
    const collect = (idCheckBirthDate: string | null) =>
      collectPickup(db, { orderId: ready.orderId, idCheckBirthDate }, collecting());
    expect(await collect(null)).toMatchObject({
      ok: false,
      reason: "invalid",
      field: "idCheck",
      message: "Adult titles need an ID check: type the birth date on the customer's ID.",
    });
    // Eighteen tomorrow, on the shop's calendar.
    expect(await collect("2008-06-16")).toMatchObject({
      ok: false,
      field: "idCheck",
      message: "The customer is under 18: adult titles cannot be handed over.",
    });
    expect((await order(ready.orderId)).status).toBe("paid");
    expect(await collect("2008-06-15")).toMatchObject({ ok: true });
    expect(await order(ready.orderId)).toMatchObject({
      status: "completed",
      collectedIdCheckBirthDate: "2008-06-15",
    });
  });

  it("hands it over once when two clerks press at the same moment", async () => {
    const ready = await readyOrder();
    const input = { orderId: ready.orderId, idCheckBirthDate: null };
    const results = await Promise.all([
      collectPickup(db, input, collecting()),
      collectPickup(db, input, collecting()),
    ]);
    expect(results.map((result) => result.ok).sort()).toEqual([false, true]);
  });
});

describe("the Z report", () => {
  it("counts the pickups handed over while the till was open, apart from the drawer", async () => {
    const handedOver = new Date("2026-06-20T16:00:00Z");
    const till = {
      id: 0,
      openedAt: new Date("2026-06-20T14:00:00Z"),
      openedByName: "Cora Clerk",
      floatCents: 10_000,
      closedAt: null,
      closedByName: null,
      countedCents: null,
    };
    const before = await zReport(db, till, new Date("2026-06-20T18:00:00Z"));
    const ready = await readyOrder();
    await collectPickup(
      db,
      { orderId: ready.orderId, idCheckBirthDate: null },
      { ...collecting(), now: handedOver },
    );
    const after = await zReport(db, till, new Date("2026-06-20T18:00:00Z"));
    expect(after.pickupOrders - before.pickupOrders).toBe(1);
    expect(after.pickupCents - before.pickupCents).toBe(ready.order.totalCents);
    expect(after.expectedCashCents).toBe(before.expectedCashCents);
    // Closed before it was handed over: not this till's.
    const earlier = await zReport(db, till, handedOver);
    expect(earlier.pickupOrders).toBe(before.pickupOrders);

    const [header, row] = zReportRows([after]);
    expect(row![header!.indexOf("Pickup orders")]).toBe(after.pickupOrders);
    expect(row![header!.indexOf("Pickup")]).toBe(after.pickupCents / 100);
  });
});
