import { createHash } from "node:crypto";

/**
 * The card reader at the counter (decision 023, point 6). The shop hands it an amount; the
 * customer presents a card there; the outcome comes back separately (Stripe: a signed webhook
 * about the PaymentIntent; the test reader: its own page), through `cardOutcome` in the
 * counter's domain. Nothing is paid until that outcome says so.
 */
export type CardReaderName = "stripe-terminal" | "test";

export type CardCharge = {
  saleId: number;
  /** The sale's number, as the provider's dashboard and the customer's statement show it. */
  saleNumber: string;
  /** Which hand-over of this sale to the reader: the outcome names it back. */
  attempt: number;
  amountCents: number;
  /** The same key for the same hand-over: a retried request never charges twice. */
  idempotencyKey: string;
};

export interface CardReader {
  readonly name: CardReaderName;
  /** Hands the charge to the reader and answers the payment's reference (Stripe: `pi_…`). */
  charge(input: CardCharge): Promise<{ reference: string }>;
  /**
   * Stops the reader's payment. "already-paid" when the card paid before the cancel reached it:
   * the outcome is on its way and the sale must wait for it.
   */
  cancel(reference: string): Promise<"cancelled" | "already-paid">;
}

/** The metadata a reader's payment carries, so its outcome finds the sale and the attempt. */
export const CARD_METADATA = { sale: "counter_sale", attempt: "card_attempt" } as const;

/** The test reader's references: the sale and the attempt, and a digest of the key. */
export function testReaderReference(input: CardCharge): string {
  const digest = createHash("sha256").update(input.idempotencyKey).digest("base64url");
  return `test_reader_${input.saleId}_${input.attempt}_${digest.slice(0, 16)}`;
}

/**
 * The built-in test reader (development and tests; never production): the charge waits for a
 * card presented on its own page (`/counter/test-reader`), which drives the same outcome code as
 * Stripe's webhook. The state is the sale's own, so the reader keeps none.
 */
export function createTestCardReader(options: { appEnv: string }): CardReader {
  if (options.appEnv === "production") {
    throw new Error("The test card reader does not run in production.");
  }
  return {
    name: "test",
    async charge(input) {
      return { reference: testReaderReference(input) };
    },
    // Its page pays only a sale that is still waiting, so a sale given back closes it already.
    async cancel() {
      return "cancelled";
    },
  };
}

/** What a card presented to the test reader does: the provider's test-card convention. */
export type TestReaderOutcome =
  | { ok: true }
  | { ok: false; field: "cardNumber"; message: string }
  | { ok: false; field: null; message: string };

export const TEST_READER_PAYS = "4242424242424242";
export const TEST_READER_DECLINES = "4000000000000002";

/** 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined; anything else is not a card. */
export function presentTestCard(cardNumber: string): TestReaderOutcome {
  const digits = cardNumber.replace(/[\s-]/g, "");
  if (digits === TEST_READER_PAYS) return { ok: true };
  if (digits === TEST_READER_DECLINES) {
    return { ok: false, field: null, message: "The card was declined." };
  }
  return {
    ok: false,
    field: "cardNumber",
    message: "The test reader takes 4242 4242 4242 4242 (pays) or 4000 0000 0000 0002 (declined).",
  };
}
