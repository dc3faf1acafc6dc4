import { and, eq, isNull, or, sql } from "drizzle-orm";
import Stripe from "stripe";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { orderItems, orders, paymentEvents } from "#app/db/schema.ts";
import { ordersReference } from "#app/domain/stock/ledger.server.ts";
import { recordExtraPayment } from "#app/domain/payments/extra-payments.server.ts";
import { recordOnlineRepairPayment } from "#app/domain/repair-tickets/payments.server.ts";
import { CARD_METADATA } from "#app/domain/payments/card-reader.server.ts";
import { cardOutcome, type CardOutcomeResult } from "#app/domain/counter/card-payments.server.ts";
import { markOrderPaid, type MarkPaidResult } from "./fulfilment.server.ts";
import { returnStock } from "./stock.server.ts";

const PROVIDER = "stripe";

/**
 * How long a checkout finished with a delayed payment method (a bank debit takes days to clear)
 * keeps its stock, so the expiry sweep does not put it back on sale while the money is on its
 * way. The outcome arrives as `async_payment_succeeded` or `_failed`; this is only the backstop.
 */
export const ASYNC_PAYMENT_HOLD_DAYS = 7;

export type StripeWebhookOutcome =
  /** The order became paid (and its confirmation e-mail was queued). */
  | "paid"
  /** The order was already paid, or further along: nothing changed. */
  | "unchanged"
  /** This event was handled before: nothing changed. */
  | "duplicate-event"
  /** A delayed payment method: the order stays pending until Stripe says how it went. */
  | "awaiting-payment"
  /** The unpaid order was expired or cancelled and its stock went back on sale. */
  | "released"
  /** Stripe charged another amount than the order's total: not marked paid, see the log. */
  | "amount-mismatch"
  /** Paid after its stock was sold to someone else: the payment must be refunded, see the log. */
  | "needs-refund"
  /**
   * Money taken twice: a paid session other than the order's own, or a second payment of an
   * order already paid. Not credited; kept as a refund due that staff see on the order.
   */
  | "refund-due"
  /** The order is being paid through another provider. */
  | "provider-mismatch"
  /** No order of this shop has this session (another shop or environment on the account). */
  | "unknown-order"
  /** An event type the shop does not act on. */
  | "ignored"
  /** A card at the counter paid, or did not (`cardOutcome` in the counter's domain). */
  | `counter-${CardOutcomeResult}`;

export type StripeWebhookResult =
  | { status: 400; body: { error: string } }
  | { status: 200; body: { received: true; outcome: StripeWebhookOutcome; orderId?: number } };

/** Something a person has to look at: money taken that the shop could not match to its order. */
export type StripeWebhookProblem = {
  outcome: StripeWebhookOutcome;
  message: string;
  eventId: string;
  sessionId: string;
  orderId?: number;
};

export type StripeWebhookInput = {
  /** The request body exactly as received: the signature covers these bytes. */
  rawBody: string | Buffer;
  /** The `Stripe-Signature` header. */
  signature: string | null;
  webhookSecret: string;
  /** The customer's order list, linked from the confirmation e-mail. */
  ordersUrl: string;
  onProblem?: (problem: StripeWebhookProblem) => void;
};

type Session = Stripe.Checkout.Session;
type Handled = Extract<StripeWebhookResult, { status: 200 }>;
type Report = (problem: Omit<StripeWebhookProblem, "eventId" | "sessionId">) => void;

const handled = (outcome: StripeWebhookOutcome, orderId?: number): Handled => ({
  status: 200,
  body: orderId === undefined ? { received: true, outcome } : { received: true, outcome, orderId },
});

/**
 * Stripe's webhook (DESIGN §3.3, §3.12): checks the signature on the raw body, then confirms or
 * releases the order the Checkout Session belongs to. Every path is idempotent and safe to run
 * concurrently, in any order and any number of times: payments go through `markOrderPaid`
 * (row lock + event record), releases are a conditional update in one transaction with their
 * event record and the stock they return. Anything Stripe should not retry answers 200; a
 * thrown error (database down) becomes a 500 in the route, and Stripe retries later.
 */
