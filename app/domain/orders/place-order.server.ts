import { and, eq } from "drizzle-orm";
import { queryByHand, type Database } from "#app/db/client.server.ts";
import { customers, orders } from "#app/db/schema.ts";
import type { ProductType } from "#app/lib/catalog.ts";
import { checkAdultBuyer } from "./adult-buyer.ts";
import {
  attemptValues,
  checkoutAttemptLimited,
  countAttemptAnd,
  TOO_MANY_CHECKOUTS,
  type AttemptLimits,
} from "./attempts.server.ts";
import {
  keyOf,
  MAX_LINE_QUANTITY,
  mergeOrderLines,
  placeOrderInputSchema,
  type OrderLine,
  type PlaceOrderInput,
  type ValidPlaceOrderInput,
} from "./checkout-input.ts";
import { loadOrders, type CustomerOrder } from "./customer-orders.server.ts";
import {
  MAX_ORDER_TOTAL_CENTS,
  ORDER_TOO_LARGE,
  priceOrder,
  type PricingConfig,
} from "./pricing.ts";
import { stockShortfall, type Shortage } from "./stock.server.ts";

/** Checkouts of one account racing each other: each tries this often before giving up. */
const MAX_PLACE_ATTEMPTS = 10;

/** How long an unpaid order holds its stock unless the payment session says otherwise. */
export const DEFAULT_PAYMENT_WINDOW_MINUTES = 45;

export type PlaceOrderConfig = PricingConfig & {
  /** The shop's calendar (SHOP_TIME_ZONE), on which an adult buyer's birthday starts. */
  timeZone: string;
  paymentWindowMinutes?: number;
  now?: Date;
  /**
   * Counts this as a payment attempt of the account and the client address, before anything
   * else is decided, and refuses it past their limits (the payment button; not staff or tests).
   */
  attempts?: AttemptLimits;
};

export type ProductRef = { productType: ProductType; serialNo: number };

/** An earlier unpaid order of the account, released by a new checkout: its page must close. */
export type ReleasedCheckout = {
  orderId: number;
  provider: string | null;
  sessionId: string | null;
};

export type PlaceOrderResult =
  /**
   * `created` is false when this checkout key had already placed the order; `released` lists
   * the account's earlier unpaid orders this checkout released (one open checkout per account).
   */
  | { ok: true; created: boolean; order: CustomerOrder; released: ReleasedCheckout[] }
  | { ok: false; reason: "invalid-input"; issues: { path: string; message: string }[] }
  | { ok: false; reason: "unknown-customer"; message: string }
  | { ok: false; reason: "unknown-products"; products: ProductRef[]; message: string }
  | { ok: false; reason: "date-of-birth-required" | "under-age"; message: string }
  | { ok: false; reason: "out-of-stock"; shortages: Shortage[]; message: string }
  | { ok: false; reason: "order-too-large"; message: string }
  | { ok: false; reason: "checkout-key-reused"; orderId: number; message: string }
  | { ok: false; reason: "too-many-attempts"; retryAfterSeconds: number; message: string };

/**
 * Placing an order in one statement, and so one round trip and one commit (`place_order`,
 * migration 0027): the account's earlier unpaid orders released (one open checkout per
 * account), the order row, one item row per line (lines and their titles and prices in the fixed
 * order of `mergeOrderLines`) and the stock, the released copies back and the new ones taken in
 * one pass in that order. Nothing is taken when the checkout key already placed an order (a null
 * id); a short line raises RR001 as `take_stock` does, which undoes the whole statement.
 */
const PLACE_ORDER_SQL = `
  select placed_id, released
    from place_order($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                     $17::text[], $18::integer[], $19::integer[], $20::text[], $21::integer[],
                     $22::date)`;

export function shortageMessage(shortage: Shortage): string {
  return shortage.available === 0
    ? `"${shortage.title}" is sold out.`
    : `Only ${shortage.available} of "${shortage.title}" left (you asked for ${shortage.requested}).`;
}

/** Both catalogues in one statement (serials of each in the parameters named). */
const catalogueProductsSql = (regular: string, adult: string) => `
  select 'regular' as product_type, reg_serial_no as serial_no, title,
         current_price_cents as unit_price_cents, qty_to_list as stock
    from regular_titles where reg_serial_no = any(${regular}::integer[])
  union all
  select 'adult', adult_serial_no, title, price_cents, quantity
    from adult_titles where adult_serial_no = any(${adult}::integer[])`;

/** Prepared once per connection, as each statement below. */
const CATALOGUE_PRODUCTS_SQL = catalogueProductsSql("$1", "$2");

