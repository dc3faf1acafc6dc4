/**
 * The card payment provider behind checkout (DESIGN §3.3): Stripe Checkout when its keys are
 * set, otherwise the built-in test provider. Both take the order as the server priced it and
 * send the shopper to a page of theirs; the payment is confirmed to the shop separately
 * (Stripe: signed webhooks; test provider: its own page), through the same fulfilment code.
 */
export type PaymentProviderName = "stripe" | "test";

export type CheckoutSessionInput = {
  /** The order paid for; null for a repair ticket's balance (`repairTicket`). */
  orderId: number | null;
  /** The repair ticket whose balance is paid through its pay link (decision 023, point 8). */
  repairTicket?: number;
  customerEmail: string;
  lines: { title: string; quantity: number; unitPriceCents: number }[];
  shippingCents: number;
  shippingLabel: string;
  taxCents: number;
  totalCents: number;
  /** Absolute URL the provider returns to after payment. */
  successUrl: string;
  /** Absolute URL the provider returns to when the shopper gives up. */
  cancelUrl: string;
  /** When the session stops accepting payment (Stripe: 30 minutes to 24 hours ahead). */
  expiresAt: Date;
  /**
   * One key per attempt to open a session, kept for the SDK's own retries of that request: a
   * retry never opens a second session, and a new attempt is never answered from the
   * provider's memory of an earlier one.
   */
  idempotencyKey: string;
};

export type CheckoutSession = { id: string; url: string; expiresAt: Date };

export type RefundInput = {
  /** The order refunded; null for a repair ticket's payment (`repairTicket`). */
  orderId: number | null;
  /** The repair ticket whose payment is refunded (decision 023, point 8). */
  repairTicket?: number;
  /** The payment to refund (Stripe: its PaymentIntent), when the confirmation named it. */
  paymentReference: string | null;
  /** The checkout session the order was paid through, to find the payment otherwise. */
  paymentSessionId: string | null;
  amountCents: number;
  /** The same key for the same refund: a retry replays it rather than refunding twice. */
  idempotencyKey: string;
};

/** A refund the provider accepted: the money is on its way back to the card. */
export type Refund = { id: string; amountCents: number };

/** The money the provider's own records show: each payment taken and each refund made. */
export type ProviderMoney = {
  payments: {
    reference: string;
    amountCents: number;
    orderId: number | null;
    /** The repair ticket a pay link's payment was for (absent when none). */
    repairTicket?: number | null;
    /** The counter sale a card-reader payment was for (decision 023), if it was one. */
    counterSaleId?: number | null;
  }[];
  refunds: { id: string; paymentReference: string | null; amountCents: number }[];
};

/** The provider an order was paid through, by the name recorded on it; null if none is set up. */
export type ProviderLookup = (name: string) => PaymentProvider | null;

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSession>;
  /** Closes an open session so it can no longer be paid (the shopper gave up). */
  expireCheckoutSession(sessionId: string): Promise<void>;
  /** Pays back `amountCents` of a payment (all of it, or part). Throws if the provider refuses. */
  refundPayment(input: RefundInput): Promise<Refund>;
  /**
   * Its own records of payments and refunds since a moment, to reconcile the shop's with
   * (`npm run check:money`); absent for a provider that keeps none (the test provider).
   */
  listMoney?(since: Date | null): Promise<ProviderMoney>;
}