export async function handleStripeWebhook(
  db: Database,
  input: StripeWebhookInput,
): Promise<StripeWebhookResult> {
  if (!input.signature) {
    return { status: 400, body: { error: "Missing Stripe-Signature header." } };
  }
  let event: Stripe.Event;
  try {
    // The SDK's default tolerance (300 s) refuses old, replayed deliveries.
    event = Stripe.webhooks.constructEvent(input.rawBody, input.signature, input.webhookSecret);
  } catch (error) {
    const signatureWrong = error instanceof Stripe.errors.StripeSignatureVerificationError;
    return {
      status: 400,
      body: { error: signatureWrong ? "Invalid Stripe signature." : "Invalid webhook payload." },
    };
  }

  const onProblem = input.onProblem ?? ((problem) => console.error("Stripe webhook:", problem));
  const report =
    (session: Session): Report =>
    (problem) =>
      onProblem({ ...problem, eventId: event.id, sessionId: session.id });

  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      if (session.payment_status === "paid") {
        return confirmPayment(db, event.id, session, input.ordersUrl, report(session));
      }
      // A bank debit or similar: the shopper finished, the money follows (or not) in days.
      if (session.payment_status === "unpaid") return holdForAsyncPayment(db, session);
      return handled("ignored");
    }
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object;
      return confirmPayment(db, event.id, session, input.ordersUrl, report(session));
    }
    case "checkout.session.expired":
      return release(db, event.id, event.data.object, "expired");
    case "checkout.session.async_payment_failed":
      return release(db, event.id, event.data.object, "cancelled");
    // The counter's card reader (Stripe Terminal): its PaymentIntents name the counter sale.
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
      return counterCardEvent(db, event.data.object, event.type === "payment_intent.succeeded", {
        eventId: event.id,
        onProblem,
      });
    default:
      return handled("ignored");
  }
}

const positive = (raw: string | undefined) =>
  raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;

/**
 * A payment of the counter's card reader: paid or declined, applied to the sale and attempt its
 * metadata names (payments of web orders carry no such metadata and are left to the sessions'
 * events). `cardOutcome` is idempotent, so a replayed event changes nothing.
 */
async function counterCardEvent(
  db: Database,
  intent: Stripe.PaymentIntent,
  paid: boolean,
  context: { eventId: string; onProblem: (problem: StripeWebhookProblem) => void },
): Promise<Handled> {
  const saleId = positive(intent.metadata?.[CARD_METADATA.sale]);
  const attempt = positive(intent.metadata?.[CARD_METADATA.attempt]);
  if (saleId === null || attempt === null) return handled("ignored");
  const base = { saleId, attempt, reference: intent.id };
  const result = await cardOutcome(
    db,
    paid
      ? { ...base, paid: true, amountCents: intent.amount_received }
      : {
          ...base,
          paid: false,
          message: intent.last_payment_error?.message
            ? `The card was declined: ${intent.last_payment_error.message}`
            : "The card was declined.",
        },
  );
  if (result === "needs-refund") {
    context.onProblem({
      outcome: "counter-needs-refund",
      message: `Counter sale S-${saleId}: the card paid ${intent.amount_received} cents for a sale that no longer waited for it. Refund ${intent.id} in Stripe's dashboard.`,
      eventId: context.eventId,
      sessionId: intent.id,
    });
  }
  return handled(`counter-${result}`);
}

/** The order number the shop put on the session when it created it. */
function orderIdOf(session: Session): number | null {
  const raw = session.metadata?.order_id ?? session.client_reference_id;
  return raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
}

const orderColumns = {
  id: orders.id,
  status: orders.status,
  totalCents: orders.totalCents,
  paymentSessionId: orders.paymentSessionId,
};

/**
 * The order a session pays for: by the session recorded on it, else by the order number in the
 * session's metadata (the checkout created the session but did not get to record it).
 */
