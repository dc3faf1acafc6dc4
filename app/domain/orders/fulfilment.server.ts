import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import { queryByHand, type Database, type Transaction } from "#app/db/client.server.ts";
import { customers, orderItems, orders, paymentEvents } from "#app/db/schema.ts";
import { ordersReference } from "#app/domain/stock/ledger.server.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import { orderConfirmationMessage } from "#app/emails/order-emails.ts";
import { getEnv } from "#app/lib/env.server.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import { isPickup, shippingOption } from "#app/lib/shipping.ts";
import { compareLines, type OrderLine } from "./checkout-input.ts";
import { findShortages, reserveStock, returnStock, type Shortage } from "./stock.server.ts";

type OrderRow = typeof orders.$inferSelect;

async function orderLines(tx: Transaction, orderIds: number[]) {
  const lines = await tx
    .select({
      orderId: orderItems.orderId,
      productType: orderItems.productType,
      serialNo: orderItems.productSerialNo,
      title: orderItems.title,
      quantity: orderItems.quantity,
      unitPriceCents: orderItems.unitPriceCents,
    })
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds));
  return lines.sort(compareLines);
}

/** Records the payment session an unpaid order is being paid through; false if not pending. */
export async function recordPaymentSession(
  db: Database | Transaction,
  input: { orderId: number; provider: string; sessionId: string; url?: string; expiresAt: Date },
): Promise<boolean> {
  // The stock is held as long as the session can still be paid; the expiry sweep releases it
  // after that (a payment arriving later still counts: see markOrderPaid).
  const rows = await db
    .update(orders)
    .set({
      paymentProvider: input.provider,
      paymentSessionId: input.sessionId,
      paymentSessionUrl: input.url ?? null,
      paymentExpiresAt: input.expiresAt,
      updatedAt: new Date(),
    })
    .where(and(eq(orders.id, input.orderId), eq(orders.status, "pending")))
    .returning({ id: orders.id });
  return rows.length === 1;
}

/**
 * The first payment session of an order just placed, recorded only if the order has none yet
 * (the caller holds no lock on it): false when a replay of the same checkout recorded one first.
 * One prepared statement, as every checkout runs it.
 */
export async function recordFirstPaymentSession(
  db: Database,
  input: { orderId: number; provider: string; sessionId: string; url: string; expiresAt: Date },
): Promise<boolean> {
  const { rowCount } = await queryByHand(db, {
    name: "record-first-payment-session",
    text: `update orders
              set payment_provider = $2, payment_session_id = $3, payment_session_url = $4,
                  payment_expires_at = $5, updated_at = $6
            where id = $1 and status = 'pending' and payment_session_id is null`,
    values: [
      input.orderId,
      input.provider,
      input.sessionId,
      input.url,
      input.expiresAt,
      new Date(),
    ],
  });
  return rowCount === 1;
}

export type PaymentConfirmation = {
  provider: string;
  /** The provider's event id; the same event handled twice changes nothing the second time. */
  eventId?: string;
  /** The provider's id of the payment (Stripe: the PaymentIntent), kept for refunds. */
  paymentReference?: string | null;
} & ({ orderId: number; paymentSessionId?: never } | { paymentSessionId: string; orderId?: never });

export type MarkPaidResult =
  /** `reReserved`: the payment came after the order had expired, and its stock was still there. */
  | { status: "paid"; orderId: number; reReserved: boolean }
  /** Already paid (or further along): nothing changed, nothing was sent. */
  | { status: "unchanged"; orderId: number; orderStatus: OrderStatus }
  /** Paid after its stock went back on sale and some is gone: the money must be refunded. */
  | { status: "needs-refund"; orderId: number; shortages: Shortage[] }
  | { status: "duplicate-event"; orderId: number }
  | { status: "provider-mismatch"; orderId: number }
  | { status: "not-found" };

/**
 * A confirmed payment (DESIGN §3.3, §3.12): in one transaction the order becomes `paid` and
 * its confirmation e-mail is queued, so either both happen or neither. The order row is locked
 * first, so concurrent confirmations of one order run one after the other, and only the first
 * finds it `pending`: replays and second events change nothing and send nothing.
 *
 * A payment for an order that was already released (`expired` or `cancelled`, its stock back on
 * sale) still counts if the stock can be taken again: the order becomes `paid`. If it cannot,
 * the order keeps its status and gets `paid_at`; that pair (released status + paid_at) marks a
 * payment the shop must refund, and the result says `needs-refund`.
 */
