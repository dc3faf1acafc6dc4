import Stripe from "stripe";
import { CARD_METADATA, type CardReader } from "./card-reader.server.ts";
import { connection } from "./stripe.server.ts";

/**
 * Stripe Terminal's server-driven flow (decision 023, point 6): a `card_present` PaymentIntent
 * for the charge, handed to the counter's smart reader (`STRIPE_TERMINAL_READER_ID`), captured
 * as soon as the card pays. Stripe says how it went by webhook (`payment_intent.succeeded`,
 * `payment_intent.payment_failed`), naming the sale and the attempt in the metadata.
 */
export function createStripeTerminalReader(options: {
  secretKey: string;
  readerId: string;
  /** e.g. "http://127.0.0.1:12345": a local server standing in for Stripe (tests only). */
  apiBase?: string;
  timeoutMs?: number;
}): CardReader {
  const stripe = new Stripe(
    options.secretKey,
    connection(options.apiBase, options.timeoutMs ?? 20_000),
  );
  return {
    name: "stripe-terminal",
    async charge(input) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: "usd",
          allowed_payment_method_types: ["card_present"],
          capture_method: "automatic",
          description: `Counter sale ${input.saleNumber}`,
          metadata: {
            [CARD_METADATA.sale]: String(input.saleId),
            [CARD_METADATA.attempt]: String(input.attempt),
          },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      await stripe.terminal.readers.processPaymentIntent(
        options.readerId,
        { payment_intent: intent.id },
        { idempotencyKey: `${input.idempotencyKey}-reader` },
      );
      return { reference: intent.id };
    },
    async cancel(reference) {
      try {
        // The reader stops asking for the card; nothing to stop when it asks no more.
        await stripe.terminal.readers.cancelAction(options.readerId);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
      const intent = await stripe.paymentIntents.retrieve(reference);
      if (intent.status === "succeeded") return "already-paid";
      if (intent.status !== "canceled") await stripe.paymentIntents.cancel(reference);
      return "cancelled";
    },
  };
}