/** The attempt counted and the catalogue read in one statement (attempts.server.ts). */
const COUNT_ATTEMPT_AND_READ_PRODUCTS_SQL = countAttemptAnd(catalogueProductsSql("$5", "$6"));

type ProductRow = {
  product_type: ProductType | null;
  serial_no: number;
  title: string;
  unit_price_cents: number;
  stock: number;
};

function serialsOf(lines: readonly ProductRef[], type: ProductType) {
  return lines.filter((line) => line.productType === type).map((line) => line.serialNo);
}

function productMap(rows: ProductRow[]) {
  return new Map<string, { title: string; unitPriceCents: number; stock: number }>(
    rows
      .filter((row) => row.product_type !== null)
      .map((row) => [
        keyOf({ productType: row.product_type!, serialNo: row.serial_no }),
        { title: row.title, unitPriceCents: row.unit_price_cents, stock: row.stock },
      ]),
  );
}

/** Today's title, price and stock of each product, straight from the catalogue. */
export async function catalogueProducts(db: Database, lines: readonly ProductRef[]) {
  const { rows } = await queryByHand<ProductRow>(db, {
    name: "catalogue-products",
    text: CATALOGUE_PRODUCTS_SQL,
    values: [serialsOf(lines, "regular"), serialsOf(lines, "adult")],
  });
  return productMap(rows);
}

/**
 * The catalogue's rows for these lines, read in the statement that counts this payment attempt;
 * `retryAfterSeconds` is set when the attempt is past a limit.
 */
async function countAttemptAndReadProducts(
  db: Database,
  customerId: string,
  limits: AttemptLimits,
  lines: readonly ProductRef[],
) {
  const { rows } = await queryByHand<ProductRow & { retry_after_seconds: number | null }>(db, {
    name: "count-attempt-and-read-products",
    text: COUNT_ATTEMPT_AND_READ_PRODUCTS_SQL,
    values: [
      ...attemptValues(customerId, limits),
      serialsOf(lines, "regular"),
      serialsOf(lines, "adult"),
    ],
  });
  return { products: productMap(rows), retryAfterSeconds: rows[0]?.retry_after_seconds ?? null };
}

function tooManyAttempts(retryAfterSeconds: number): PlaceOrderResult {
  return { ok: false, reason: "too-many-attempts", retryAfterSeconds, message: TOO_MANY_CHECKOUTS };
}

/**
 * A refusal decided before the statement that counts the attempt: the attempt still counts, and
 * past the limit the answer is the limit's, as for any other attempt.
 */
export async function refuseCountingAttempt<T>(
  db: Database,
  customerId: string,
  attempts: AttemptLimits | undefined,
  refusal: T,
  limited: (retryAfterSeconds: number) => T,
): Promise<T> {
  if (!attempts) return refusal;
  const wait = await checkoutAttemptLimited(db, customerId, attempts);
  return wait ? limited(wait.retryAfterSeconds) : refusal;
}

async function orderByKey(db: Database, customerId: string, checkoutKey: string) {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, customerId), eq(orders.checkoutKey, checkoutKey)));
  if (!row) return undefined;
  const [order] = await loadOrders(db, eq(orders.id, row.id), 1);
  return order;
}

/**
 * The answer to a checkout key that already placed an order: that order, unless the form now
 * asks for something else (a stale review page re-posted after the cart changed), which must
 * start a new checkout rather than silently get the old order.
 */
function replayed(
  order: CustomerOrder,
  input: ValidPlaceOrderInput,
  lines: readonly OrderLine[],
): PlaceOrderResult {
  const same =
    order.shipping.method === input.shippingMethod &&
    order.shipping.name === input.shipping.name &&
    order.shipping.address === input.shipping.address &&
    order.shipping.city === input.shipping.city &&
    order.shipping.state === input.shipping.state &&
    order.shipping.postalCode === input.shipping.postalCode &&
    order.shipping.phone === input.shipping.phone &&
    order.shipping.email === input.shipping.email &&
    order.items.length === lines.length &&
    lines.every((line) =>
      order.items.some(
        (item) =>
          item.productType === line.productType &&
          item.serialNo === line.serialNo &&
          item.quantity === line.quantity,
      ),
    );
  if (same) return { ok: true, created: false, order, released: [] };
  return {
    ok: false,
    reason: "checkout-key-reused",
    orderId: order.id,
    message: `This checkout already placed order #${order.id}. Review your cart again to place a new order.`,
  };
}

