// Returns: the customer's request, staff receiving the parcel, the refund or the rejection.
// Every change is one transaction with its e-mail; its history is written into the order's by
// the database (migration 0021); each change is conditional on the status it starts from, so of
// two staff acting at once exactly one wins and the other is told. A refund is claimed before
// the provider is asked, so two clicks refund once; its record, its restock and its e-mail are
// one transaction.
import { and, asc, count, desc, eq, inArray, isNotNull, ne, or, sql, type SQL } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import {
  orderEvents,
  orderItems,
  orders,
  orderSearchText,
  returnItems,
  returns,
} from "#app/db/schema.ts";
import { countUpTo, COUNT_CAP, pageWindow } from "#app/domain/admin/lists.server.ts";
import { containsPattern } from "#app/domain/catalog/search-text.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import { compareLines } from "#app/domain/orders/checkout-input.ts";
import { orderMailRecipient } from "#app/domain/orders/fulfilment.server.ts";
import type { ProviderLookup } from "#app/domain/payments/provider.server.ts";
import { returnStock } from "#app/domain/orders/stock.server.ts";
import {
  returnRefundedMessage,
  returnRejectedMessage,
  returnRequestedMessage,
} from "#app/emails/return-emails.ts";
import type { ProductType } from "#app/lib/catalog.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { refuse, type Refusal, type Result } from "#app/lib/reply.server.ts";
import {
  addDays,
  formatShopLongDate,
  shopCalendarDate,
  wallTimeToInstant,
} from "#app/lib/shop-time.ts";
import { orderLedger, type LedgerOrder, type OrderLedger } from "./ledger.ts";
import { lineField } from "./return-input.ts";
import type { ReturnRequestInput } from "./return-input.ts";
import {
  addRefund,
  NO_REFUNDS,
  postagePromise,
  refundAmount,
  type EarlierRefunds,
  type RefundAmount,
  type RefundPolicy,
} from "./refund-amount.ts";
import {
  OPEN_RETURN_STATUSES,
  parseReturnLabel,
  returnLabel,
  type LineCondition,
  type ReturnStatus,
} from "./status.ts";

export type ReturnsConfig = RefundPolicy & {
  /** Days after shipping during which a return can be asked for. */
  windowDays: number;
};

/** `refund-failed`: the provider refused or could not be reached; the return stays received. */
/** `forbidden`: a clerk's refund above the counter's limit, which only an admin may make. */
export type ReturnFailure = Refusal<
  "not-found" | "conflict" | "invalid" | "refund-failed" | "forbidden"
>;
export type ReturnResult<T = object> = Result<T, ReturnFailure["reason"]>;

export type Return = typeof returns.$inferSelect;

/** A refund claimed this long ago without an outcome is taken to have died with its process. */
const REFUND_CLAIM_MS = 2 * 60_000;

const notFound = (number: number) =>
  refuse("not-found", `There is no return ${returnLabel(number)}.`);

const conflict = (message: string) => refuse("conflict", message);

const lineKey = (line: { productType: string; serialNo: number }) =>
  `${line.productType}:${line.serialNo}`;

/**
 * The last moment a return can be asked for: the end of the shop's day (SHOP_TIME_ZONE)
 * `windowDays` days after the day it shipped, as "within 30 days" reads.
 */
export function returnWindowEnd(shippedAt: Date, windowDays: number, timeZone: string): Date {
  const closingDay = addDays(shopCalendarDate(shippedAt, timeZone), windowDays + 1);
  const nextDayStarts = wallTimeToInstant(closingDay, "00:00", timeZone);
  // Midnight skipped by a clock change (a few zones do): an hour later is the same day's start.
  const start = nextDayStarts ?? wallTimeToInstant(closingDay, "01:00", timeZone)!;
  return new Date(start.getTime() - 1);
}

export type ReturnableLine = {
  productType: ProductType;
  serialNo: number;
  title: string;
  /** As sold. */
  quantity: number;
  unitPriceCents: number;
  /** How many are in returns already (rejected ones do not count). */
  inReturns: number;
  /** How many can still be returned. */
  returnable: number;
};

export type Eligibility = {
  /** Why nothing can be returned; null when something can. */
  why: string | null;
  windowEndsAt: Date | null;
  lines: ReturnableLine[];
};

type OrderRow = typeof orders.$inferSelect;

