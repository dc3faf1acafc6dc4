import { redirect } from "react-router";
import { getDb } from "#app/db/client.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { requireUser } from "#app/domain/accounts/session.server.ts";
import { isOrderCancelToken } from "#app/domain/orders/cancel-link.server.ts";
import { getCustomerOrder } from "#app/domain/orders/customer-orders.server.ts";
import { releaseOrder } from "#app/domain/orders/fulfilment.server.ts";
import { paymentProviderNamed } from "#app/domain/payments/providers.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import type { Route } from "./+types/checkout.cancel";

/**
 * Where the payment page sends a shopper who gives up: their own unpaid order is cancelled at
 * once and its stock goes back (a payment that still arrives later is handled as a late one),
 * and they are back at the cart, which is untouched. Only the signed link the shop gave the
 * payment page cancels; any other request just goes to the cart.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const orderId = positiveInt(url.searchParams.get("order"));
  const token = url.searchParams.get("token") ?? "";
  if (!orderId || !isOrderCancelToken(orderId, token, authSecret(getEnv()))) {
    return redirect("/cart");
  }
  const order = await getCustomerOrder(getDb(), user.id, orderId);
  if (order?.status === "pending") {
    const released = await releaseOrder(getDb(), { orderId: order.id, reason: "cancelled" });
    // Close the provider's page too, so the cancelled order cannot be paid there afterwards.
    if (released.released && order.paymentSessionId && order.paymentProvider) {
      await paymentProviderNamed(order.paymentProvider)
        ?.expireCheckoutSession(order.paymentSessionId)
        .catch((error: unknown) => console.warn("Could not close the payment session", error));
    }
  }
  return redirect("/cart?payment=cancelled");
}
