import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { orders } from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import {
  expireStaleOrders,
  markOrderPaid,
  recordPaymentSession,
  releaseOrder,
} from "./fulfilment.server.ts";
import { placeOrder } from "./place-order.server.ts";
import {
  adultStock,
  createAdultTitle,
  createCustomer,
  createRegularTitle,
  orderInput,
  regularStock,
  TEXAS_PRICING,
} from "#tests/support/order-fixtures.ts";

const db = testDatabase();
const config = TEXAS_PRICING;
const ORDERS_URL = "http://shop.test/orders";
const paid = { ordersUrl: ORDERS_URL };

let boss: PgBoss;
beforeAll(async () => {
  boss = await startOutbox(inject("databaseUrl"), { onError() {} });
});
afterAll(() => stopOutbox(boss));

/** Confirmation e-mails queued for an order (jobs of the mail queue, whatever their state). */
async function confirmations(orderId: number) {
  const { rows } = await db.execute<{
    data: { to: string; subject: string; text: string; html: string };
  }>(
    sql`select data from pgboss.job
        where name = 'mail-send' and data->>'subject' like ${`% order #${orderId} is confirmed`}`,
  );
  return rows.map((row) => row.data);
}

async function statusOf(orderId: number) {
  const [row] = await db
    .select({ status: orders.status, paidAt: orders.paidAt })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row!;
}

/** A pending order of `quantity` of a new regular title (and what is left on the shelf). */
async function pendingOrder(input: { stock: number; quantity: number; now?: Date }) {
  const customer = await createCustomer(db);
  const film = await createRegularTitle(db, { qty: input.stock, priceCents: 1999 });
  const result = await placeOrder(
    db,
    orderInput(customer, [
      { productType: "regular", serialNo: film.serialNo, quantity: input.quantity },
    ]),
    { ...config, now: input.now },
  );
  if (!result.ok) throw new Error(`order not placed: ${result.reason}`);
  return { order: result.order, film, customer };
}

describe("a confirmed payment", () => {
  it("marks the order paid and queues one confirmation e-mail with everything in it", async () => {
    const { order, film, customer } = await pendingOrder({ stock: 5, quantity: 2 });
    const now = new Date();
    const result = await markOrderPaid(
      db,
      { orderId: order.id, provider: "test", eventId: randomUUID() },
      { ...paid, now },
    );
    expect(result).toEqual({ status: "paid", orderId: order.id, reReserved: false });
    expect(await statusOf(order.id)).toEqual({ status: "paid", paidAt: now });
    expect(await regularStock(db, film.serialNo)).toBe(3);
    const mails = await confirmations(order.id);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    // The account's own address, not the one typed at checkout.
    expect(mail!.to).toBe(`order-${customer}@example.test`);
    expect(mail!.subject).toBe(`Your Reel & Repair order #${order.id} is confirmed`);
    // 2 × 19.99 = 39.98 + 5.99 = 45.97; × 8.25 % = 3.79; total 49.76.
    for (const text of [
      "Thank you, Ada!",
      `2 × ${film.title}: $39.98`,
      "Subtotal: $39.98",
      "Shipping (Standard): $5.99",
      "Sales tax: $3.79",
      "Total paid: $49.76",
      "Shipping to: Ada Lovelace, 12 Analytical Way, Austin, TX 78701",
      ORDERS_URL,
    ]) {
      expect(mail!.text).toContain(text);
    }
    expect(mail!.html).toContain("Total paid: $49.76");
  });

  it("escapes what the shopper typed in the e-mail", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 1, priceCents: 1000 });
    const placed = await placeOrder(
      db,
      orderInput(customer, [{ productType: "regular", serialNo: film.serialNo, quantity: 1 }], {
        shipping: {
          name: '<script>alert("x")</script>',
          address: "1 <b>Bold</b> St",
          city: "Austin",
          state: "TX",
          postalCode: "78701",
          phone: "512 555 0100",
          email: "eve@example.test",
        },
      }),
      config,
    );
    if (!placed.ok) throw new Error(placed.reason);
    await markOrderPaid(db, { orderId: placed.order.id, provider: "test" }, paid);
    const [mail] = await confirmations(placed.order.id);
    expect(mail!.html).not.toContain("<script>");
    expect(mail!.html).not.toContain("<b>Bold</b>");
    expect(mail!.html).toContain("&#60;script&#62;");
    expect(mail!.text).toContain("Thank you, there!");
    expect(mail!.text).toContain('<script>alert("x")</script>');
  });

  it("changes nothing and sends nothing when the same or another event comes again", async () => {
    const { order } = await pendingOrder({ stock: 5, quantity: 1 });
    const eventId = randomUUID();
    const confirmation = { orderId: order.id, provider: "test", eventId };
    expect((await markOrderPaid(db, confirmation, paid)).status).toBe("paid");
    const { paidAt } = await statusOf(order.id);
    expect(await markOrderPaid(db, confirmation, paid)).toEqual({
      status: "duplicate-event",
      orderId: order.id,
    });
    expect(await markOrderPaid(db, { ...confirmation, eventId: randomUUID() }, paid)).toEqual({
      status: "unchanged",
      orderId: order.id,
      orderStatus: "paid",
    });
    expect(await markOrderPaid(db, { orderId: order.id, provider: "test" }, paid)).toMatchObject({
      status: "unchanged",
    });
    expect(await statusOf(order.id)).toEqual({ status: "paid", paidAt });
    expect(await confirmations(order.id)).toHaveLength(1);
  });

  it("is paid once when confirmations arrive at the same moment", async () => {
    const { order } = await pendingOrder({ stock: 5, quantity: 1 });
    const sameEvent = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        markOrderPaid(
          db,
          { orderId: order.id, provider: "test", eventId: i % 2 ? sameEvent : randomUUID() },
          paid,
        ),
      ),
    );
    expect(results.filter((result) => result.status === "paid")).toHaveLength(1);
    expect(
      results.every((result) => ["paid", "unchanged", "duplicate-event"].includes(result.status)),
    ).toBe(true);
    expect(await confirmations(order.id)).toHaveLength(1);
  });

  it("finds the order by its payment session, and only for that session's provider", async () => {
    const { order } = await pendingOrder({ stock: 5, quantity: 1 });
    const sessionId = `cs_test_${randomUUID()}`;
    const expiresAt = new Date(Date.now() + 60 * 60_000);
    expect(
      await recordPaymentSession(db, {
        orderId: order.id,
        provider: "stripe",
        sessionId,
        expiresAt,
      }),
    ).toBe(true);
    expect(
      await markOrderPaid(db, { paymentSessionId: sessionId, provider: "test" }, paid),
    ).toEqual({
      status: "provider-mismatch",
      orderId: order.id,
    });
    expect(
      await markOrderPaid(db, { paymentSessionId: "cs_unknown", provider: "stripe" }, paid),
    ).toEqual({
      status: "not-found",
    });
    expect(
      await markOrderPaid(db, { paymentSessionId: sessionId, provider: "stripe" }, paid),
    ).toMatchObject({
      status: "paid",
      orderId: order.id,
    });
    expect(
      await recordPaymentSession(db, {
        orderId: order.id,
        provider: "stripe",
        sessionId: "cs_other",
        expiresAt,
      }),
    ).toBe(false);
  });
});