/** What of an order can be returned now, and if nothing, why (in the customer's words). */
async function eligibilityOf(
  db: Database | Transaction,
  order: OrderRow,
  now: Date,
  config: ReturnsConfig & { timeZone: string },
): Promise<Eligibility> {
  // One after the other: inside a transaction they share one connection.
  const sold = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
  const returned = await db
    .select({
      productType: returnItems.productType,
      serialNo: returnItems.productSerialNo,
      quantity: sql<number>`sum(${returnItems.quantity})::int`,
    })
    .from(returnItems)
    .innerJoin(returns, eq(returns.number, returnItems.returnNumber))
    .where(and(eq(returns.orderId, order.id), ne(returns.status, "rejected")))
    .groupBy(returnItems.productType, returnItems.productSerialNo);
  const inReturns = new Map(returned.map((line) => [lineKey(line), line.quantity]));
  const lines = sold
    .map((line) => {
      const already = inReturns.get(lineKey({ ...line, serialNo: line.productSerialNo })) ?? 0;
      return {
        productType: line.productType,
        serialNo: line.productSerialNo,
        title: line.title,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        inReturns: already,
        returnable: Math.max(0, line.quantity - already),
      };
    })
    .sort(compareLines);
  return { ...whyNoReturn(order, lines, now, config), lines };
}

/**
 * Whether anything of an order can be returned now: shipped or completed, within the window
 * from the day it shipped (a pickup order: the day it was collected), and something not already
 * in a return. `why` says it in the customer's words when not.
 */
export function whyNoReturn(
  order: Pick<OrderRow, "status" | "shippedAt" | "collectedAt">,
  lines: readonly { returnable: number }[],
  now: Date,
  config: ReturnsConfig & { timeZone: string },
): { why: string | null; windowEndsAt: Date | null } {
  const handedOver = order.shippedAt ?? order.collectedAt;
  const windowEndsAt = handedOver
    ? returnWindowEnd(handedOver, config.windowDays, config.timeZone)
    : null;
  let why: string | null = null;
  if (!windowEndsAt || (order.status !== "shipped" && order.status !== "completed")) {
    why = "Items can be returned once the order has shipped.";
  } else if (now > windowEndsAt) {
    why = `The ${config.windowDays}-day return window for this order closed on ${formatShopLongDate(windowEndsAt, config.timeZone)}.`;
  } else if (lines.every((line) => line.returnable === 0)) {
    why = "Every item of this order is already in a return.";
  }
  return { why, windowEndsAt };
}

/** The customer's own order and what of it can be returned; null if not theirs. */
export async function returnableOrder(
  db: Database,
  userId: string,
  orderId: number,
  options: { now?: Date; config: ReturnsConfig & { timeZone: string } },
) {
  if (!Number.isSafeInteger(orderId) || orderId < 1) return null;
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) return null;
  const [eligibility, promised] = await Promise.all([
    eligibilityOf(db, order, options.now ?? new Date(), options.config),
    postagePromisedToOthers(db, order.id),
  ]);
  return {
    order,
    ...eligibility,
    /** What a return sent by mail would be promised toward its postage, asked for now. */
    postageOfferCents: postagePromise(order, promised, options.config),
  };
}