async function findOrder(db: Database | Transaction, session: Session) {
  const [bySession] = await db
    .select(orderColumns)
    .from(orders)
    .where(eq(orders.paymentSessionId, session.id));
  if (bySession) return bySession;
  const orderId = orderIdOf(session);
  if (orderId === null) return undefined;
  const [byId] = await db.select(orderColumns).from(orders).where(eq(orders.id, orderId));
  return byId;
}

/** Notes a Stripe event as handled; false if it already was. */
async function recordEvent(
  db: Database | Transaction,
  input: { eventId: string; orderId: number | null },
): Promise<boolean> {
  const rows = await db
    .insert(paymentEvents)
    .values({ provider: PROVIDER, eventId: input.eventId, orderId: input.orderId })
    .onConflictDoNothing()
    .returning({ eventId: paymentEvents.eventId });
  return rows.length === 1;
}

async function confirmPayment(
  db: Database,
  eventId: string,
  session: Session,
  ordersUrl: string,
  report: Report,
): Promise<Handled> {
  if (session.metadata?.repair_ticket) return confirmRepairPayment(db, eventId, session, report);
  const order = await findOrder(db, session);
  if (!order) {
    report({ outcome: "unknown-order", message: "A paid session matches no order of this shop." });
    return handled("unknown-order");
  }
  // Whatever the session says the shopper paid must be the total the server computed; anything
  // else (a session edited in the dashboard, a bug) is not the order that was placed.
  if (session.amount_total !== order.totalCents || session.currency !== "usd") {
    // Recorded so that Stripe's retries of this event are recognised, and answered 200 so that
    // Stripe stops retrying: a person has to decide (refund, or mark paid by hand).
    const first = await recordEvent(db, { eventId, orderId: order.id });
    if (!first) return handled("duplicate-event", order.id);
    report({
      outcome: "amount-mismatch",
      orderId: order.id,
      message: `Stripe charged ${session.amount_total} ${session.currency}, the order's total is ${order.totalCents} usd; not marked paid.`,
    });
    return handled("amount-mismatch", order.id);
  }
  const intent = session.payment_intent;
  const paymentReference = typeof intent === "string" ? intent : (intent?.id ?? null);
  // The order is paid through the session recorded on it. A payment through any other (an
  // older page of the order, a second tab) is money taken twice, whether or not the order is
  // paid yet: it is kept for staff to refund, never credited silently.
  if (order.paymentSessionId && order.paymentSessionId !== session.id) {
    const recorded = await recordExtraPayment(db, {
      eventId,
      orderId: order.id,
      provider: PROVIDER,
      sessionId: session.id,
      paymentReference,
      amountCents: session.amount_total,
      reason: order.status === "pending" ? "other-session" : "already-paid",
    });
    if (!recorded) return handled("duplicate-event", order.id);
    report({
      outcome: "refund-due",
      orderId: order.id,
      message:
        order.status === "pending"
          ? `A session other than the order's own was paid (the order's is ${order.paymentSessionId}): refund it from the order's page.`
          : "The order was already paid and was paid again: refund the second payment from the order's page.",
    });
    return handled("refund-due", order.id);
  }
  const result = await markOrderPaid(
    db,
    {
      orderId: order.id,
      provider: PROVIDER,
      eventId,
      paymentReference,
    },
    { ordersUrl },
  );
  return paymentOutcome(result, report);
}

/**
 * A repair ticket's balance paid through its pay link: recorded on the ticket by the repair
 * desk's own function, once per event and per session, in one transaction.
 */
