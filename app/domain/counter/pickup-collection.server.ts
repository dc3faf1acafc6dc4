import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { orderItems, orders } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { readPickupCode } from "#app/domain/orders/pickup-code.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import { refuse, type Refusal, type Result } from "#app/lib/reply.server.ts";
import { idCheckRefusal } from "./id-check.server.ts";

// Pickup orders at the counter (decision 023, point 8): found by the code the customer was
// e-mailed, or by their name and order number; handed over with the ID check adult titles need,
// which completes the order. The money was taken online: the Z report counts them apart.

export type PickupOrder = {
  id: number;
  status: OrderStatus;
  name: string;
  email: string;
  totalCents: number;
  readyAt: Date | null;
  collectedAt: Date | null;
  collectedByName: string | null;
  lines: { title: string; quantity: number; productType: "regular" | "adult" }[];
  hasAdult: boolean;
};

export type PickupSearch = { code: string } | { orderNumber: number; name: string };

const pickupColumns = {
  id: orders.id,
  status: orders.status,
  name: orders.shippingName,
  email: orders.shippingEmail,
  totalCents: orders.totalCents,
  readyAt: orders.readyForPickupAt,
  collectedAt: orders.collectedAt,
  collectedByName: orders.collectedByName,
};

/** A name as people type it: case, and spaces around and between words, do not matter. */
const sameName = (typed: string) =>
  sql`lower(regexp_replace(btrim(${orders.shippingName}), '\\s+', ' ', 'g')) = ${typed.trim().replace(/\s+/g, " ").toLowerCase()}`;

async function linesOf(db: Database | Transaction, orderId: number) {
  return db
    .select({
      title: orderItems.title,
      quantity: orderItems.quantity,
      productType: orderItems.productType,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productType), asc(orderItems.productSerialNo));
}

/** Pickup orders only, among those `where` finds. */
const pickupOrder = (where: SQL | undefined) => and(where, eq(orders.fulfilment, "pickup"));

/**
 * The pickup code a code typed or scanned at the counter is, when it is a pickup order's; null
 * otherwise. What the counter's scan field asks before searching products by name.
 */
export async function pickupCodeOf(db: Database, typed: string): Promise<string | null> {
  const code = readPickupCode(typed);
  if (!code) return null;
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(pickupOrder(eq(orders.pickupCode, code)));
  return row ? code : null;
}

/** The pickup order this code, or this name and order number, belong to. */
export async function findPickup(
  db: Database,
  search: PickupSearch,
): Promise<Result<{ order: PickupOrder }, "not-found" | "invalid">> {
  let where;
  if ("code" in search) {
    const code = readPickupCode(search.code);
    if (!code) return refuse("invalid", "A pickup code is 8 letters and digits.", "code");
    where = eq(orders.pickupCode, code);
  } else {
    where = and(eq(orders.id, search.orderNumber), sameName(search.name));
  }
  const [row] = await db.select(pickupColumns).from(orders).where(pickupOrder(where));
  if (!row) {
    return "code" in search
      ? refuse("not-found", "No order has this pickup code. Check it, or search by name.", "code")
      : refuse(
          "not-found",
          `No pickup order #${search.orderNumber} in that name. Check both.`,
          "orderNumber",
        );
  }
  const lines = await linesOf(db, row.id);
  const order = { ...row, lines, hasAdult: lines.some((line) => line.productType === "adult") };
  return { ok: true, message: `Order #${row.id}`, order };
}

/** Why this pickup order cannot be handed over now; null when it can. */
export function collectionRefusal(order: {
  id: number;
  status: OrderStatus;
  readyAt: Date | null;
  collectedAt: Date | null;
}): Refusal<"conflict"> | null {
  if (order.collectedAt) return refuse("conflict", `Order #${order.id} was collected already.`);
  if (order.status !== "paid") {
    return refuse(
      "conflict",
      `Order #${order.id} is ${order.status}, not paid: it cannot be handed over.`,
    );
  }
  if (!order.readyAt) {
    return refuse(
      "conflict",
      `Order #${order.id} is not ready for pickup yet: it must be marked ready first.`,
    );
  }
  return null;
}

/**
 * Hands a pickup order over: who and when, the ID check when it has adult titles (the counter's
 * rule), and the order completed, all in one transaction under the order's lock, so of two
 * clerks pressing at once one hands it over and the other is told it was collected.
 */
export async function collectPickup(
  db: Database,
  input: { orderId: number; idCheckBirthDate: string | null },
  options: { staff: Staff; timeZone: string; now?: Date },
): Promise<Result<object, "not-found" | "conflict" | "invalid">> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select(pickupColumns)
      .from(orders)
      .where(and(eq(orders.id, input.orderId), eq(orders.fulfilment, "pickup")))
      .for("update");
    if (!order) return refuse("not-found", `There is no pickup order #${input.orderId}.`);
    const refusal = collectionRefusal(order);
    if (refusal) return refusal;
    const hasAdult = (await linesOf(tx, order.id)).some((line) => line.productType === "adult");
    if (hasAdult) {
      const idRefusal = idCheckRefusal(
        input.idCheckBirthDate,
        now,
        options.timeZone,
        "handed over",
      );
      if (idRefusal) return idRefusal;
    }
    await withActor(tx, options.staff, "Collected at the counter");
    await tx
      .update(orders)
      .set({
        status: "completed",
        completedAt: now,
        collectedAt: now,
        collectedById: options.staff.id,
        collectedByName: options.staff.name,
        collectedIdCheckBirthDate: hasAdult ? input.idCheckBirthDate : null,
        updatedAt: now,
      })
      .where(eq(orders.id, order.id));
    return { ok: true, message: `Order #${order.id} handed over to ${order.name}.` };
  });
}