describe("releasing an unpaid order", () => {
  it("returns its stock exactly once", async () => {
    const { order, film } = await pendingOrder({ stock: 5, quantity: 3 });
    expect(await regularStock(db, film.serialNo)).toBe(2);
    expect(await releaseOrder(db, { orderId: order.id, reason: "cancelled" })).toEqual({
      released: true,
      orderId: order.id,
      status: "cancelled",
    });
    expect(await releaseOrder(db, { orderId: order.id, reason: "expired" })).toEqual({
      released: false,
      orderId: order.id,
      status: "cancelled",
    });
    expect(await regularStock(db, film.serialNo)).toBe(5);
    expect(await releaseOrder(db, { orderId: 999_999_999, reason: "expired" })).toEqual({
      released: false,
      orderId: 999_999_999,
      status: null,
    });
  });

  it("returns its stock once when released from several places at once", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 10, priceCents: 1000 });
    const adult = await createAdultTitle(db, { qty: 4, priceCents: 1000 });
    const placed = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: film.serialNo, quantity: 4 },
        { productType: "adult", serialNo: adult.serialNo, quantity: 3 },
      ]),
      config,
    );
    if (!placed.ok) throw new Error(placed.reason);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        releaseOrder(db, { orderId: placed.order.id, reason: i % 2 ? "expired" : "cancelled" }),
      ),
    );
    expect(results.filter((result) => result.released)).toHaveLength(1);
    expect(await regularStock(db, film.serialNo)).toBe(10);
    expect(await adultStock(db, adult.serialNo)).toBe(4);
  });

  it("never releases a paid order", async () => {
    const { order, film } = await pendingOrder({ stock: 5, quantity: 2 });
    await markOrderPaid(db, { orderId: order.id, provider: "test" }, paid);
    expect(await releaseOrder(db, { orderId: order.id, reason: "expired" })).toEqual({
      released: false,
      orderId: order.id,
      status: "paid",
    });
    expect(await regularStock(db, film.serialNo)).toBe(3);
    expect((await statusOf(order.id)).status).toBe("paid");
  });

  it("races a payment without losing either: paid keeps its stock, released returns it", async () => {
    for (let round = 0; round < 5; round++) {
      const { order, film } = await pendingOrder({ stock: 3, quantity: 3 });
      const [payment, release] = await Promise.all([
        markOrderPaid(db, { orderId: order.id, provider: "test", eventId: randomUUID() }, paid),
        releaseOrder(db, { orderId: order.id, reason: "expired" }),
      ]);
      const { status } = await statusOf(order.id);
      // Either the payment came first (release refused), or the release did and the payment
      // took the stock back: in both cases the order is paid and its 3 copies are sold.
      expect(status).toBe("paid");
      expect(payment.status).toBe("paid");
      expect(release.released ? payment.status === "paid" : release.status === "paid").toBe(true);
      expect(await regularStock(db, film.serialNo)).toBe(0);
      expect(await confirmations(order.id)).toHaveLength(1);
    }
  });
});