/** What the order's returns (but rejected ones) were promised toward postage. */
async function postagePromisedToOthers(db: Database | Transaction, orderId: number) {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${returns.postagePromisedCents}), 0)::int` })
    .from(returns)
    .where(and(eq(returns.orderId, orderId), ne(returns.status, "rejected")));
  return row?.total ?? 0;
}

/**
 * The customer asks to return some lines of their order. One transaction locks the order (so two
 * requests at once cannot return one disc twice), checks the window and each quantity against
 * what is left to return, records the return at the prices paid and queues the instructions.
 */
export async function requestReturn(
  db: Database,
  input: ReturnRequestInput & { userId: string; orderId: number },
  options: { now?: Date; config: ReturnsConfig & { timeZone: string }; ordersUrl: string },
): Promise<ReturnResult<{ number: number }>> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<ReturnResult<{ number: number }>> => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, input.orderId), eq(orders.userId, input.userId)))
      .for("update");
    if (!order) {
      return refuse("not-found", `There is no order #${input.orderId}.`);
    }
    const { why, lines } = await eligibilityOf(tx, order, now, options.config);
    if (why) return conflict(why);
    const byKey = new Map(lines.map((line) => [lineKey(line), line]));
    const chosen = [];
    for (const wanted of input.lines) {
      const line = byKey.get(lineKey(wanted));
      if (!line) {
        return refuse("invalid", "That item is not part of this order.");
      }
      if (wanted.quantity > line.returnable) {
        return refuse(
          "invalid",
          line.returnable === 0
            ? `"${line.title}" is already in a return.`
            : `You can return at most ${line.returnable} of "${line.title}".`,
          lineField(line.productType, line.serialNo),
        );
      }
      chosen.push({ ...line, quantity: wanted.quantity });
    }
    // Under the order's lock, so two requests at once cannot both be promised the same postage.
    const postagePromisedCents =
      input.method === "mail"
        ? postagePromise(order, await postagePromisedToOthers(tx, order.id), options.config)
        : 0;
    await withActor(tx, null);
    const [created] = await tx
      .insert(returns)
      .values({
        orderId: order.id,
        reason: input.reason,
        note: input.note,
        method: input.method,
        postagePromisedCents,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ number: returns.number });
    const number = created!.number;
    await tx.insert(returnItems).values(
      chosen.map((line) => ({
        returnNumber: number,
        productType: line.productType,
        productSerialNo: line.serialNo,
        title: line.title,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
      })),
    );
    const label = returnLabel(number);
    const message = returnRequestedMessage({
      label,
      orderNumber: order.id,
      name: order.shippingName,
      ordersUrl: options.ordersUrl,
      method: input.method,
      postageCents: postagePromisedCents,
      lines: chosen,
    });
    await queueMail({ to: await orderMailRecipient(tx, order.userId), ...message }, { tx });
    return {
      ok: true,
      number,
      message: `Your return ${label} is requested. We have e-mailed you the instructions.`,
    };
  });
}

export type ReturnSummary = {
  number: number;
  label: string;
  orderId: number;
  status: ReturnStatus;
  reason: string;
  method: Return["method"];
  rejectionReason: string | null;
  refundCents: number | null;
  refundPostageCents: number | null;
  postagePromisedCents: number;
  createdAt: Date;
  refundedAt: Date | null;
  lines: { productType: ProductType; serialNo: number; title: string; quantity: number }[];
};

/** The returns of these orders, oldest first per order, with their lines (two queries). */
export async function returnsOfOrders(
  db: Database,
  orderIds: readonly number[],
): Promise<Map<number, ReturnSummary[]>> {
  const result = new Map<number, ReturnSummary[]>();
  if (orderIds.length === 0) return result;
  const rows = await db
    .select()
    .from(returns)
    .where(inArray(returns.orderId, [...orderIds]))
    .orderBy(asc(returns.number));
  if (rows.length === 0) return result;
  const lines = await db
    .select()
    .from(returnItems)
    .where(
      inArray(
        returnItems.returnNumber,
        rows.map((row) => row.number),
      ),
    );
  for (const row of rows) {
    const list = result.get(row.orderId) ?? [];
    list.push({
      number: row.number,
      label: returnLabel(row.number),
      orderId: row.orderId,
      status: row.status,
      reason: row.reason,
      method: row.method,
      rejectionReason: row.rejectionReason,
      refundCents: row.refundCents,
      refundPostageCents: row.refundPostageCents,
      postagePromisedCents: row.postagePromisedCents,
      createdAt: row.createdAt,
      refundedAt: row.refundedAt,
      lines: lines
        .filter((line) => line.returnNumber === row.number)
        .map((line) => ({
          productType: line.productType,
          serialNo: line.productSerialNo,
          title: line.title,
          quantity: line.quantity,
        }))
        .sort(compareLines),
    });
    result.set(row.orderId, list);
  }
  return result;
}

async function lockReturn(tx: Transaction, number: number) {
  const [row] = await tx.select().from(returns).where(eq(returns.number, number)).for("update");
  return row ?? null;
}

/**
 * The parcel is at the shop: staff say of each line whether it goes back to stock or is
 * damaged. Nothing goes back on sale yet: that happens with the refund, in its transaction.
 */
