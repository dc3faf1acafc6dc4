import type { PaymentProvider, ProviderLookup } from "#app/domain/payments/provider.server.ts";
import { createStripeProvider } from "#app/domain/payments/stripe.server.ts";
import { createTestProvider } from "#app/domain/payments/test-provider.server.ts";
import type { ReturnsConfig } from "#app/domain/returns/returns.server.ts";
import { startFakeStripe, type FakeStripe } from "./fake-stripe.ts";

/** A 30-day window, shipping back with the last item, up to $6.00 toward a parcel's postage. */
export const RETURNS_CONFIG: ReturnsConfig & { timeZone: string } = {
  windowDays: 30,
  shipping: "when-all-returned",
  postageCents: 600,
  timeZone: "America/Chicago",
};

/**
 * The two payment providers as the shop looks them up by name: the test provider and Stripe, on
 * a fake Stripe of the caller's own (to close after its tests). `test` replaces the test
 * provider, e.g. by one that records what it is asked.
 */
export async function startProviders(
  options: { test?: (provider: PaymentProvider) => PaymentProvider } = {},
): Promise<{ stripe: FakeStripe; providers: ProviderLookup }> {
  const stripe = await startFakeStripe();
  const stripeProvider = createStripeProvider({
    secretKey: "sk_test_fake",
    apiBase: stripe.apiBase,
  });
  const plain = createTestProvider({ appEnv: "local" });
  const testProvider = options.test ? options.test(plain) : plain;
  const providers: ProviderLookup = (name) =>
    name === "test" ? testProvider : name === "stripe" ? stripeProvider : null;
  return { stripe, providers };
}
