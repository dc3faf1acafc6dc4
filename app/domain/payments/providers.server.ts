import { getEnv } from "#app/lib/env.server.ts";
import { createTestCardReader, type CardReader } from "./card-reader.server.ts";
import type { PaymentProvider } from "./provider.server.ts";
import { createStripeTerminalReader } from "./stripe-terminal.server.ts";
import { createStripeProvider } from "./stripe.server.ts";
import { createTestProvider } from "./test-provider.server.ts";

const globalProviders = globalThis as typeof globalThis & {
  __shopPaymentProviders?: Map<string, PaymentProvider>;
  __shopCardReader?: CardReader | null;
};

function provider(kind: "stripe" | "test"): PaymentProvider {
  globalProviders.__shopPaymentProviders ??= new Map();
  const cached = globalProviders.__shopPaymentProviders.get(kind);
  if (cached) return cached;
  const env = getEnv();
  const created =
    kind === "stripe"
      ? createStripeProvider({
          secretKey: env.STRIPE_SECRET_KEY!,
          apiBase: env.STRIPE_API_BASE,
          timeoutMs: env.PAYMENT_PROVIDER_TIMEOUT_MS,
        })
      : createTestProvider({ appEnv: env.APP_ENV });
  globalProviders.__shopPaymentProviders.set(kind, created);
  return created;
}

/** Which provider the regular catalogue pays through: Stripe when its keys are set. */
export function regularPaymentProvider(): "stripe" | "test" {
  return getEnv().STRIPE_SECRET_KEY ? "stripe" : "test";
}

/** The regular catalogue's provider itself: what a repair's pay link pays through. */
export function regularPaymentProviderNow(): PaymentProvider {
  return provider(regularPaymentProvider());
}

/**
 * The provider for an order (DESIGN §3.6): orders with adult lines may go to another provider
 * (ADULT_PAYMENT_PROVIDER), or none at all (`disabled` gives null).
 */
export function paymentProviderFor(hasAdultLines: boolean): PaymentProvider | null {
  const regular = regularPaymentProvider();
  const kind = hasAdultLines ? (getEnv().ADULT_PAYMENT_PROVIDER ?? regular) : regular;
  return kind === "disabled" ? null : provider(kind);
}

/** The provider an order was sent to, by its recorded name (null if unknown or not set up). */
export function paymentProviderNamed(name: string): PaymentProvider | null {
  if (name === "stripe") return getEnv().STRIPE_SECRET_KEY ? provider("stripe") : null;
  if (name === "test") return getEnv().APP_ENV === "production" ? null : provider("test");
  return null;
}

/**
 * The counter's card reader (decision 023, point 6): Stripe Terminal when Stripe's keys and a
 * reader are set, the test reader outside production without Stripe, otherwise none (the
 * counter takes cash only and says why).
 */
export function counterCardReader(): CardReader | null {
  if (globalProviders.__shopCardReader !== undefined) return globalProviders.__shopCardReader;
  const env = getEnv();
  let reader: CardReader | null = null;
  if (env.STRIPE_SECRET_KEY) {
    if (env.STRIPE_TERMINAL_READER_ID) {
      reader = createStripeTerminalReader({
        secretKey: env.STRIPE_SECRET_KEY,
        readerId: env.STRIPE_TERMINAL_READER_ID,
        apiBase: env.STRIPE_API_BASE,
        timeoutMs: env.PAYMENT_PROVIDER_TIMEOUT_MS,
      });
    }
  } else if (env.APP_ENV !== "production") {
    reader = createTestCardReader({ appEnv: env.APP_ENV });
  }
  globalProviders.__shopCardReader = reader;
  return reader;
}
