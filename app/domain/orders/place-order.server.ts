import { and, eq } from "drizzle-orm";
import { queryByHand, type Database } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";
import { checkAdultBuyer } from "./adult-buyer.ts";
import {
  checkoutAttemptLimited,
  TOO_MANY_CHECKOUTS,
  type AttemptLimits,
} from "./attempts.server.ts";
import {
  readBuyerAndCatalogue,
  type CatalogueProducts,
  type ProductRef,
} from "./catalogue-products.server.ts";
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
  placedOrder,
  placeOrderStatement,
  releaseOpenCheckouts,
  type PlacedRow,
  type PricedLine,
  type ReleasedCheckout,
} from "./place-order-statement.server.ts";
import {
  MAX_ORDER_TOTAL_CENTS,
  ORDER_TOO_LARGE,
  priceOrder,
  type OrderPrice,
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

export type { ProductRef, ReleasedCheckout };

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

export function shortageMessage(shortage: Shortage): string {
  return shortage.available === 0
    ? `"${shortage.title}" is sold out.`
    : `Only ${shortage.available} of "${shortage.title}" left (you asked for ${shortage.requested}).`;
}

function tooManyAttempts(retryAfterSeconds: number): PlaceOrderResult {
  return { ok: false, reason: "too-many-attempts", retryAfterSeconds, message: TOO_MANY_CHECKOUTS };
}

function unknownCustomer(): PlaceOrderResult {
  return {
    ok: false,
    reason: "unknown-customer",
    message: "Your customer profile was not found. Sign in again to place the order.",
  };
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
 * A refusal after the catalogue was read must not hide an order this checkout already placed (a
 * replay after the catalogue changed): the common path finds replays through the unique key
 * instead.
 */
async function refuseUnlessPlaced(
  db: Database,
  input: ValidPlaceOrderInput,
  lines: readonly OrderLine[],
  refusal: PlaceOrderResult,
): Promise<PlaceOrderResult> {
  const existing = await orderByKey(db, input.customerId, input.checkoutKey);
  return existing ? replayed(existing, input, lines) : refusal;
}

/**
 * The answer when the statement placing the order found its checkout key's order already there:
 * that order (as `replayed` judges it), with the earlier orders the statement released.
 */
async function replayOfKey(
  db: Database,
  input: ValidPlaceOrderInput,
  lines: readonly OrderLine[],
  released: ReleasedCheckout[],
): Promise<PlaceOrderResult> {
  const existing = await orderByKey(db, input.customerId, input.checkoutKey);
  if (!existing) throw new Error("An order with this checkout key vanished while being read.");
  const replay = replayed(existing, input, lines);
  return replay.ok ? { ...replay, released } : replay;
}

/** One step of placing an order: what it found, or the answer that ends the checkout there. */
type Step<T> = ({ ok: true } & T) | { ok: false; refusal: PlaceOrderResult };

function invalidInput(issues: { path: string; message: string }[]): Step<never> {
  return { ok: false, refusal: { ok: false, reason: "invalid-input", issues } };
}

/** The form as the schema reads it, with one line per title, at most MAX_LINE_QUANTITY each. */
function checkInput(
  rawInput: PlaceOrderInput,
): Step<{ input: ValidPlaceOrderInput; lines: OrderLine[] }> {
  const parsed = placeOrderInputSchema.safeParse(rawInput);
  if (!parsed.success) {
    return invalidInput(
      parsed.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
    );
  }
  const input = parsed.data;
  const lines = mergeOrderLines(input.lines);
  if (lines.some((line) => line.quantity > MAX_LINE_QUANTITY)) {
    return invalidInput([
      { path: "lines", message: `At most ${MAX_LINE_QUANTITY} of one title per order.` },
    ]);
  }
  return { ok: true, input, lines };
}

/**
 * Each line's title and price from today's catalogue and the order's price, unless a title is
 * no longer sold, the buyer may not buy its adult titles, or the total is more than an order
 * can hold.
 */
function priceFromCatalogue(
  input: ValidPlaceOrderInput,
  lines: readonly OrderLine[],
  products: CatalogueProducts,
  buyer: { dateOfBirth: string | null; hasAdultLines: boolean; now: Date },
  config: PlaceOrderConfig,
): Step<{ priced: PricedLine[]; price: OrderPrice }> {
  const unknown = lines.filter((line) => !products.has(keyOf(line)));
  if (unknown.length > 0) {
    const refusal: PlaceOrderResult = {
      ok: false,
      reason: "unknown-products",
      products: unknown.map(({ productType, serialNo }) => ({ productType, serialNo })),
      message:
        unknown.length === 1
          ? "One title in your cart is no longer sold. Remove it to continue."
          : `${unknown.length} titles in your cart are no longer sold. Remove them to continue.`,
    };
    return { ok: false, refusal };
  }
  if (buyer.hasAdultLines) {
    const adult = checkAdultBuyer(buyer.dateOfBirth, buyer.now, config.timeZone);
    if (!adult.ok) {
      const refusal: PlaceOrderResult = {
        ok: false,
        reason: adult.reason,
        message:
          adult.reason === "under-age"
            ? "Adult titles can only be bought by customers aged 18 or older."
            : "Adult titles need your date of birth: add it under Account → Personal information.",
      };
      return { ok: false, refusal };
    }
  }

  const priced = lines.map((line) => {
    const product = products.get(keyOf(line))!;
    return { ...line, title: product.title, unitPriceCents: product.unitPriceCents };
  });
  const price = priceOrder(priced, input.shippingMethod, input.shipping.state, config);
  if (price.totalCents > MAX_ORDER_TOTAL_CENTS) {
    return {
      ok: false,
      refusal: { ok: false, reason: "order-too-large", message: ORDER_TOO_LARGE },
    };
  }
  return { ok: true, priced, price };
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
  const checked = checkInput(rawInput);
  if (!checked.ok) {
    const { customerId } = rawInput;
    return refuseCountingAttempt(db, customerId, config.attempts, checked.refusal, tooManyAttempts);
  }
  const { input, lines } = checked;
  const now = config.now ?? new Date();

  // The date of birth matters only for adult titles; otherwise the order's reference to the
  // customer is what proves the profile exists (a missing one is caught below).
  const hasAdultLines = lines.some((line) => line.productType === "adult");
  const [customerRows, read] = await readBuyerAndCatalogue(
    db,
    input.customerId,
    lines,
    hasAdultLines,
    config.attempts,
  );
  // Past a limit nothing else is decided: the attempt was counted first, as it always is.
  if (read.retryAfterSeconds !== null) return tooManyAttempts(read.retryAfterSeconds);
  const customer = customerRows[0];
  if (!customer) return unknownCustomer();
  const buyer = { dateOfBirth: customer.dateOfBirth, hasAdultLines, now };
  const pricing = priceFromCatalogue(input, lines, read.products, buyer, config);
  if (!pricing.ok) return refuseUnlessPlaced(db, input, lines, pricing.refusal);
  const { priced, price } = pricing;
  const windowMinutes = config.paymentWindowMinutes ?? DEFAULT_PAYMENT_WINDOW_MINUTES;

  // One open checkout per account (migrations 0015, 0027): the account's earlier unpaid orders
  // are released in the statement that places this one, their stock back on sale, so going back
  // from review and paying again, or placing order after order, never holds more than one
  // order's copies. The order, its items and the stock, all or nothing, in one statement and so
  // one round trip and one commit. A concurrent request with the same checkout key waits on the
  // unique key until this one commits, then inserts nothing and reserves nothing.
  const paymentExpiresAt = new Date(now.getTime() + windowMinutes * 60_000);
  const statement = placeOrderStatement(input, priced, price, {
    paymentExpiresAt,
    now,
    dateOfBirth: hasAdultLines ? customer.dateOfBirth : null,
  });
  let orderId: number | null;
  let released: ReleasedCheckout[];
  try {
    let result;
    for (let attempt = 1; ; attempt++) {
      try {
        result = await queryByHand<PlacedRow>(db, statement);
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
    return refuseUnplaced(db, error, input, lines, priced);
  }
  if (orderId === null) {
    // The key had placed an order already (perhaps a moment ago, by a concurrent request).
    return replayOfKey(db, input, lines, released);
  }
  // What was just written, as the shop shows it: no need to read it back.
  const order = placedOrder(orderId, input, priced, price, paymentExpiresAt, now);
  return { ok: true, created: true, order, released };
}

/**
 * The answer when the statement placing the order failed: the customer's profile is gone, or
 * lines are short (each named with what is left); any other error is thrown on.
 */
async function refuseUnplaced(
  db: Database,
  error: unknown,
  input: ValidPlaceOrderInput,
  lines: readonly OrderLine[],
  priced: readonly PricedLine[],
): Promise<PlaceOrderResult> {
  if ((error as { constraint?: string }).constraint === "orders_user_id_customers_id_fk") {
    return unknownCustomer();
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
