/**
 * The card payment provider behind checkout (DESIGN §3.3): Stripe Checkout when its keys are
 * set, otherwise the built-in test provider. Both take the order as the server priced it and
 * send the shopper to a page of theirs; the payment is confirmed to the shop separately
 * (Stripe: signed webhooks; test provider: its own page), through the same fulfilment code.
 */
export type PaymentProviderName = "stripe" | "test";

export type CheckoutSessionInput = {
  orderId: number;
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
  /** The same key for the same order: a retried request never opens a second session. */
  idempotencyKey: string;
};

export type CheckoutSession = { id: string; url: string; expiresAt: Date };

export type RefundInput = {
  orderId: number;
  /** The payment to refund (Stripe: its PaymentIntent), when the confirmation named it. */
  paymentReference: string | null;
  /** The checkout session the order was paid through, to find the payment otherwise. */
  paymentSessionId: string | null;
  amountCents: number;
  /** The same key for the same order: two staff refunding at once refund once. */
  idempotencyKey: string;
};

/** A refund the provider accepted: the money is on its way back to the card. */
export type Refund = { id: string; amountCents: number };

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSession>;
  /** Closes an open session so it can no longer be paid (the shopper gave up). */
  expireCheckoutSession(sessionId: string): Promise<void>;
  /** Pays an order's money back in full. Throws if the provider refuses. */
  refundPayment(input: RefundInput): Promise<Refund>;
}