export async function markOrderPaid(
  db: Database,
  confirmation: PaymentConfirmation,
  options: { ordersUrl: string; now?: Date },
): Promise<MarkPaidResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(
        confirmation.orderId !== undefined
          ? eq(orders.id, confirmation.orderId)
          : eq(orders.paymentSessionId, confirmation.paymentSessionId),
      )
      .for("update");
    if (!order) return { status: "not-found" };
    if (order.paymentProvider && order.paymentProvider !== confirmation.provider) {
      return { status: "provider-mismatch", orderId: order.id };
    }
    if (confirmation.eventId !== undefined) {
      const [recorded] = await tx
        .insert(paymentEvents)
        .values({
          provider: confirmation.provider,
          eventId: confirmation.eventId,
          orderId: order.id,
          receivedAt: now,
        })
        .onConflictDoNothing()
        .returning({ eventId: paymentEvents.eventId });
      if (!recorded) return { status: "duplicate-event", orderId: order.id };
    }

    if (order.status === "expired" || order.status === "cancelled") {
      const lines = await orderLines(tx, [order.id]);
      // The shop cancelled it (cancelled_at): a late payment does not revive it, it is refunded.
      if (order.cancelledAt && !order.paidAt) {
        await tx
          .update(orders)
          .set({
            paidAt: now,
            paymentProvider: confirmation.provider,
            paymentReference: confirmation.paymentReference ?? order.paymentReference,
            updatedAt: now,
          })
          .where(eq(orders.id, order.id));
        return { status: "needs-refund", orderId: order.id, shortages: [] };
      }
      if (order.paidAt) {
        return {
          status: "needs-refund",
          orderId: order.id,
          shortages: await findShortages(tx, lines, titlesOf(lines)),
        };
      }
      const failed = await reserveAgain(tx, order.id, lines);
      if (failed) {
        await tx
          .update(orders)
          .set({
            paidAt: now,
            paymentProvider: confirmation.provider,
            paymentReference: confirmation.paymentReference ?? order.paymentReference,
            updatedAt: now,
          })
          .where(eq(orders.id, order.id));
        return {
          status: "needs-refund",
          orderId: order.id,
          shortages: await findShortages(tx, lines, titlesOf(lines), failed),
        };
      }
      await confirm(tx, order, lines, confirmation, now, options.ordersUrl);
      return { status: "paid", orderId: order.id, reReserved: true };
    }
    if (order.status !== "pending") {
      return { status: "unchanged", orderId: order.id, orderStatus: order.status };
    }
    const lines = await orderLines(tx, [order.id]);
    await confirm(tx, order, lines, confirmation, now, options.ordersUrl);
    return { status: "paid", orderId: order.id, reReserved: false };
  });
}

const titlesOf = (lines: { productType: string; serialNo: number; title: string }[]) =>
  new Map(lines.map((line) => [`${line.productType}:${line.serialNo}`, line.title]));

class StockGone extends Error {
  readonly line: OrderLine;
  constructor(line: OrderLine) {
    super("stock gone");
    this.line = line;
  }
}

/** Takes a released order's stock again, inside a savepoint; the line that failed, if any. */
async function reserveAgain(
  tx: Transaction,
  orderId: number,
  lines: OrderLine[],
): Promise<OrderLine | undefined> {
  try {
    await tx.transaction(async (savepoint) => {
      const reserved = await reserveStock(savepoint, lines, {
        reason: "web_sale",
        reference: ordersReference([orderId]),
      });
      if (!reserved.ok) throw new StockGone(reserved.failed);
    });
    return undefined;
  } catch (error) {
    if (error instanceof StockGone) return error.line;
    throw error;
  }
}

