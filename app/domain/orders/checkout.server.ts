import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";
import type { CheckoutSession, PaymentProvider } from "#app/domain/payments/provider.server.ts";
import { paymentProviderNamed } from "#app/domain/payments/providers.server.ts";
import {
  recordFirstPaymentSession,
  recordPaymentSession,
  releaseOrder,
} from "#app/domain/orders/fulfilment.server.ts";
import { TOO_MANY_CHECKOUTS, type AttemptLimits } from "./attempts.server.ts";
import { orderCancelPath } from "./cancel-link.server.ts";
import { deliveryLabel, type ShippingMethod } from "#app/lib/shipping.ts";
import {
  keyOf,
  mergeOrderLines,
  shippingAddressSchema,
  type OrderLine,
  type ShippingAddress,
} from "./checkout-input.ts";
import { catalogueProducts } from "./catalogue-products.server.ts";
import type { CustomerOrder } from "./customer-orders.server.ts";
import {
  placeOrder,
  refuseCountingAttempt,
  shortageMessage,
  type PlaceOrderConfig,
  type PlaceOrderResult,
} from "./place-order.server.ts";
import {
  MAX_ORDER_TOTAL_CENTS,
  ORDER_TOO_LARGE,
  priceOrder,
  type OrderPrice,
  type PricingConfig,
} from "./pricing.ts";

export type QuoteLine = OrderLine & { title: string; unitPriceCents: number; available: number };

export type Quote = OrderPrice & { lines: QuoteLine[] };

export type QuoteResult =
  | { ok: true; quote: Quote }
  | { ok: false; message: string; unknown?: OrderLine[]; short?: QuoteLine[] };

/**
 * What the review step shows: each line priced from the catalogue, shipping and tax from the
 * configuration for the destination, and whether the stock is there today. Nothing is held
 * until the order is placed; placing checks the stock again in its transaction.
 */
export async function quoteCheckout(
  db: Database,
  input: { lines: readonly OrderLine[]; shippingMethod: ShippingMethod; state: string },
  config: PricingConfig,
): Promise<QuoteResult> {
  const lines = mergeOrderLines(input.lines);
  if (lines.length === 0) return { ok: false, message: "Your cart is empty." };
  const products = await catalogueProducts(db, lines);
  const unknown = lines.filter((line) => !products.has(keyOf(line)));
  if (unknown.length > 0) {
    return {
      ok: false,
      unknown,
      message: "A title in your cart is no longer sold. Remove it from your cart to continue.",
    };
  }
  const priced = lines.map((line) => {
    const product = products.get(keyOf(line))!;
    return {
      ...line,
      title: product.title,
      unitPriceCents: product.unitPriceCents,
      available: product.stock,
    };
  });
  const short = priced.filter((line) => line.available < line.quantity);
  if (short.length > 0) {
    return {
      ok: false,
      short,
      message: short
        .map((line) =>
          shortageMessage({
            ...line,
            requested: line.quantity,
            available: Math.max(0, line.available),
          }),
        )
        .join(" "),
    };
  }
  const price = priceOrder(priced, input.shippingMethod, input.state, config);
  if (price.totalCents > MAX_ORDER_TOTAL_CENTS) return { ok: false, message: ORDER_TOO_LARGE };
  return { ok: true, quote: { ...price, lines: priced } };
}

export type CheckoutRequest = {
  customerId: string;
  checkoutKey: string;
  shippingMethod: ShippingMethod;
  shipping: ShippingAddress;
  lines: OrderLine[];
};

export type StartPaymentResult =
  | { ok: true; redirectTo: string }
  /**
   * `soldOut`: a line is short, so the cart must change before trying again;
   * `retryAfterSeconds`: too many attempts, try again after that long.
   */
  | { ok: false; message: string; soldOut?: boolean; retryAfterSeconds?: number };

/** Stripe keeps a Checkout Session open 30 minutes at least; a minute more for clock drift. */
const SESSION_MINUTES = 31;
/** An open session this close to its end is not offered again: a new one is opened. */
const REUSE_MARGIN_MS = 2 * 60_000;

