import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { ordersReference } from "#app/domain/stock/ledger.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { orderItems, orders } from "#app/db/schema.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import type { ProviderLookup } from "#app/domain/payments/provider.server.ts";
import { orderCancelledMessage, orderShippedMessage } from "#app/emails/order-emails.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import { refuse, type Result } from "#app/lib/reply.server.ts";
import { orderMailRecipient } from "./fulfilment.server.ts";
import { returnStock } from "./stock.server.ts";

/**
 * `conflict`: not allowed from the order's current status (another admin may have just changed
 * it); `refund-failed`: the order is cancelled but the provider did not take the refund.
 */
export type StaffActionResult = Result<object, "not-found" | "conflict" | "refund-failed">;

type Options = { staff: Staff; now?: Date; ordersUrl: string };

const notFound = (orderId: number) => refuse("not-found", `There is no order #${orderId}.`);

const conflict = (message: string) => refuse("conflict", message);

async function currentStatus(db: Database | Transaction, orderId: number) {
  const [row] = await db
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row?.status ?? null;
}

/**
 * paid → shipped, with an optional carrier and tracking number; the customer's e-mail is queued
 * in the same transaction. The update is conditional on `paid`, so of two admins shipping (or
 * one shipping while another cancels) exactly one succeeds and the other is told why not.
 */
export async function shipOrder(
  db: Database,
  input: { orderId: number; carrier: string | null; trackingNumber: string | null },
  options: Options,
): Promise<StaffActionResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<StaffActionResult> => {
    const note = [input.carrier, input.trackingNumber].filter(Boolean).join(" ");
    await withActor(tx, options.staff, note);
    const [shipped] = await tx
      .update(orders)
      .set({
        status: "shipped",
        carrier: input.carrier,
        trackingNumber: input.trackingNumber,
        shippedAt: now,
        updatedAt: now,
      })
      .where(
        and(eq(orders.id, input.orderId), eq(orders.status, "paid"), eq(orders.fulfilment, "ship")),
      )
      .returning({ name: orders.shippingName, userId: orders.userId });
    if (!shipped) {
      const status = await currentStatus(tx, input.orderId);
      if (!status) return notFound(input.orderId);
      if (status === "paid") {
        return conflict(
          `Order #${input.orderId} is picked up at the store: mark it ready for pickup instead.`,
        );
      }
      return conflict(`Order #${input.orderId} is ${status}; only paid orders can be shipped.`);
    }
    const message = orderShippedMessage({
      orderNumber: input.orderId,
      name: shipped.name,
      carrier: input.carrier,
      trackingNumber: input.trackingNumber,
      ordersUrl: options.ordersUrl,
    });
    await queueMail({ to: await orderMailRecipient(tx, shipped.userId), ...message }, { tx });
    return { ok: true, message: `Order #${input.orderId} is marked shipped.` };
  });
}

/** shipped → completed (delivered, nothing left to do). No e-mail: the parcel already arrived. */
export async function completeOrder(
  db: Database,
  input: { orderId: number },
  options: Omit<Options, "ordersUrl">,
): Promise<StaffActionResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<StaffActionResult> => {
    await withActor(tx, options.staff);
    const [done] = await tx
      .update(orders)
      .set({ status: "completed", completedAt: now, updatedAt: now })
      .where(and(eq(orders.id, input.orderId), eq(orders.status, "shipped")))
      .returning({ id: orders.id });
    if (done) return { ok: true, message: `Order #${input.orderId} is completed.` };
    const status = await currentStatus(tx, input.orderId);
    if (!status) return notFound(input.orderId);
    return conflict(`Order #${input.orderId} is ${status}; only shipped orders can be completed.`);
  });
}

/**
 * Cancels a pending or paid order. One transaction locks the order, checks its status, marks it
 * cancelled and returns its stock, so the stock goes back exactly once however many admins press
 * Cancel. An unpaid order's customer is told at once and its payment page is closed; a paid
 * order is then refunded through its provider (see `refundOrder`), and its customer is told when
 * the refund went through.
 */