async function confirm(
  tx: Transaction,
  order: OrderRow,
  lines: Awaited<ReturnType<typeof orderLines>>,
  confirmation: PaymentConfirmation,
  now: Date,
  ordersUrl: string,
) {
  await tx
    .update(orders)
    .set({
      status: "paid",
      paidAt: now,
      paymentProvider: confirmation.provider,
      paymentReference: confirmation.paymentReference ?? order.paymentReference,
      updatedAt: now,
    })
    .where(eq(orders.id, order.id));
  const message = orderConfirmationMessage({
    orderNumber: order.id,
    name: order.shippingName,
    placedAt: order.createdAt,
    timeZone: getEnv().SHOP_TIME_ZONE,
    lines,
    shippingMethodName: shippingOption(order.shippingMethod).name,
    pickup: isPickup(order.shippingMethod),
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    address: {
      name: order.shippingName,
      address: order.shippingAddress,
      city: order.shippingCity,
      state: order.shippingState,
      postalCode: order.shippingPostalCode,
    },
    ordersUrl,
  });
  await queueMail({ to: await orderMailRecipient(tx, order.userId), ...message }, { tx });
}

/**
 * Where an order's e-mails go: the account's own address, which signing in proved. The e-mail
 * typed at checkout is only the parcel's contact: mail there would carry the shipping name and
 * address typed by whoever placed the order to an address nobody proved (docs/security.md).
 */
export async function orderMailRecipient(tx: Transaction, userId: string): Promise<string> {
  const [account] = await tx
    .select({ email: customers.email })
    .from(customers)
    .where(eq(customers.id, userId));
  if (!account) throw new Error(`The account of an order (${userId}) has no customer profile.`);
  return account.email;
}

export type ReleaseResult =
  | { released: true; orderId: number; status: "expired" | "cancelled" }
  /** Not pending (already paid, released before, ...): nothing changed. */
  | { released: false; orderId: number; status: OrderStatus | null };

/**
 * An unpaid order's payment session expired, was cancelled or failed: the order leaves
 * `pending` and its stock goes back on sale, exactly once. The status change is conditional
 * and in the same transaction as the stock, so of two concurrent callers only one returns it;
 * a paid order is never released.
 */
export async function releaseOrder(
  db: Database,
  input: {
    orderId: number;
    reason: "expired" | "cancelled";
    /** Only if no payment page was ever recorded for it (one may be open in another tab). */
    onlyWithoutSession?: boolean;
  },
  options: { now?: Date } = {},
): Promise<ReleaseResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [released] = await tx
      .update(orders)
      .set({ status: input.reason, updatedAt: now })
      .where(
        and(
          eq(orders.id, input.orderId),
          eq(orders.status, "pending"),
          input.onlyWithoutSession ? isNull(orders.paymentSessionId) : undefined,
        ),
      )
      .returning({ id: orders.id });
    if (!released) {
      const [current] = await tx
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.id, input.orderId));
      return { released: false, orderId: input.orderId, status: current?.status ?? null };
    }
    await returnStock(tx, await orderLines(tx, [input.orderId]), {
      reason: "released",
      reference: ordersReference([input.orderId]),
    });
    return { released: true, orderId: input.orderId, status: input.reason };
  });
}

/**
 * Releases every unpaid order whose payment window has closed, in batches. Safe to run from
 * several processes at once: each batch locks its orders with SKIP LOCKED, so processes share
 * the work instead of waiting on (or releasing twice) the same orders.
 */
export async function expireStaleOrders(
  db: Database,
  now: Date,
  options: { batchSize?: number } = {},
): Promise<{ expired: number[] }> {
  const batchSize = options.batchSize ?? 100;
  const expired: number[] = [];
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const stale = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.status, "pending"), lte(orders.paymentExpiresAt, now)))
        .orderBy(asc(orders.paymentExpiresAt))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      const ids = stale.map((row) => row.id);
      if (ids.length === 0) return ids;
      await tx
        .update(orders)
        .set({ status: "expired", updatedAt: now })
        .where(inArray(orders.id, ids));
      // All the batch's lines at once, summed per product and in the fixed order (no deadlocks).
      await returnStock(tx, await orderLines(tx, ids), {
        reason: "released",
        reference: ordersReference(ids),
      });
      return ids;
    });
    expired.push(...batch);
    if (batch.length < batchSize) return { expired };
  }
}
