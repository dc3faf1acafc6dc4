import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { orderEvents, orders } from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import type {
  PaymentProvider,
  ProviderLookup,
  RefundInput,
} from "#app/domain/payments/provider.server.ts";
import { createStripeProvider } from "#app/domain/payments/stripe.server.ts";
import { createTestProvider } from "#app/domain/payments/test-provider.server.ts";
import { startFakeStripe, type FakeStripe } from "#tests/support/fake-stripe.ts";
import { createStaff } from "#tests/support/staff.ts";
import { queuedMail } from "#tests/support/queued-mail.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { getOrderForAdmin } from "./admin-orders.server.ts";
import { markOrderPaid } from "./fulfilment.server.ts";
import { placeOrder } from "./place-order.server.ts";
import { stockLedger } from "#app/domain/stock/ledger.server.ts";
import { cancelOrder, completeOrder, refundOrder, shipOrder } from "./staff-actions.server.ts";
import {
  createCustomer,
  createRegularTitle,
  orderInput,
  payPlacedOrder,
  regularStock,
  UNTAXED_PRICING,
  TEST_ADDRESS,
} from "#tests/support/order-fixtures.ts";

const db = testDatabase();
const ORDERS_URL = "http://shop.test/orders";
const config = UNTAXED_PRICING;
const testProvider = createTestProvider({ appEnv: "local" });

let boss: PgBoss;
let stripe: FakeStripe;
let staff: Staff;
let otherStaff: Staff;
beforeAll(async () => {
  boss = await startOutbox(inject("databaseUrl"), { onError() {} });
  stripe = await startFakeStripe();
  staff = await createStaff(db, "Sam Staff");
  otherStaff = await createStaff(db, "Olga Other");
});
afterAll(async () => {
  await stopOutbox(boss);
  await stripe.close();
});

const providers: ProviderLookup = (name) => (name === "test" ? testProvider : null);
const options = () => ({ staff, ordersUrl: ORDERS_URL, providers });

const mailsTo = (to: string, subject: string) => queuedMail(db, to, subject);

/** A new order of 2 copies of a new title (5 on the shelf), paid unless told otherwise. */
async function anOrder(input: { paid?: boolean; provider?: "test" | "stripe" } = {}) {
  const customer = await createCustomer(db);
  const film = await createRegularTitle(db, { qty: 5, priceCents: 1500 });
  // Order e-mails go to the account's own address (createCustomer's).
  const email = `order-${customer}@example.test`;
  const placed = await placeOrder(
    db,
    orderInput(customer, [{ productType: "regular", serialNo: film.serialNo, quantity: 2 }], {
      shipping: { ...TEST_ADDRESS, email },
    }),
    config,
  );
  if (!placed.ok) throw new Error(placed.reason);
  const orderId = placed.order.id;
  await payPlacedOrder(db, {
    order: placed.order,
    email,
    lines: [{ title: film.title, quantity: 2, unitPriceCents: 1500 }],
    provider: input.provider ?? "test",
    stripe,
    ordersUrl: ORDERS_URL,
    paid: input.paid,
  });
  return { orderId, film, email, totalCents: placed.order.totalCents };
}

async function order(orderId: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

async function history(orderId: number) {
  return db
    .select({
      from: orderEvents.fromStatus,
      to: orderEvents.toStatus,
      by: orderEvents.actorName,
      note: orderEvents.note,
    })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.id));
}