async function confirmRepairPayment(
  db: Database,
  eventId: string,
  session: Session,
  report: Report,
): Promise<Handled> {
  const intent = session.payment_intent;
  const result = await recordOnlineRepairPayment(db, {
    provider: PROVIDER,
    eventId,
    sessionId: session.id,
    paymentReference: typeof intent === "string" ? intent : (intent?.id ?? null),
    amountCents: session.currency === "usd" ? session.amount_total : null,
  });
  switch (result.status) {
    case "paid":
    case "duplicate-event":
      return handled(result.status);
    case "amount-mismatch":
      report({
        outcome: "amount-mismatch",
        message: `Stripe charged ${session.amount_total} ${session.currency} for repair R-${result.ticketNumber}, not the session's amount; not recorded.`,
      });
      return handled("amount-mismatch");
    case "unknown-checkout":
      report({
        outcome: "unknown-order",
        message: "A paid session matches no repair of this shop.",
      });
      return handled("unknown-order");
  }
}

function paymentOutcome(result: MarkPaidResult, report: Report): Handled {
  switch (result.status) {
    case "paid":
      return handled("paid", result.orderId);
    case "unchanged":
    case "duplicate-event":
      return handled(result.status, result.orderId);
    case "needs-refund":
      report({
        outcome: "needs-refund",
        orderId: result.orderId,
        message:
          result.shortages.length === 0
            ? "Paid after the shop cancelled the order: refund it from the order's page."
            : `Paid after its stock was released and sold: refund it (${result.shortages
                .map(
                  (shortage) =>
                    `${shortage.title}: ${shortage.available} of ${shortage.requested} left`,
                )
                .join("; ")}).`,
      });
      return handled("needs-refund", result.orderId);
    case "provider-mismatch":
      report({
        outcome: "provider-mismatch",
        orderId: result.orderId,
        message: "Stripe says paid, but the order is being paid through another provider.",
      });
      return handled("provider-mismatch", result.orderId);
    case "not-found":
      return handled("unknown-order");
  }
}

/** A checkout finished with a delayed payment method: keep the stock while the money clears. */
async function holdForAsyncPayment(db: Database, session: Session): Promise<Handled> {
  const [order] = await db
    .update(orders)
    .set({
      paymentExpiresAt: sql`greatest(${orders.paymentExpiresAt}, now() + make_interval(days => ${ASYNC_PAYMENT_HOLD_DAYS}))`,
      updatedAt: new Date(),
    })
    .where(and(eq(orders.paymentSessionId, session.id), eq(orders.status, "pending")))
    .returning({ id: orders.id });
  return handled("awaiting-payment", order?.id);
}

/**
 * The session expired unpaid, or its delayed payment failed: the order is released and its stock
 * returned, exactly once, in the same transaction that records the event. The update is
 * conditional (still pending, still this session's, still Stripe's), so a payment that got there
 * first keeps the order paid, and of concurrent releases only one returns the stock. This is
 * `releaseOrder` with the event recorded inside its transaction.
 */
async function release(
  db: Database,
  eventId: string,
  session: Session,
  reason: "expired" | "cancelled",
): Promise<Handled> {
  return db.transaction(async (tx) => {
    const order = await findOrder(tx, session);
    // An order found by number but since given another session is that session's business.
    const mine = order && (order.paymentSessionId ?? session.id) === session.id ? order : undefined;
    if (!(await recordEvent(tx, { eventId, orderId: mine?.id ?? null }))) {
      return handled("duplicate-event", mine?.id);
    }
    if (!mine) return handled("unknown-order");
    const now = new Date();
    const [released] = await tx
      .update(orders)
      .set({ status: reason, updatedAt: now })
      .where(
        and(
          eq(orders.id, mine.id),
          eq(orders.status, "pending"),
          or(isNull(orders.paymentSessionId), eq(orders.paymentSessionId, session.id)),
          or(isNull(orders.paymentProvider), eq(orders.paymentProvider, PROVIDER)),
        ),
      )
      .returning({ id: orders.id });
    if (!released) return handled("unchanged", mine.id);
    const lines = await tx
      .select({
        productType: orderItems.productType,
        serialNo: orderItems.productSerialNo,
        quantity: orderItems.quantity,
      })
      .from(orderItems)
      .where(eq(orderItems.orderId, mine.id));
    await returnStock(tx, lines, { reason: "released", reference: ordersReference([mine.id]) });
    return handled("released", mine.id);
  });
}