export async function cancelOrder(
  db: Database,
  input: { orderId: number },
  options: Options & { providers: ProviderLookup },
): Promise<StaffActionResult> {
  const now = options.now ?? new Date();
  type Cancelled = { ok: true; order: typeof orders.$inferSelect };
  const cancelled = await db.transaction(async (tx): Promise<Cancelled | StaffActionResult> => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.id, input.orderId))
      .for("update");
    if (!order) return notFound(input.orderId);
    if (order.status !== "pending" && order.status !== "paid") {
      return conflict(
        `Order #${order.id} is ${order.status}; only pending or paid orders can be cancelled.`,
      );
    }
    await withActor(tx, options.staff);
    await tx
      .update(orders)
      .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
      .where(eq(orders.id, order.id));
    const lines = await tx
      .select({
        productType: orderItems.productType,
        serialNo: orderItems.productSerialNo,
        quantity: orderItems.quantity,
      })
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id));
    await returnStock(tx, lines, { reason: "cancelled", reference: ordersReference([order.id]) });
    if (order.status === "pending") {
      const message = orderCancelledMessage({
        orderNumber: order.id,
        name: order.shippingName,
        refundedCents: null,
        ordersUrl: options.ordersUrl,
      });
      await queueMail({ to: await orderMailRecipient(tx, order.userId), ...message }, { tx });
    }
    return { ok: true, order };
  });
  if (!("order" in cancelled)) return cancelled;
  const { order } = cancelled;
  if (order.status === "pending") {
    await closePaymentPage(order, options.providers);
    return { ok: true, message: `Order #${order.id} is cancelled and its stock is back on sale.` };
  }
  const refund = await refundOrder(db, { orderId: order.id }, options);
  if (!refund.ok) {
    return {
      ...refund,
      message: `Order #${order.id} is cancelled and its stock is back on sale. ${refund.message}`,
    };
  }
  return {
    ok: true,
    message: `Order #${order.id} is cancelled, its stock is back on sale and the payment was refunded.`,
  };
}

/**
 * Best effort: the provider's page stops taking payment for a cancelled order. If a payment still
 * gets through, the payment confirmation sees the shop cancelled the order and marks the money
 * for a refund instead of reviving it.
 */
async function closePaymentPage(
  order: { paymentProvider: string | null; paymentSessionId: string | null },
  providers: ProviderLookup,
) {
  if (!order.paymentProvider || !order.paymentSessionId) return;
  try {
    await providers(order.paymentProvider)?.expireCheckoutSession(order.paymentSessionId);
  } catch (error) {
    console.warn("Could not close the payment page of a cancelled order:", error);
  }
}

/**
 * Pays back a paid order that no longer ships: one the shop cancelled, or one whose payment came
 * after its stock was sold (status cancelled or expired, `paid_at` set, no refund yet). The
 * provider is asked first, with a key per order, so two admins refunding at once refund once;
 * then one conditional update records the refund, the `refunded` status and the customer's
 * e-mail together. A refused refund leaves the order as it was, to be tried again.
 */
export async function refundOrder(
  db: Database,
  input: { orderId: number },
  options: Options & { providers: ProviderLookup },
): Promise<StaffActionResult> {
  const now = options.now ?? new Date();
  const [order] = await db.select().from(orders).where(eq(orders.id, input.orderId));
  if (!order) return notFound(input.orderId);
  if (order.refundedAt) return conflict(`Order #${order.id} was already refunded.`);
  if (!order.paidAt || (order.status !== "cancelled" && order.status !== "expired")) {
    return conflict(
      `Order #${order.id} is ${order.status}; only a paid order that was cancelled can be refunded.`,
    );
  }
  const provider = order.paymentProvider ? options.providers(order.paymentProvider) : null;
  if (!provider) {
    return {
      ok: false,
      reason: "refund-failed",
      message: `Order #${order.id} was paid through ${order.paymentProvider ?? "an unknown provider"}, which is not set up here: refund it in that provider's dashboard.`,
    };
  }
  let refund;
  try {
    refund = await provider.refundPayment({
      orderId: order.id,
      paymentReference: order.paymentReference,
      paymentSessionId: order.paymentSessionId,
      amountCents: order.totalCents,
      idempotencyKey: `order-${order.id}-refund`,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: "refund-failed",
      message: `The refund did not go through (${reason}). Try the refund again.`,
    };
  }
  return db.transaction(async (tx): Promise<StaffActionResult> => {
    await withActor(tx, options.staff, `Refund ${refund.id}`);
    const [refunded] = await tx
      .update(orders)
      .set({
        status: "refunded",
        refundReference: refund.id,
        refundedAt: now,
        updatedAt: now,
      })
      .where(
        and(
          eq(orders.id, order.id),
          isNull(orders.refundedAt),
          isNotNull(orders.paidAt),
          inArray(orders.status, ["cancelled", "expired"] satisfies OrderStatus[]),
        ),
      )
      .returning({ id: orders.id });
    // Another admin's identical refund (same key, same refund) recorded it first.
    if (!refunded) return conflict(`Order #${order.id} was already refunded.`);
    const message = orderCancelledMessage({
      orderNumber: order.id,
      name: order.shippingName,
      refundedCents: refund.amountCents,
      ordersUrl: options.ordersUrl,
    });
    await queueMail({ to: await orderMailRecipient(tx, order.userId), ...message }, { tx });
    return { ok: true, message: `Order #${order.id} was refunded.` };
  });
}
