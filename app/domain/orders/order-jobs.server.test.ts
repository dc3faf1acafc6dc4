import { eq } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { orders } from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { EXPIRE_ORDERS_QUEUE, startOrderJobs } from "./order-jobs.server.ts";
import { placeOrder } from "./place-order.server.ts";
import {
  createCustomer,
  createRegularTitle,
  orderInput,
  regularStock,
  UNTAXED_PRICING,
} from "#tests/support/order-fixtures.ts";

const db = testDatabase();
let boss: PgBoss;
beforeAll(async () => {
  boss = await startOutbox(inject("databaseUrl"), { onError() {} });
});
afterAll(() => stopOutbox(boss));

it("sweeps lapsed unpaid orders every minute through the shared queue", async () => {
  const swept: number[][] = [];
  await startOrderJobs(boss, db, (expired) => swept.push(expired));
  const schedules = await boss.getSchedules(EXPIRE_ORDERS_QUEUE);
  expect(schedules.map((schedule) => schedule.cron)).toEqual(["* * * * *"]);

  const customer = await createCustomer(db);
  const title = await createRegularTitle(db, { qty: 4, priceCents: 999 });
  const placed = await placeOrder(
    db,
    orderInput(customer, [{ productType: "regular", serialNo: title.serialNo, quantity: 3 }]),
    { ...UNTAXED_PRICING, now: new Date(Date.now() - 60 * 60_000) },
  );
  if (!placed.ok) throw new Error(placed.reason);
  expect(await regularStock(db, title.serialNo)).toBe(1);

  // What the schedule does once a minute, done now.
  await boss.send(EXPIRE_ORDERS_QUEUE, {});
  // A minute without it is a hang, not a slow machine.
  const deadline = Date.now() + 60_000;
  let status = "pending";
  while (status === "pending" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [row] = await db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, placed.order.id));
    status = row!.status;
  }
  expect(status).toBe("expired");
  expect(await regularStock(db, title.serialNo)).toBe(4);
  expect(swept.flat()).toContain(placed.order.id);
});