export async function receiveReturn(
  db: Database,
  input: {
    number: number;
    conditions: readonly { productType: string; serialNo: number; condition: LineCondition }[];
  },
  options: { staff: Staff; now?: Date },
): Promise<ReturnResult> {
  const now = options.now ?? new Date();
  const label = returnLabel(input.number);
  return db.transaction(async (tx): Promise<ReturnResult> => {
    const row = await lockReturn(tx, input.number);
    if (!row) return notFound(input.number);
    if (row.status !== "requested") {
      return conflict(`${label} is ${row.status}; only a requested return can be received.`);
    }
    const items = await tx
      .select()
      .from(returnItems)
      .where(eq(returnItems.returnNumber, row.number));
    const conditions = new Map(input.conditions.map((line) => [lineKey(line), line.condition]));
    for (const item of items) {
      const condition = conditions.get(lineKey({ ...item, serialNo: item.productSerialNo }));
      if (!condition) {
        return refuse("invalid", `Please say whether "${item.title}" goes back to stock.`);
      }
      await tx
        .update(returnItems)
        .set({ condition })
        .where(
          and(
            eq(returnItems.returnNumber, row.number),
            eq(returnItems.productType, item.productType),
            eq(returnItems.productSerialNo, item.productSerialNo),
          ),
        );
    }
    const damaged = items.filter(
      (item) => conditions.get(lineKey({ ...item, serialNo: item.productSerialNo })) === "damaged",
    );
    await withActor(
      tx,
      options.staff,
      damaged.length > 0 ? `Damaged: ${damaged.map((item) => item.title).join(", ")}` : "",
    );
    await tx
      .update(returns)
      .set({ status: "received", receivedAt: now, updatedAt: now })
      .where(eq(returns.number, row.number));
    return { ok: true, message: `${label} is received. It can be refunded now.` };
  });
}

/** Staff refuse a return (requested or received, not while a refund is under way). */
export async function rejectReturn(
  db: Database,
  input: { number: number; reason: string },
  options: { staff: Staff; now?: Date; ordersUrl: string },
): Promise<ReturnResult> {
  const now = options.now ?? new Date();
  const label = returnLabel(input.number);
  return db.transaction(async (tx): Promise<ReturnResult> => {
    const row = await lockReturn(tx, input.number);
    if (!row) return notFound(input.number);
    if (row.status !== "requested" && row.status !== "received") {
      return conflict(`${label} is ${row.status}; it can no longer be rejected.`);
    }
    if (row.refundStartedAt && now.getTime() - row.refundStartedAt.getTime() < REFUND_CLAIM_MS) {
      return conflict(`A refund of ${label} is under way; it cannot be rejected now.`);
    }
    await withActor(tx, options.staff, input.reason);
    await tx
      .update(returns)
      .set({
        status: "rejected",
        rejectionReason: input.reason,
        rejectedAt: now,
        refundStartedAt: null,
        refundGoodsCents: null,
        refundShippingCents: null,
        refundTaxCents: null,
        refundPostageCents: null,
        updatedAt: now,
      })
      .where(eq(returns.number, row.number));
    const [order] = await tx.select().from(orders).where(eq(orders.id, row.orderId));
    const message = returnRejectedMessage({
      label,
      orderNumber: row.orderId,
      name: order!.shippingName,
      ordersUrl: options.ordersUrl,
      reason: input.reason,
    });
    await queueMail({ to: await orderMailRecipient(tx, order!.userId), ...message }, { tx });
    return { ok: true, message: `${label} is rejected; the customer is told why.` };
  });
}

/** The parts of a refund kept on a return's row: null until one is claimed. */
function keptRefund(row: Return): RefundAmount | null {
  if (
    row.refundGoodsCents === null ||
    row.refundShippingCents === null ||
    row.refundTaxCents === null ||
    row.refundPostageCents === null
  ) {
    return null;
  }
  const parts = {
    goodsCents: row.refundGoodsCents,
    shippingCents: row.refundShippingCents,
    taxCents: row.refundTaxCents,
    postageCents: row.refundPostageCents,
  };
  return {
    ...parts,
    totalCents: parts.goodsCents + parts.shippingCents + parts.taxCents + parts.postageCents,
  };
}

/**
 * What the order's other returns gave back or are giving back: refunded, or claimed with their
 * amounts kept and the provider being asked (see `refundReturn`).
 */
async function otherRefunds(db: Database | Transaction, row: Return): Promise<EarlierRefunds> {
  const others = (
    await db
      .select()
      .from(returns)
      .where(
        and(
          eq(returns.orderId, row.orderId),
          ne(returns.number, row.number),
          or(
            eq(returns.status, "refunded"),
            and(eq(returns.status, "received"), isNotNull(returns.refundStartedAt)),
          ),
        ),
      )
  ).flatMap((other) => {
    const kept = keptRefund(other);
    return kept ? [{ number: other.number, kept }] : [];
  });
  if (others.length === 0) return NO_REFUNDS;
  const items = await db
    .select()
    .from(returnItems)
    .where(
      inArray(
        returnItems.returnNumber,
        others.map((other) => other.number),
      ),
    );
  return others.reduce(
    (earlier, other) =>
      addRefund(
        earlier,
        other.kept,
        items
          .filter((item) => item.returnNumber === other.number)
          .map((item) => ({
            key: lineKey({ ...item, serialNo: item.productSerialNo }),
            quantity: item.quantity,
          })),
      ),
    NO_REFUNDS,
  );
}

