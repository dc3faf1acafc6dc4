import { and, eq, isNull } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { orderItems, orders } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import { orderReadyForPickupMessage, PICKUP_QR_CID } from "#app/emails/order-emails.ts";
import { qrPng } from "#app/lib/qr-image.server.ts";
import { refuse, type Result } from "#app/lib/reply.server.ts";
import { orderMailRecipient } from "./fulfilment.server.ts";
import { newPickupCode } from "./pickup-code.ts";

// Pickup orders (decision 023, point 8): paid online, marked ready by staff, who e-mail the
// customer a code; collected at the counter (domain/counter/pickup-collection.server.ts).

/** A new code clashing with a kept one is all but impossible; a few draws settle it. */
const CODE_DRAWS = 5;

export type ReadyForPickupResult = Result<{ pickupCode: string }, "not-found" | "conflict">;

/** Why this order cannot be marked ready now. */
async function whyNotReady(tx: Transaction, orderId: number) {
  const [order] = await tx
    .select({
      status: orders.status,
      fulfilment: orders.fulfilment,
      readyAt: orders.readyForPickupAt,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return refuse("not-found", `There is no order #${orderId}.`);
  if (order.fulfilment !== "pickup") {
    return refuse("conflict", `Order #${orderId} is shipped, not picked up at the store.`);
  }
  if (order.readyAt) return refuse("conflict", `Order #${orderId} is ready for pickup already.`);
  return refuse(
    "conflict",
    `Order #${orderId} is ${order.status}; only paid orders can be made ready for pickup.`,
  );
}

async function hasAdultTitles(tx: Transaction, orderId: number) {
  const [adult] = await tx
    .select({ orderId: orderItems.orderId })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.productType, "adult")))
    .limit(1);
  return adult !== undefined;
}

/**
 * A paid pickup order is ready at the counter: it gets its code, and the customer's e-mail with
 * the code and its QR image is queued in the same transaction. Conditional on being paid and not
 * ready yet, so of two staff pressing at once one marks it and the other is told.
 */
export async function markReadyForPickup(
  db: Database,
  input: { orderId: number },
  options: { staff: Staff; ordersUrl: string; now?: Date },
): Promise<ReadyForPickupResult> {
  const now = options.now ?? new Date();
  for (let draw = 1; ; draw++) {
    const pickupCode = newPickupCode();
    const qr = await qrPng(pickupCode);
    try {
      return await db.transaction(async (tx): Promise<ReadyForPickupResult> => {
        await withActor(tx, options.staff, "Ready for pickup");
        const [ready] = await tx
          .update(orders)
          .set({ pickupCode, readyForPickupAt: now, updatedAt: now })
          .where(
            and(
              eq(orders.id, input.orderId),
              eq(orders.status, "paid"),
              eq(orders.fulfilment, "pickup"),
              isNull(orders.readyForPickupAt),
            ),
          )
          .returning({ name: orders.shippingName, userId: orders.userId });
        if (!ready) return whyNotReady(tx, input.orderId);
        const message = orderReadyForPickupMessage({
          orderNumber: input.orderId,
          name: ready.name,
          pickupCode,
          hasAdultTitles: await hasAdultTitles(tx, input.orderId),
          ordersUrl: options.ordersUrl,
        });
        const image = {
          filename: "pickup-code.png",
          content: qr.toString("base64"),
          encoding: "base64" as const,
          contentType: "image/png",
          cid: PICKUP_QR_CID,
        };
        await queueMail(
          { to: await orderMailRecipient(tx, ready.userId), ...message, attachments: [image] },
          { tx },
        );
        return {
          ok: true,
          pickupCode,
          message: `Order #${input.orderId} is ready for pickup; the customer was e-mailed code ${pickupCode}.`,
        };
      });
    } catch (error) {
      const clash = (error as { constraint?: string }).constraint === "orders_pickup_code";
      if (!clash || draw === CODE_DRAWS) throw error;
    }
  }
}
