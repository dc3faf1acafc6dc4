import { getDb } from "#app/db/client.server.ts";
import { handleStripeWebhook } from "#app/domain/orders/stripe-webhook.server.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { jsonError } from "#app/lib/json.server.ts";
import type { Route } from "./+types/api.webhooks.stripe";

export function loader() {
  return jsonError(405, "Stripe sends events here with POST.");
}

/**
 * POST /api/webhooks/stripe: Stripe's events about Checkout Sessions. The signature is checked
 * on the raw body before anything is read from it; each event changes the shop at most once.
 */
export async function action({ request }: Route.ActionArgs) {
  const env = getEnv();
  if (request.method !== "POST") return jsonError(405, "Only POST is allowed.");
  if (!env.STRIPE_WEBHOOK_SECRET) return jsonError(404, "Stripe is not configured.");
  const result = await handleStripeWebhook(getDb(), {
    rawBody: await request.text(),
    signature: request.headers.get("Stripe-Signature"),
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    ordersUrl: `${publicUrl(env)}/orders`,
  });
  return Response.json(result.body, { status: result.status });
}