/**
 * What refunding this return gives back now, from the order and its other refunds; a return
 * whose refund is claimed or made gives back what was kept for it.
 */
export async function refundFor(
  db: Database | Transaction,
  row: Return,
  config: Pick<RefundPolicy, "shipping">,
  others?: EarlierRefunds,
): Promise<RefundAmount> {
  const kept = keptRefund(row);
  if (kept) return kept;
  // One after the other: inside a transaction they share one connection.
  const [order] = await db.select().from(orders).where(eq(orders.id, row.orderId));
  const sold = await db.select().from(orderItems).where(eq(orderItems.orderId, row.orderId));
  const items = await db.select().from(returnItems).where(eq(returnItems.returnNumber, row.number));
  const earlier = others ?? (await otherRefunds(db, row));
  return refundAmount(
    {
      subtotalCents: order!.subtotalCents,
      shippingCents: order!.shippingCents,
      taxCents: order!.taxCents,
      totalCents: order!.totalCents,
      lines: sold.map((line) => ({
        key: lineKey({ ...line, serialNo: line.productSerialNo }),
        quantity: line.quantity,
      })),
    },
    items.map((item) => ({
      key: lineKey({ ...item, serialNo: item.productSerialNo }),
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
    })),
    earlier,
    { shipping: config.shipping, postagePromisedCents: row.postagePromisedCents },
  );
}

type Claim = { ok: true; row: Return; order: OrderRow; amount: RefundAmount };

/**
 * A refund above the most the staff member may refund (`refundCeiling`: a clerk's limit, none
 * for an admin), refused before anything is claimed; the web's returns and the counter's alike.
 */
export function refundOverLimit(
  label: string,
  refund: {
    amountCents: number;
    /** What was refunded on the same order or sale before: the limit holds for all together. */
    earlierCents: number;
    of: "order" | "sale";
  },
  limitCents: number | undefined,
): Refusal<"forbidden"> | null {
  const { amountCents, earlierCents } = refund;
  if (limitCents === undefined || amountCents + earlierCents <= limitCents) return null;
  const limit = formatUsd(limitCents);
  return refuse(
    "forbidden",
    earlierCents === 0
      ? `${label} would refund ${formatUsd(amountCents)}, more than the ${limit} a clerk may refund: an admin must make this refund.`
      : `${label} would refund ${formatUsd(amountCents)}, which with the ${formatUsd(earlierCents)} refunded before comes to more than the ${limit} a clerk may refund on one ${refund.of}: an admin must make this refund.`,
  );
}

/**
 * Claims a received return's refund: under the order's lock, so the refunds of an order's
 * returns are worked out one after the other and each counts the ones claimed before it, even
 * those whose provider has not answered yet. The amount is kept on the row with the claim. A
 * claim left by a process that died is taken over with the amount it kept, so the provider,
 * asked again under the same key, replays the same refund rather than refusing a changed one.
 */
