import Stripe from "stripe";
import { CARD_METADATA } from "./card-reader.server.ts";
import type {
  CheckoutSession,
  CheckoutSessionInput,
  PaymentProvider,
  ProviderMoney,
  RefundInput,
} from "./provider.server.ts";

type LineItem = Stripe.Checkout.SessionCreateParams.LineItem;

const lineItem = (name: string, unitAmount: number, quantity = 1): LineItem => ({
  quantity,
  price_data: { currency: "usd", unit_amount: unitAmount, product_data: { name } },
});

/**
 * What Stripe is asked to charge: the order's own lines at the prices the server stored, then
 * shipping and sales tax as lines of their own, so Stripe's total is the order's total to the
 * cent and the hosted page shows the same lines as the shop's review page. Shipping is a plain
 * line rather than a `shipping_options` rate because the method was chosen (and priced) on the
 * shop's review page; a rate would offer a choice Stripe's page has nothing to do with.
 */
function checkoutLineItems(input: CheckoutSessionInput): LineItem[] {
  const items = input.lines.map((line) => lineItem(line.title, line.unitPriceCents, line.quantity));
  // A free line would only say "$0.00"; the shop's pages already say shipping is free.
  if (input.shippingCents > 0) items.push(lineItem(input.shippingLabel, input.shippingCents));
  if (input.taxCents > 0) items.push(lineItem("Sales tax", input.taxCents));
  const charged = input.lines.reduce(
    (sum, line) => sum + line.unitPriceCents * line.quantity,
    input.shippingCents + input.taxCents,
  );
  if (charged !== input.totalCents) {
    throw new Error(
      `Order #${input.orderId}: its lines come to ${charged} cents, its total is ${input.totalCents}.`,
    );
  }
  return items;
}

/** Where the SDK sends its requests: Stripe itself, or (tests only) a local stand-in. */
export function connection(apiBase: string | undefined, timeout: number): Stripe.StripeConfig {
  if (!apiBase) return { timeout };
  const url = new URL(apiBase);
  return {
    host: url.hostname,
    port: url.port || (url.protocol === "https:" ? 443 : 80),
    protocol: url.protocol === "https:" ? "https" : "http",
    maxNetworkRetries: 0,
    timeout,
  };
}

function positiveId(raw: string | undefined): number | null {
  const id = Number(raw);
  return raw && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The payment an order's checkout session took, for orders paid before it was recorded. */
async function paymentIntentOf(stripe: Stripe, input: RefundInput): Promise<string> {
  if (!input.paymentSessionId) throw new Error(`Order #${input.orderId} has no Stripe payment.`);
  const session = await stripe.checkout.sessions.retrieve(input.paymentSessionId);
  const intent = session.payment_intent;
  const id = typeof intent === "string" ? intent : intent?.id;
  if (!id) throw new Error(`Order #${input.orderId}'s checkout session took no payment.`);
  return id;
}

/**
 * Stripe Checkout (DESIGN §3.3): a hosted payment page for one order. The session is created
 * with the order's idempotency key, so a retried or doubled request gets the same session back
 * instead of a second page that could be paid twice. Stripe's errors are thrown as they come
 * (`Stripe.errors.StripeError`); the checkout turns any of them into "Could not start payment".
 */
export function createStripeProvider(options: {
  secretKey: string;
  /** e.g. "http://127.0.0.1:12345": a local server standing in for Stripe (tests only). */
  apiBase?: string;
  /**
   * The longest one call may take. By default well past Stripe's usual answer, well short of the
   * SDK's 80 s a shopper would sit through (PAYMENT_PROVIDER_TIMEOUT_MS).
   */
  timeoutMs?: number;
}): PaymentProvider {
  const stripe = new Stripe(
    options.secretKey,
    connection(options.apiBase, options.timeoutMs ?? 20_000),
  );
  return {
    name: "stripe",
    async createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSession> {
      // The order's number, or the repair ticket's, so the webhook finds what was paid for.
      const reference = input.orderId === null ? `R-${input.repairTicket}` : String(input.orderId);
      const metadata: Record<string, string> =
        input.orderId === null
          ? { repair_ticket: String(input.repairTicket) }
          : { order_id: reference };
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: checkoutLineItems(input),
          customer_email: input.customerEmail,
          client_reference_id: reference,
          metadata,
          // The payment too, so the number is on it in Stripe's dashboard and on refunds.
          payment_intent_data: { metadata },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url)
        throw new Error(`Stripe returned checkout session ${session.id} without a URL.`);
      return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    },
    async expireCheckoutSession(sessionId: string) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch (error) {
        // Already paid, expired or closed: nothing left to stop.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
    },
    async refundPayment(input: RefundInput) {
      const paymentIntent = input.paymentReference ?? (await paymentIntentOf(stripe, input));
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: input.amountCents,
          metadata:
            input.orderId === null
              ? { repair_ticket: String(input.repairTicket) }
              : { order_id: String(input.orderId) },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (refund.status === "failed" || refund.status === "canceled") {
        throw new Error(`Stripe refused the refund (${refund.status}).`);
      }
      return { id: refund.id, amountCents: refund.amount };
    },
    async listMoney(since: Date | null): Promise<ProviderMoney> {
      const created = since ? { gte: Math.floor(since.getTime() / 1000) } : undefined;
      const payments: ProviderMoney["payments"] = [];
      for await (const intent of stripe.paymentIntents.list({ limit: 100, created })) {
        if (intent.status !== "succeeded") continue;
        payments.push({
          reference: intent.id,
          amountCents: intent.amount_received,
          orderId: positiveId(intent.metadata?.order_id),
          counterSaleId: positiveId(intent.metadata?.[CARD_METADATA.sale]),
          repairTicket: positiveId(intent.metadata?.repair_ticket),
        });
      }
      const refunds: ProviderMoney["refunds"] = [];
      for await (const refund of stripe.refunds.list({ limit: 100, created })) {
        if (refund.status === "failed" || refund.status === "canceled") continue;
        refunds.push({
          id: refund.id,
          paymentReference:
            typeof refund.payment_intent === "string"
              ? refund.payment_intent
              : (refund.payment_intent?.id ?? null),
          amountCents: refund.amount,
        });
      }
      return { payments, refunds };
    },
  };
}