describe("a payment after the order was released", () => {
  it("takes the stock again when it is still there", async () => {
    const { order, film } = await pendingOrder({ stock: 5, quantity: 2 });
    await releaseOrder(db, { orderId: order.id, reason: "expired" });
    expect(await regularStock(db, film.serialNo)).toBe(5);
    expect(await markOrderPaid(db, { orderId: order.id, provider: "test" }, paid)).toEqual({
      status: "paid",
      orderId: order.id,
      reReserved: true,
    });
    expect((await statusOf(order.id)).status).toBe("paid");
    expect(await regularStock(db, film.serialNo)).toBe(3);
    expect(await confirmations(order.id)).toHaveLength(1);
  });

  it("is marked for a refund when the stock has been sold meanwhile", async () => {
    const { order, film } = await pendingOrder({ stock: 2, quantity: 2 });
    await releaseOrder(db, { orderId: order.id, reason: "expired" });
    const other = await placeOrder(
      db,
      orderInput(await createCustomer(db), [
        { productType: "regular", serialNo: film.serialNo, quantity: 1 },
      ]),
      config,
    );
    expect(other.ok).toBe(true);
    const now = new Date();
    const late = await markOrderPaid(
      db,
      { orderId: order.id, provider: "test", eventId: randomUUID() },
      { ...paid, now },
    );
    expect(late).toEqual({
      status: "needs-refund",
      orderId: order.id,
      shortages: [
        {
          productType: "regular",
          serialNo: film.serialNo,
          title: film.title,
          requested: 2,
          available: 1,
        },
      ],
    });
    // Nothing taken, nothing sent; the order stays expired with the payment's time on it.
    expect(await statusOf(order.id)).toEqual({ status: "expired", paidAt: now });
    expect(await regularStock(db, film.serialNo)).toBe(1);
    expect(await confirmations(order.id)).toHaveLength(0);
    // Another event for it says the same and still changes nothing.
    const again = await markOrderPaid(
      db,
      { orderId: order.id, provider: "test", eventId: randomUUID() },
      paid,
    );
    expect(again.status).toBe("needs-refund");
    expect(await statusOf(order.id)).toEqual({ status: "expired", paidAt: now });
    expect(await regularStock(db, film.serialNo)).toBe(1);
  });
});

describe("the expiry sweep", () => {
  it("releases only pending orders whose payment window has closed, once, from several sweepers", async () => {
    const now = new Date();
    const longAgo = new Date(now.getTime() - 2 * 60 * 60_000);
    const stale = await Promise.all(
      Array.from({ length: 7 }, () => pendingOrder({ stock: 4, quantity: 2, now: longAgo })),
    );
    const fresh = await pendingOrder({ stock: 4, quantity: 2, now });
    const paidStale = await pendingOrder({ stock: 4, quantity: 2, now: longAgo });
    await markOrderPaid(db, { orderId: paidStale.order.id, provider: "test" }, paid);

    const sweeps = await Promise.all(
      Array.from({ length: 4 }, () => expireStaleOrders(db, now, { batchSize: 2 })),
    );
    const expired = sweeps.flatMap((sweep) => sweep.expired);
    const staleIds = stale.map((entry) => entry.order.id);
    // Each stale order released by exactly one sweeper.
    expect(expired.filter((id) => staleIds.includes(id)).sort()).toEqual([...staleIds].sort());
    expect(expired).not.toContain(fresh.order.id);
    expect(expired).not.toContain(paidStale.order.id);
    for (const entry of stale) {
      expect((await statusOf(entry.order.id)).status).toBe("expired");
      expect(await regularStock(db, entry.film.serialNo)).toBe(4);
    }
    expect((await statusOf(fresh.order.id)).status).toBe("pending");
    expect(await regularStock(db, fresh.film.serialNo)).toBe(2);
    expect((await statusOf(paidStale.order.id)).status).toBe("paid");
    expect(await regularStock(db, paidStale.film.serialNo)).toBe(2);
    // A second sweep finds nothing of these.
    const again = await expireStaleOrders(db, now);
    expect(again.expired.filter((id) => staleIds.includes(id))).toEqual([]);
  });
});