async function claimRefund(
  db: Database,
  number: number,
  now: Date,
  config: Pick<RefundPolicy, "shipping">,
  limitCents: number | undefined,
): Promise<Claim | ReturnFailure> {
  const label = returnLabel(number);
  return db.transaction(async (tx): Promise<Claim | ReturnFailure> => {
    const [found] = await tx
      .select({ orderId: returns.orderId })
      .from(returns)
      .where(eq(returns.number, number));
    if (!found) return notFound(number);
    // `no key update`: claims of the order's returns queue behind each other, while the history
    // rows other transactions write for them (whose key check shares the order's row) do not.
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.id, found.orderId))
      .for("no key update");
    const row = await lockReturn(tx, number);
    if (!row || !order) return notFound(number);
    if (row.status === "refunded") return conflict(`${label} was already refunded.`);
    if (row.status !== "received") {
      return conflict(`${label} is ${row.status}; only a received return can be refunded.`);
    }
    if (row.refundStartedAt && now.getTime() - row.refundStartedAt.getTime() < REFUND_CLAIM_MS) {
      return conflict(`A refund of ${label} is already under way.`);
    }
    const earlier = await otherRefunds(tx, row);
    const amount = await refundFor(tx, row, config, earlier);
    const earlierCents =
      earlier.goodsCents + earlier.shippingCents + earlier.taxCents + earlier.postageCents;
    const left =
      (order.paidAt ? order.totalCents : 0) -
      (order.refundedAt ? order.totalCents : 0) -
      earlierCents;
    // Cannot happen by `refundAmount`'s arithmetic (its property tests); if it ever did, asking
    // the provider would only be refused.
    if (amount.totalCents > left) {
      return conflict(
        `${label} would refund ${formatUsd(amount.totalCents)}, more than the ${formatUsd(left)} left of the payment.`,
      );
    }
    const overLimit = refundOverLimit(
      label,
      { amountCents: amount.totalCents, earlierCents, of: "order" },
      limitCents,
    );
    if (overLimit) return overLimit;
    await tx
      .update(returns)
      .set({
        refundStartedAt: now,
        refundGoodsCents: amount.goodsCents,
        refundShippingCents: amount.shippingCents,
        refundTaxCents: amount.taxCents,
        refundPostageCents: amount.postageCents,
      })
      .where(eq(returns.number, number));
    return { ok: true, row, order, amount };
  });
}

/**
 * Refunds a received return through the order's provider. The claim comes first (see
 * `claimRefund`), so of two staff pressing Refund at once one asks the provider and the other is
 * told, and two returns of one order refunded at once are each worked out knowing the other. The
 * provider is asked under a key per return and attempt, so a retry after a crash replays the
 * same refund and a retry after a refusal asks afresh. Then one transaction records the refund,
 * puts the lines received in good condition back on sale and queues the customer's e-mail. A
 * refusal leaves the return received, with the provider's reason shown, to be tried again.
 */
export async function refundReturn(
  db: Database,
  input: { number: number },
  options: {
    staff: Staff;
    now?: Date;
    ordersUrl: string;
    providers: ProviderLookup;
    config: RefundPolicy;
    /** The most the staff member acting may refund (a clerk's limit); none for an admin. */
    limitCents?: number;
  },
): Promise<ReturnResult> {
  const now = options.now ?? new Date();
  const label = returnLabel(input.number);
  const claim = await claimRefund(db, input.number, now, options.config, options.limitCents);
  if (!claim.ok) return claim;
  const { row: claimed, order, amount } = claim;
  const refusal = async (message: string): Promise<ReturnFailure> => {
    await db
      .update(returns)
      .set({
        refundStartedAt: null,
        refundGoodsCents: null,
        refundShippingCents: null,
        refundTaxCents: null,
        refundPostageCents: null,
        refundError: message,
        refundAttempts: sql`${returns.refundAttempts} + 1`,
        updatedAt: now,
      })
      .where(and(eq(returns.number, input.number), eq(returns.status, "received")));
    return refuse(
      "refund-failed",
      `The refund did not go through (${message}). Try the refund again.`,
    );
  };
  const provider = order.paymentProvider ? options.providers(order.paymentProvider) : null;
  if (!provider) {
    return refusal(
      `the order was paid through ${order.paymentProvider ?? "no provider"}, which is not set up here`,
    );
  }
  let refund;
  try {
    refund = await provider.refundPayment({
      orderId: order.id,
      paymentReference: order.paymentReference,
      paymentSessionId: order.paymentSessionId,
      amountCents: amount.totalCents,
      idempotencyKey: `return-${claimed.number}-refund-${claimed.refundAttempts}`,
    });
  } catch (error) {
    return refusal(error instanceof Error ? error.message : String(error));
  }
  return db.transaction(async (tx): Promise<ReturnResult> => {
    await withActor(tx, options.staff, `Refund ${refund.id}: ${formatUsd(refund.amountCents)}`);
    const [refunded] = await tx
      .update(returns)
      .set({
        status: "refunded",
        refundGoodsCents: amount.goodsCents,
        refundShippingCents: amount.shippingCents,
        refundTaxCents: amount.taxCents,
        refundPostageCents: amount.postageCents,
        refundCents: amount.totalCents,
        refundReference: refund.id,
        refundError: null,
        refundStartedAt: null,
        refundedAt: now,
        updatedAt: now,
      })
      .where(and(eq(returns.number, claimed.number), eq(returns.status, "received")))
      .returning({ number: returns.number });
    if (!refunded) return conflict(`${label} was already refunded.`);
    const restock = await tx
      .select()
      .from(returnItems)
      .where(
        and(eq(returnItems.returnNumber, claimed.number), eq(returnItems.condition, "restock")),
      );
    await returnStock(
      tx,
      restock.map((item) => ({
        productType: item.productType,
        serialNo: item.productSerialNo,
        quantity: item.quantity,
      })),
      { reason: "returned", reference: label },
    );
    const ledger = (await ledgersOf(tx, [order])).get(order.id)!;
    const message = returnRefundedMessage({
      label,
      orderNumber: order.id,
      name: order.shippingName,
      ordersUrl: options.ordersUrl,
      refundCents: amount.totalCents,
      postageCents: amount.postageCents,
      ledger,
    });
    await queueMail({ to: await orderMailRecipient(tx, order.userId), ...message }, { tx });
    return { ok: true, message: `${label} was refunded: ${formatUsd(amount.totalCents)}.` };
  });
}