/** No payment provider takes these lines online: refused, and the attempt still counts. */
function refuseWithoutProvider(
  db: Database,
  customerId: string,
  attempts: AttemptLimits | undefined,
): Promise<StartPaymentResult> {
  return refuseCountingAttempt<StartPaymentResult>(
    db,
    customerId,
    attempts,
    {
      ok: false,
      message: "Adult titles cannot be bought online. Please remove them or visit the shop.",
    },
    (retryAfterSeconds) => ({ ok: false, message: TOO_MANY_CHECKOUTS, retryAfterSeconds }),
  );
}

/** What the payment button says when the order was not placed. */
function notPlaced(placed: Extract<PlaceOrderResult, { ok: false }>): StartPaymentResult {
  if (placed.reason === "too-many-attempts") {
    return { ok: false, message: placed.message, retryAfterSeconds: placed.retryAfterSeconds };
  }
  return {
    ok: false,
    message:
      placed.reason === "invalid-input"
        ? "Please check your shipping details and cart, then try again."
        : placed.message,
    soldOut: placed.reason === "out-of-stock",
  };
}

/** Where a checkout whose order is already paid or no longer payable ends; null while it waits. */
function settled(order: CustomerOrder): StartPaymentResult | null {
  if (order.status === "paid" || order.paidAt) {
    return { ok: true, redirectTo: `/cart-success?order=${order.id}` };
  }
  if (order.status !== "pending") {
    return {
      ok: false,
      message: "This checkout has ended. Review your cart again to place a new order.",
    };
  }
  return null;
}

/** Opens a payment session for the order at the provider, payable SESSION_MINUTES from `now`. */
function createSession(
  provider: PaymentProvider,
  order: CustomerOrder,
  config: { publicUrl: string; secret: string },
  now: Date,
) {
  return provider.createCheckoutSession({
    orderId: order.id,
    customerEmail: order.shipping.email,
    lines: order.items.map((item) => ({
      title: item.title,
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
    })),
    shippingCents: order.shippingCents,
    shippingLabel: deliveryLabel(order.shipping.method),
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    successUrl: `${config.publicUrl}/cart-success?order=${order.id}`,
    cancelUrl: `${config.publicUrl}${orderCancelPath(order.id, config.secret)}`,
    expiresAt: new Date(now.getTime() + SESSION_MINUTES * 60_000),
    // One key per attempt, kept for the SDK's own retries of it. Never derived from the clock:
    // the first press (unlocked, below) and a replay (under the lock) may ask in the same
    // millisecond, and one key would get them one session, which the first press would then
    // close as its spare. A failed attempt must not be answered from the provider's memory.
    idempotencyKey: `order-${order.id}-${randomUUID()}`,
  });
}

/** The session as the order records it. */
function recorded(order: CustomerOrder, provider: PaymentProvider, session: CheckoutSession) {
  return {
    orderId: order.id,
    provider: provider.name,
    sessionId: session.id,
    url: session.url,
    expiresAt: session.expiresAt,
  };
}

/**
 * Nothing is left half done: an order that never got a payment page gives its stock back at
 * once (not when its payment window would have closed); pressing "Pay" again is a new
 * checkout. An order whose page was opened (by a replay of this checkout) is left to it. A
 * provider that answered too late may still have opened a page: paid, it is refunded as any
 * payment arriving after its order was released.
 */
async function couldNotStart(
  db: Database,
  order: CustomerOrder,
  error: unknown,
): Promise<StartPaymentResult> {
  console.error(`Could not start payment for order ${order.id}`, error);
  await releaseOrder(db, { orderId: order.id, reason: "cancelled", onlyWithoutSession: true });
  return { ok: false, message: "Could not start payment. Try again." };
}

/**
 * With the order row locked (`tx`): the order's open session, unless it is about to lapse, or
 * else a new one, recorded before the lock is let go.
 */