describe("the transitions staff can make", () => {
  it("ships a paid order with its tracking number, tells the customer, then completes it", async () => {
    const { orderId, email } = await anOrder();
    const shipped = await shipOrder(
      db,
      { orderId, carrier: "UPS", trackingNumber: "1Z999AA10123456784" },
      options(),
    );
    expect(shipped).toEqual({ ok: true, message: `Order #${orderId} is marked shipped.` });
    expect(await order(orderId)).toMatchObject({
      status: "shipped",
      carrier: "UPS",
      trackingNumber: "1Z999AA10123456784",
    });
    const [mail, ...more] = await mailsTo(email, "has shipped");
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Your Reel & Repair order #${orderId} has shipped`);
    expect(mail!.text).toContain("Tracking number (UPS): 1Z999AA10123456784");
    expect(mail!.text).toContain(ORDERS_URL);

    expect(await completeOrder(db, { orderId }, { staff })).toEqual({
      ok: true,
      message: `Order #${orderId} is completed.`,
    });
    expect(await history(orderId)).toEqual([
      { from: null, to: "pending", by: null, note: null },
      { from: "pending", to: "paid", by: null, note: null },
      { from: "paid", to: "shipped", by: "Sam Staff", note: "UPS 1Z999AA10123456784" },
      { from: "shipped", to: "completed", by: "Sam Staff", note: null },
    ]);
    const detail = await getOrderForAdmin(db, orderId);
    expect(detail?.history.map((event) => event.toStatus)).toEqual([
      "pending",
      "paid",
      "shipped",
      "completed",
    ]);
  });

  it("refuses what the status does not allow, with a message, and changes nothing", async () => {
    const pending = await anOrder({ paid: false });
    expect(
      await shipOrder(
        db,
        { orderId: pending.orderId, carrier: null, trackingNumber: null },
        options(),
      ),
    ).toEqual({
      ok: false,
      reason: "conflict",
      message: `Order #${pending.orderId} is pending; only paid orders can be shipped.`,
    });
    expect(await completeOrder(db, { orderId: pending.orderId }, { staff })).toMatchObject({
      ok: false,
      reason: "conflict",
      message: `Order #${pending.orderId} is pending; only shipped orders can be completed.`,
    });

    const shipped = await anOrder();
    await shipOrder(
      db,
      { orderId: shipped.orderId, carrier: null, trackingNumber: null },
      options(),
    );
    expect(await cancelOrder(db, { orderId: shipped.orderId }, options())).toEqual({
      ok: false,
      reason: "conflict",
      message: `Order #${shipped.orderId} is shipped; only pending or paid orders can be cancelled.`,
    });
    expect(await refundOrder(db, { orderId: shipped.orderId }, options())).toMatchObject({
      ok: false,
      reason: "conflict",
    });
    expect((await order(shipped.orderId)).status).toBe("shipped");
    expect(await regularStock(db, shipped.film.serialNo)).toBe(3);
    expect(await cancelOrder(db, { orderId: 987_654_321 }, options())).toMatchObject({
      ok: false,
      reason: "not-found",
    });
  });

  it("cancels an unpaid order: stock back, the customer told nothing was charged", async () => {
    const { orderId, film, email } = await anOrder({ paid: false });
    expect(await regularStock(db, film.serialNo)).toBe(3);
    const result = await cancelOrder(db, { orderId }, options());
    expect(result).toEqual({
      ok: true,
      message: `Order #${orderId} is cancelled and its stock is back on sale.`,
    });
    expect(await regularStock(db, film.serialNo)).toBe(5);
    const [back] = await stockLedger(db, { type: "regular", id: film.serialNo }, 1);
    expect(back).toMatchObject({
      reason: "cancelled",
      change: 2,
      stockAfter: 5,
      reference: `order ${orderId}`,
      actorName: "Sam Staff",
    });
    expect(await order(orderId)).toMatchObject({ status: "cancelled", refundedAt: null });
    const [mail] = await mailsTo(email, "was cancelled");
    expect(mail!.text).toContain("You have not been charged for it.");

    // A payment that still gets through is not revived: it is marked for a refund.
    const late = await markOrderPaid(
      db,
      { orderId, provider: "test", eventId: randomUUID() },
      { ordersUrl: ORDERS_URL },
    );
    expect(late).toEqual({ status: "needs-refund", orderId, shortages: [] });
    expect(await regularStock(db, film.serialNo)).toBe(5);
    expect((await order(orderId)).status).toBe("cancelled");
    expect(await refundOrder(db, { orderId }, options())).toEqual({
      ok: true,
      message: `Order #${orderId} was refunded.`,
    });
  });

  it("cancels a paid order: stock back once, refunded through Stripe, the customer told", async () => {
    const stripeProvider = createStripeProvider({
      secretKey: "sk_test_fake",
      apiBase: stripe.apiBase,
    });
    const withStripe: ProviderLookup = (name) => (name === "stripe" ? stripeProvider : null);
    const { orderId, film, email, totalCents } = await anOrder({ provider: "stripe" });
    const result = await cancelOrder(db, { orderId }, { ...options(), providers: withStripe });
    expect(result).toEqual({
      ok: true,
      message: `Order #${orderId} is cancelled, its stock is back on sale and the payment was refunded.`,
    });
    expect(await regularStock(db, film.serialNo)).toBe(5);
    const row = await order(orderId);
    expect(row.status).toBe("refunded");
    const refund = stripe.refunds.find((candidate) => candidate.id === row.refundReference);
    expect(refund).toMatchObject({
      amount: totalCents,
      payment_intent: row.paymentReference,
      metadata: { order_id: String(orderId) },
    });
    const [mail, ...more] = await mailsTo(email, "was cancelled");
    expect(more).toEqual([]);
    expect(mail!.text).toContain(`We refunded $${(totalCents / 100).toFixed(2)} to the card`);
    expect((await history(orderId)).map((event) => [event.to, event.by])).toEqual([
      ["pending", null],
      ["paid", null],
      ["cancelled", "Sam Staff"],
      ["refunded", "Sam Staff"],
    ]);
  });

  it("keeps a cancelled order whose refund was refused, and refunds it on a second try", async () => {
    const failing: PaymentProvider = {
      ...testProvider,
      refundPayment: () => Promise.reject(new Error("card issuer unavailable")),
    };
    const { orderId, film, email } = await anOrder();
    const first = await cancelOrder(db, { orderId }, { ...options(), providers: () => failing });
    expect(first).toEqual({
      ok: false,
      reason: "refund-failed",
      message: `Order #${orderId} is cancelled and its stock is back on sale. The refund did not go through (card issuer unavailable). Try the refund again.`,
    });
    expect(await order(orderId)).toMatchObject({ status: "cancelled", refundedAt: null });
    expect(await regularStock(db, film.serialNo)).toBe(5);
    expect(await mailsTo(email, "was cancelled")).toEqual([]);

    const calls: RefundInput[] = [];
    const recording: PaymentProvider = {
      ...testProvider,
      refundPayment: (input) => {
        calls.push(input);
        return testProvider.refundPayment(input);
      },
    };
    expect(
      await refundOrder(db, { orderId }, { ...options(), providers: () => recording }),
    ).toEqual({ ok: true, message: `Order #${orderId} was refunded.` });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.idempotencyKey).toBe(`order-${orderId}-refund`);
    expect(await regularStock(db, film.serialNo)).toBe(5);
    expect(await mailsTo(email, "was cancelled")).toHaveLength(1);
  });
});