export type AdminReturnFilter = "open" | ReturnStatus | "all";

/**
 * What the back office's search finds a return by: its number ("RMA-1042", "rma1042"), its
 * order's number ("#1042"; a bare number may be either), or text in the order's name or e-mail
 * (the orders' trigram index). Null for an empty query.
 */
function returnSearch(query: string): SQL | null {
  const text = query.trim();
  if (!text) return null;
  const matches: SQL[] = [
    sql`${orderSearchText(orders)} like ${containsPattern(text.toLowerCase())}`,
  ];
  const orderNumber = /^#(\d{1,15})$/.exec(text);
  if (orderNumber) return eq(returns.orderId, Number(orderNumber[1]));
  const label = parseReturnLabel(text);
  if (label !== undefined) matches.push(eq(returns.number, label));
  if (/^\d{1,15}$/.test(text)) matches.push(eq(returns.orderId, Number(text)));
  return or(...matches)!;
}

/**
 * The back office's list: open returns first by age, or one status, newest first; with a search,
 * the matches of every status, newest first, counted up to COUNT_CAP as the other lists' are.
 */
export async function listReturnsForAdmin(
  db: Database,
  filter: AdminReturnFilter,
  page: { requested: number },
  query = "",
) {
  const search = returnSearch(query);
  const where = search
    ? search
    : filter === "all"
      ? undefined
      : filter === "open"
        ? inArray(returns.status, [...OPEN_RETURN_STATUSES])
        : eq(returns.status, filter);
  const counts = await returnCounts(db);
  const { total, capped } = search
    ? await countUpTo(
        db,
        db
          .select({ one: sql`1` })
          .from(returns)
          .innerJoin(orders, eq(orders.id, returns.orderId))
          .where(where)
          .limit(COUNT_CAP + 1)
          .as("matches"),
      )
    : {
        total:
          filter === "open"
            ? counts.open
            : filter === "all"
              ? counts.open + counts.refunded + counts.rejected
              : counts[filter],
        capped: false,
      };
  const window = pageWindow(total, page.requested);
  const rows = await db
    .select({
      number: returns.number,
      orderId: returns.orderId,
      status: returns.status,
      method: returns.method,
      reason: returns.reason,
      refundCents: returns.refundCents,
      refundError: returns.refundError,
      createdAt: returns.createdAt,
      name: orders.shippingName,
      email: orders.shippingEmail,
      items: sql<number>`(select coalesce(sum(${returnItems.quantity}), 0)::int from ${returnItems} where ${returnItems.returnNumber} = ${returns.number})`,
    })
    .from(returns)
    .innerJoin(orders, eq(orders.id, returns.orderId))
    .where(where)
    .orderBy(
      filter === "open" && !search ? asc(returns.createdAt) : desc(returns.createdAt),
      asc(returns.number),
    )
    .offset(window.offset)
    .limit(window.limit);
  return { rows, total, capped, counts, page: window.page, pageCount: window.pageCount };
}

/** Open returns by status, for the tabs and the dashboard. */
export async function returnCounts(db: Database) {
  const rows = await db
    .select({ status: returns.status, total: count() })
    .from(returns)
    .groupBy(returns.status);
  const counts = Object.fromEntries(rows.map((row) => [row.status, row.total])) as Partial<
    Record<ReturnStatus, number>
  >;
  return {
    requested: counts.requested ?? 0,
    received: counts.received ?? 0,
    refunded: counts.refunded ?? 0,
    rejected: counts.rejected ?? 0,
    open: (counts.requested ?? 0) + (counts.received ?? 0),
  };
}

