import { CircleCheck } from "#app/components/ui/icons.tsx";
import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import { useCart } from "#app/components/cart-provider.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireUser } from "#app/domain/accounts/session.server.ts";
import { getCustomerOrder } from "#app/domain/orders/customer-orders.server.ts";
import { positiveInt, privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/cart-success";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Thank you for your order!", "Your order was placed."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

/**
 * Where payment returns to. Only the signed-in owner's paid order is celebrated (and clears the
 * cart); opening it by hand for an unpaid or someone else's order changes nothing and says so.
 * A card payment confirmed by webhook may arrive a moment after the shopper does: the page
 * looks again until it has.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const orderId = positiveInt(new URL(request.url).searchParams.get("order"));
  const order = orderId ? await getCustomerOrder(getDb(), user.id, orderId) : null;
  if (!order) return { state: "unknown" as const, orderId: null };
  if (order.status === "pending") return { state: "waiting" as const, orderId: order.id };
  if (order.status === "paid" || order.status === "shipped" || order.status === "completed") {
    return { state: "paid" as const, orderId: order.id };
  }
  return { state: "unpaid" as const, orderId: order.id };
}

export default function CartSuccess({ loaderData }: Route.ComponentProps) {
  const cart = useCart();
  const revalidator = useRevalidator();
  const { state } = loaderData;

  useEffect(() => {
    if (state === "paid" && cart.ready && cart.lines.length > 0) cart.clear();
  }, [state, cart]);

  useEffect(() => {
    if (state !== "waiting") return;
    const timer = window.setTimeout(() => void revalidator.revalidate(), 1500);
    return () => window.clearTimeout(timer);
  }, [state, revalidator]);

  // One page for every state, the same elements in the same places: when the payment's
  // confirmation arrives while the shopper is here, only texts and links change, and focus stays
  // where it was (on a control that is still there) instead of falling to the page's start.
  const paid = state === "paid";
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      {paid ? (
        <CircleCheck aria-hidden="true" className="mx-auto mb-4 size-16 text-success" />
      ) : null}
      <h1 className="text-3xl font-bold">
        {paid
          ? "Thank you for your order!"
          : state === "waiting"
            ? "Confirming your payment…"
            : "No paid order here"}
      </h1>
      <p className="mt-4 text-muted-foreground" role="status">
        {paid
          ? `Your order #${loaderData.orderId} was placed successfully. A confirmation e-mail will be sent to you soon.`
          : state === "waiting"
            ? "We are waiting for the card provider to confirm your payment. This page updates by itself."
            : state === "unpaid"
              ? "This order was not paid, so nothing was charged and nothing will be shipped."
              : "We could not find this order in your account."}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {paid ? (
          <Link key="shop" to="/" className={buttonVariants({ size: "lg" })}>
            Continue Shopping
          </Link>
        ) : (
          <Link key="cart" to="/cart" className={buttonVariants({ size: "lg" })}>
            Back to Cart
          </Link>
        )}
        <Link
          key="orders"
          to="/orders"
          className={buttonVariants({ size: "lg", variant: "outline" })}
        >
          View My Orders
        </Link>
      </div>
    </div>
  );
}
