import { createHash } from "node:crypto";
import type { CheckoutSessionInput, PaymentProvider } from "./provider.server.ts";

export const TEST_SESSION_PATH = "/checkout/test-payment";

/**
 * The built-in test provider (the default without Stripe keys): its "hosted page" is our own
 * clearly marked test page, and paying there drives the same fulfilment code as Stripe's
 * webhooks. The session id follows from the idempotency key, so a retried checkout opens the
 * same session, as Stripe's idempotency does. It never runs in production.
 */
export function createTestProvider(options: { appEnv: string }): PaymentProvider {
  if (options.appEnv === "production") {
    throw new Error("The test payment provider does not run in production.");
  }
  return {
    name: "test",
    async createCheckoutSession(input: CheckoutSessionInput) {
      const digest = createHash("sha256").update(input.idempotencyKey).digest("base64url");
      const id = `test_${input.orderId ?? `repair${input.repairTicket}`}_${digest.slice(0, 24)}`;
      return {
        id,
        // Our own page, so a path: the shopper stays on the name they opened the shop under
        // (a phone on the LAN, 127.0.0.1), where their session cookie is.
        url: `${TEST_SESSION_PATH}/${id}`,
        expiresAt: input.expiresAt,
      };
    },
    // Its page only takes payment for a pending order, so a released order closes it already.
    async expireCheckoutSession() {},
    // No money moved, so none goes back; the id follows from the key, as a replay would.
    async refundPayment(input) {
      const digest = createHash("sha256").update(input.idempotencyKey).digest("base64url");
      return {
        id: `test_refund_${input.orderId ?? `repair${input.repairTicket}`}_${digest.slice(0, 16)}`,
        amountCents: input.amountCents,
      };
    },
  };
}

export type TestCardOutcome =
  | { ok: true }
  | { ok: false; field: "cardNumber" | "expiry"; message: string }
  | { ok: false; field: null; message: string };

const PAYS = "4242424242424242";
const DECLINED = "4000000000000002";

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The card provider's test-card convention: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is
 * declined; a malformed number or a past expiry is refused next to its field.
 */
export function checkTestCard(
  cardNumber: string,
  expiry: string,
  now = new Date(),
): TestCardOutcome {
  const digits = cardNumber.replace(/[\s-]/g, "");
  if (!/^\d{13,19}$/.test(digits) || !luhnValid(digits)) {
    return { ok: false, field: "cardNumber", message: "Enter a valid card number." };
  }
  const match = /^\s*(\d{2})\s*\/\s*(\d{2})\s*$/.exec(expiry);
  const month = Number(match?.[1]);
  if (!match || month < 1 || month > 12) {
    return { ok: false, field: "expiry", message: "Enter the expiry as MM/YY." };
  }
  const year = 2000 + Number(match[2]);
  // A card is good through the last day of its expiry month.
  if (
    year < now.getUTCFullYear() ||
    (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)
  ) {
    return { ok: false, field: "expiry", message: "This card has expired." };
  }
  if (digits === PAYS) return { ok: true };
  if (digits === DECLINED) return { ok: false, field: null, message: "Your card was declined." };
  return {
    ok: false,
    field: null,
    message: "Your card was declined. In test mode, pay with 4242 4242 4242 4242.",
  };
}