/** A return with its lines and its order, for its back-office page; null if there is none. */
export async function getReturnForAdmin(db: Database, number: number, config: RefundPolicy) {
  if (!Number.isSafeInteger(number) || number < 1) return null;
  const [row] = await db.select().from(returns).where(eq(returns.number, number));
  if (!row) return null;
  const [[order], items, history] = await Promise.all([
    db.select().from(orders).where(eq(orders.id, row.orderId)),
    db.select().from(returnItems).where(eq(returnItems.returnNumber, number)),
    db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, row.orderId), eq(orderEvents.returnNumber, number)))
      .orderBy(asc(orderEvents.id)),
  ]);
  return {
    row,
    order: order!,
    history,
    items: items.map((item) => ({ ...item, serialNo: item.productSerialNo })).sort(compareLines),
    /** What a refund now would give back (what was kept, once claimed or refunded). */
    refund: await refundFor(db, row, config),
    ledger: (await ledgersOf(db, [order!])).get(order!.id)!,
  };
}

/**
 * The money ledger of each of these orders (see `orderLedger`): one query for their refunded
 * returns, for the orders export and the back office.
 */
export async function ledgersOf(
  db: Database | Transaction,
  list: readonly (LedgerOrder & { id: number })[],
): Promise<Map<number, OrderLedger>> {
  const rows =
    list.length === 0
      ? []
      : await db
          .select({
            orderId: returns.orderId,
            number: returns.number,
            status: returns.status,
            refundCents: returns.refundCents,
            refundPostageCents: returns.refundPostageCents,
            refundedAt: returns.refundedAt,
          })
          .from(returns)
          .where(
            and(
              inArray(
                returns.orderId,
                list.map((order) => order.id),
              ),
              eq(returns.status, "refunded"),
            ),
          );
  return new Map(
    list.map((order) => [
      order.id,
      orderLedger(
        order,
        rows.filter((row) => row.orderId === order.id),
      ),
    ]),
  );
}

/** The shop's returns policy, from its configuration. */
export function returnsConfig(): ReturnsConfig & { timeZone: string } {
  const env = getEnv();
  return {
    windowDays: env.RETURN_WINDOW_DAYS,
    shipping: env.RETURNS_REFUND_SHIPPING,
    postageCents: env.RETURN_POSTAGE_CENTS,
    timeZone: env.SHOP_TIME_ZONE,
  };
}

/** What My Orders shows of returns, per order: its returns and whether (or why not) more can go. */
export type OrderReturns = {
  returns: ReturnSummary[];
  ledger: OrderLedger;
  canReturn: boolean;
  why: string | null;
  windowEndsAt: Date | null;
};

export async function returnsForCustomerOrders(
  db: Database,
  list: readonly {
    id: number;
    status: OrderRow["status"];
    shippedAt: string | null;
    pickup: { collectedAt: string | null } | null;
    totalCents: number;
    paidAt: string | null;
    refundedAt: string | null;
    items: readonly { productType: string; serialNo: number; quantity: number }[];
  }[],
  options: { now?: Date; config: ReturnsConfig & { timeZone: string } },
): Promise<Record<number, OrderReturns>> {
  const now = options.now ?? new Date();
  const byOrder = await returnsOfOrders(
    db,
    list.map((order) => order.id),
  );
  const result: Record<number, OrderReturns> = {};
  for (const order of list) {
    const orderReturns = byOrder.get(order.id) ?? [];
    const inReturns = new Map<string, number>();
    for (const entry of orderReturns) {
      if (entry.status === "rejected") continue;
      for (const line of entry.lines) {
        inReturns.set(lineKey(line), (inReturns.get(lineKey(line)) ?? 0) + line.quantity);
      }
    }
    const { why, windowEndsAt } = whyNoReturn(
      {
        status: order.status,
        shippedAt: order.shippedAt ? new Date(order.shippedAt) : null,
        collectedAt: order.pickup?.collectedAt ? new Date(order.pickup.collectedAt) : null,
      },
      order.items.map((item) => ({
        returnable: item.quantity - (inReturns.get(lineKey(item)) ?? 0),
      })),
      now,
      options.config,
    );
    result[order.id] = {
      returns: orderReturns,
      ledger: orderLedger(order, orderReturns),
      canReturn: why === null,
      why,
      windowEndsAt,
    };
  }
  return result;
}