/**
 * Places an order (DESIGN §3.1–3.3): prices, shipping and tax from the catalogue and the
 * configuration, every line's stock reserved in the same transaction as the order and its items,
 * all or nothing. The order starts `pending` and holds its stock until it is paid or released.
 * Placing again with the same checkout key returns the order the key already made, also when
 * both requests arrive at once (the unique key makes the second wait for the first).
 */
export async function placeOrder(
  db: Database,
  rawInput: PlaceOrderInput,
  config: PlaceOrderConfig,
): Promise<PlaceOrderResult> {
  const refuseEarly = (result: PlaceOrderResult) =>
    refuseCountingAttempt(db, rawInput.customerId, config.attempts, result, tooManyAttempts);
  const parsed = placeOrderInputSchema.safeParse(rawInput);
  if (!parsed.success) {
    return refuseEarly({
      ok: false,
      reason: "invalid-input",
      issues: parsed.error.issues.map((issue) => ({
        path: issue.path.join("."),
        message: issue.message,
      })),
    });
  }
  const input = parsed.data;
  const lines = mergeOrderLines(input.lines);
  if (lines.some((line) => line.quantity > MAX_LINE_QUANTITY)) {
    return refuseEarly({
      ok: false,
      reason: "invalid-input",
      issues: [{ path: "lines", message: `At most ${MAX_LINE_QUANTITY} of one title per order.` }],
    });
  }
  const now = config.now ?? new Date();

  // The date of birth matters only for adult titles; otherwise the order's reference to the
  // customer is what proves the profile exists (a missing one is caught below).
  const hasAdultLines = lines.some((line) => line.productType === "adult");
  const [customerRows, read] = await Promise.all([
    hasAdultLines
      ? db
          .select({ dateOfBirth: customers.dateOfBirth })
          .from(customers)
          .where(eq(customers.id, input.customerId))
      : [{ dateOfBirth: null }],
    config.attempts
      ? countAttemptAndReadProducts(db, input.customerId, config.attempts, lines)
      : catalogueProducts(db, lines).then((products) => ({ products, retryAfterSeconds: null })),
  ]);
  // Past a limit nothing else is decided: the attempt was counted first, as it always is.
  if (read.retryAfterSeconds !== null) return tooManyAttempts(read.retryAfterSeconds);
  const products = read.products;
  const customer = customerRows[0];
  const unknownCustomer: PlaceOrderResult = {
    ok: false,
    reason: "unknown-customer",
    message: "Your customer profile was not found. Sign in again to place the order.",
  };
  if (!customer) return unknownCustomer;
  // A refusal below must not hide an order this checkout already placed (a replay after the
  // catalogue changed): the common path finds replays through the unique key instead.
  const refuse = async (result: PlaceOrderResult): Promise<PlaceOrderResult> => {
    const existing = await orderByKey(db, input.customerId, input.checkoutKey);
    return existing ? replayed(existing, input, lines) : result;
  };
  const unknown = lines.filter((line) => !products.has(keyOf(line)));
  if (unknown.length > 0) {
    return refuse({
      ok: false,
      reason: "unknown-products",
      products: unknown.map(({ productType, serialNo }) => ({ productType, serialNo })),
      message:
        unknown.length === 1
          ? "One title in your cart is no longer sold. Remove it to continue."
          : `${unknown.length} titles in your cart are no longer sold. Remove them to continue.`,
    });
  }
  if (hasAdultLines) {
    const adult = checkAdultBuyer(customer.dateOfBirth, now, config.timeZone);
    if (!adult.ok) {
      return refuse({
        ok: false,
        reason: adult.reason,
        message:
          adult.reason === "under-age"
            ? "Adult titles can only be bought by customers aged 18 or older."
            : "Adult titles need your date of birth: add it under Account → Personal information.",
      });
    }
  }

  const priced = lines.map((line) => {
    const product = products.get(keyOf(line))!;
    return { ...line, title: product.title, unitPriceCents: product.unitPriceCents };
  });
  const price = priceOrder(priced, input.shippingMethod, input.shipping.state, config);
  if (price.totalCents > MAX_ORDER_TOTAL_CENTS) {
    return refuse({ ok: false, reason: "order-too-large", message: ORDER_TOO_LARGE });
  }
  const windowMinutes = config.paymentWindowMinutes ?? DEFAULT_PAYMENT_WINDOW_MINUTES;

  // One open checkout per account (migrations 0015, 0027): the account's earlier unpaid orders
  // are released in the statement that places this one, their stock back on sale, so going back
  // from review and paying again, or placing order after order, never holds more than one
  // order's copies. The order, its items and the stock, all or nothing, in one statement and so
  // one round trip and one commit. A concurrent request with the same checkout key waits on the
  // unique key until this one commits, then inserts nothing and reserves nothing.
  const paymentExpiresAt = new Date(now.getTime() + windowMinutes * 60_000);
  let orderId: number | null;
  let released: ReleasedCheckout[];
  const insert = () =>
    queryByHand<{ placed_id: string | null; released: ReleasedCheckout[] }>(db, {
      name: "place-order",
      text: PLACE_ORDER_SQL,
      values: [
        input.customerId,
        input.checkoutKey,
        input.shipping.name,
        input.shipping.address,
        input.shipping.city,
        input.shipping.state,
        input.shipping.postalCode,
        input.shipping.phone,
        input.shipping.email,
        input.shippingMethod,
        price.subtotalCents,
        price.shippingCents,
        price.taxCents,
        price.totalCents,
        paymentExpiresAt,
        now,
        priced.map((line) => line.productType),
        priced.map((line) => line.serialNo),
        priced.map((line) => line.quantity),
        priced.map((line) => line.title),
        priced.map((line) => line.unitPriceCents),
        hasAdultLines ? customer.dateOfBirth : null,
      ],
    });
  try {
    let result;
    for (let attempt = 1; ; attempt++) {
      try {
        result = await insert();
        break;
      } catch (error) {
        // Another checkout of this account placed its order, not yet committed when this one
        // released: place this one again, which releases that one (the newest attempt wins).
        // A deadlock undid the whole statement too, so it is tried again as well.
        const { constraint, code } = error as { constraint?: string; code?: string };
        const raced = constraint === "orders_one_pending_per_user" || code === "40P01";
        if (!raced || attempt === MAX_PLACE_ATTEMPTS) throw error;
      }
    }
    const row = result.rows[0]!;
    orderId = row.placed_id === null ? null : Number(row.placed_id);
    released = row.released;
  } catch (error) {
    if ((error as { constraint?: string }).constraint === "orders_user_id_customers_id_fk") {
      return unknownCustomer;
    }
    const shortfall = stockShortfall(error);
    if (!shortfall) throw error;
    // A refused checkout still ends the account's earlier one, as paying again always does
    // (the shortage named the copies it held as left): the cart changes, and a new one follows.
    await releaseOpenCheckouts(db, input.customerId, input.checkoutKey);
    const titles = new Map(priced.map((line) => [keyOf(line), line.title]));
    const requested = new Map(lines.map((line) => [keyOf(line), line.quantity]));
    const shortages: Shortage[] = shortfall.map((short) => ({
      ...short,
      title: titles.get(keyOf(short)) ?? `#${short.serialNo}`,
      requested: requested.get(keyOf(short)) ?? 0,
    }));
    return {
      ok: false,
      reason: "out-of-stock",
      shortages,
      message: shortages.map(shortageMessage).join(" "),
    };
  }
  if (orderId === null) {
    // The key had placed an order already (perhaps a moment ago, by a concurrent request).
    const existing = await orderByKey(db, input.customerId, input.checkoutKey);
    if (!existing) throw new Error("An order with this checkout key vanished while being read.");
    const replay = replayed(existing, input, lines);
    return replay.ok ? { ...replay, released } : replay;
  }
  // What was just written, as the shop shows it: no need to read it back.
  const order: CustomerOrder = {
    id: orderId,
    status: "pending",
    createdAt: now.toISOString(),
    shipping: { ...input.shipping, method: input.shippingMethod },
    items: priced,
    subtotalCents: price.subtotalCents,
    shippingCents: price.shippingCents,
    taxCents: price.taxCents,
    totalCents: price.totalCents,
    paymentExpiresAt: paymentExpiresAt.toISOString(),
    paidAt: null,
    paymentProvider: null,
    paymentSessionId: null,
    shippedAt: null,
    carrier: null,
    trackingNumber: null,
    refundedAt: null,
  };
  return { ok: true, created: true, order, released };
}

async function releaseOpenCheckouts(
  db: Database,
  customerId: string,
  checkoutKey: string,
): Promise<ReleasedCheckout[]> {
  const { rows } = await queryByHand<{
    order_id: string;
    provider: string | null;
    session_id: string | null;
  }>(db, {
    name: "release-open-checkouts",
    text: "select order_id, provider, session_id from release_open_checkouts($1, $2)",
    values: [customerId, checkoutKey],
  });
  return rows.map((row) => ({
    orderId: Number(row.order_id),
    provider: row.provider,
    sessionId: row.session_id,
  }));
}