async function sessionUnderLock(
  tx: Transaction,
  provider: PaymentProvider,
  order: CustomerOrder,
  config: { publicUrl: string; secret: string },
  now: Date,
): Promise<StartPaymentResult> {
  const [current] = await tx
    .select({
      status: orders.status,
      sessionId: orders.paymentSessionId,
      sessionUrl: orders.paymentSessionUrl,
      provider: orders.paymentProvider,
      expiresAt: orders.paymentExpiresAt,
    })
    .from(orders)
    .where(eq(orders.id, order.id))
    .for("update");
  if (current?.status !== "pending") {
    return { ok: false, message: "This checkout has ended. Review your cart again." };
  }
  const hasSession = current.sessionId && current.provider === provider.name;
  if (
    hasSession &&
    current.sessionUrl &&
    current.expiresAt &&
    current.expiresAt.getTime() - now.getTime() > REUSE_MARGIN_MS
  ) {
    return { ok: true, redirectTo: current.sessionUrl };
  }
  // The session about to lapse is closed first, so one order never has two payable pages.
  if (hasSession) await provider.expireCheckoutSession(current.sessionId!);
  const session = await createSession(provider, order, config, now);
  await recordPaymentSession(tx, recorded(order, provider, session));
  return { ok: true, redirectTo: session.url };
}

/**
 * The payment button: counts the attempt (`config.attempts`; past a limit nothing else happens),
 * places the order (stock reserved, `pending`; a replay of the same
 * checkout finds the order it made) and sends the shopper to a payment session for it, with the
 * provider chosen for its lines. The order row is locked while its session is opened, so a
 * double click or a retry goes to the session already open instead of opening a second one that
 * could be paid too. If the session cannot be opened (the provider failing or too slow) the
 * order is released with its stock, the cart is untouched, and pressing the button again
 * places a new order.
 */
export async function startPayment(
  db: Database,
  request: CheckoutRequest,
  config: PlaceOrderConfig & {
    providerFor: (hasAdultLines: boolean) => PaymentProvider | null;
    publicUrl: string;
    /** Signs the payment page's way back (`orderCancelPath`). */
    secret: string;
  },
): Promise<StartPaymentResult> {
  const hasAdult = request.lines.some((line) => line.productType === "adult");
  const provider = config.providerFor(hasAdult);
  if (!provider) return refuseWithoutProvider(db, request.customerId, config.attempts);
  const placed = await placeOrder(db, request, config);
  if (!placed.ok) return notPlaced(placed);
  const order = placed.order;
  // The account's earlier unpaid orders were released: their payment pages must not take money.
  for (const earlier of placed.released) {
    if (!earlier.sessionId || !earlier.provider) continue;
    const owner =
      earlier.provider === provider.name ? provider : paymentProviderNamed(earlier.provider);
    await owner
      ?.expireCheckoutSession(earlier.sessionId)
      .catch((error: unknown) =>
        console.warn(`Could not close the payment page of order ${earlier.orderId}`, error),
      );
  }
  const ended = settled(order);
  if (ended) return ended;
  const now = config.now ?? new Date();

  if (placed.created) {
    // The order was made by this very request, so it has no session yet, and nobody else holds
    // it but a replay of this checkout that arrived meanwhile. The session is opened without a
    // lock and recorded only if the order still has none; if that replay recorded one first,
    // this session is closed and the shopper goes to that one (through the locked path below).
    try {
      const session = await createSession(provider, order, config, now);
      if (await recordFirstPaymentSession(db, recorded(order, provider, session))) {
        return { ok: true, redirectTo: session.url };
      }
      await provider.expireCheckoutSession(session.id);
    } catch (error) {
      return await couldNotStart(db, order, error);
    }
  }

  try {
    // The order row is locked while its session is looked at and perhaps opened, so a double
    // click or a retry never opens a second payable page for one order.
    return await db.transaction((tx) => sessionUnderLock(tx, provider, order, config, now));
  } catch (error) {
    return await couldNotStart(db, order, error);
  }
}

/** The checkout form's fields as typed, for showing them again. */
export type ShippingValues = Record<keyof ShippingAddress, string>;

export const SHIPPING_FIELDS = Object.keys(
  shippingAddressSchema.shape,
) as (keyof ShippingAddress)[];