describe("two admins acting on one order at once", () => {
  it("cancelling twice: one cancels and refunds, the other is refused; stock back once", async () => {
    for (let round = 0; round < 5; round++) {
      const { orderId, film, email } = await anOrder();
      const results = await Promise.all([
        cancelOrder(db, { orderId }, options()),
        cancelOrder(db, { orderId }, { ...options(), staff: otherStaff }),
      ]);
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.find((result) => !result.ok)).toMatchObject({ reason: "conflict" });
      expect(await regularStock(db, film.serialNo)).toBe(5);
      expect((await order(orderId)).status).toBe("refunded");
      expect(await mailsTo(email, "was cancelled")).toHaveLength(1);
    }
  });

  it("shipping while another cancels: exactly one wins, and stock matches the winner", async () => {
    const winners: string[] = [];
    for (let round = 0; round < 6; round++) {
      const { orderId, film, email } = await anOrder();
      const [shipped, cancelled] = await Promise.all([
        shipOrder(db, { orderId, carrier: "USPS", trackingNumber: null }, options()),
        cancelOrder(db, { orderId }, { ...options(), staff: otherStaff }),
      ]);
      expect([shipped.ok, cancelled.ok].filter(Boolean)).toHaveLength(1);
      const final = await order(orderId);
      if (shipped.ok) {
        winners.push("ship");
        expect(final.status).toBe("shipped");
        expect(await regularStock(db, film.serialNo)).toBe(3);
        expect(await mailsTo(email, "was cancelled")).toEqual([]);
      } else {
        winners.push("cancel");
        expect(final.status).toBe("refunded");
        expect(await regularStock(db, film.serialNo)).toBe(5);
        expect(await mailsTo(email, "has shipped")).toEqual([]);
      }
    }
    expect(winners).toHaveLength(6);
  });

  it("two refunds of the same order refund it once", async () => {
    const { orderId } = await anOrder({ paid: false });
    await cancelOrder(db, { orderId }, options());
    await markOrderPaid(
      db,
      { orderId, provider: "test", eventId: randomUUID() },
      { ordersUrl: ORDERS_URL },
    );
    const results = await Promise.all([
      refundOrder(db, { orderId }, options()),
      refundOrder(db, { orderId }, { ...options(), staff: otherStaff }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect((await history(orderId)).filter((event) => event.to === "refunded")).toHaveLength(1);
  });
});
