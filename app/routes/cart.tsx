import { useState } from "react";
import { Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { CartLines } from "#app/components/cart/cart-lines.tsx";
import { CheckoutForm } from "#app/components/cart/checkout-form.tsx";
import { CartSummary } from "#app/components/cart/cart-summary.tsx";
import { ReviewStep } from "#app/components/cart/review-step.tsx";
import { useCheckoutDetails } from "#app/components/cart/use-checkout-details.ts";
import { useCart } from "#app/components/cart-provider.tsx";
import { FormMessage } from "#app/components/form-field.tsx";
import { EMPTY_SHIPPING, type ShippingValues } from "#app/components/shipping-form.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { getSignedInUser } from "#app/domain/accounts/session.server.ts";
import {
  checkoutDetailsSchema,
  orderLineSchema,
  MAX_ORDER_LINES,
  PICKUP_FIELDS,
  type OrderLine,
} from "#app/domain/orders/checkout-input.ts";
import {
  quoteCheckout,
  SHIPPING_FIELDS,
  startPayment,
  type Quote,
} from "#app/domain/orders/checkout.server.ts";
import { clientIp } from "#app/lib/client-ip.ts";
import { lastShippingDetails } from "#app/domain/orders/customer-orders.server.ts";
import { fieldErrors, type FieldErrors } from "#app/domain/accounts/forms.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { paymentProviderFor } from "#app/domain/payments/providers.server.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import {
  DEFAULT_SHIPPING_OPTION,
  SHIPPING_METHODS,
  shippingCents,
  type ShippingMethod,
} from "#app/lib/shipping.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply, type RefusalReason } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/cart";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Your Cart", "The titles in your cart, with shipping and totals."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { ...privatePageHeaders(), "Retry-After": retryAfter } : privatePageHeaders();
};

const FILL_ALL = "Please fill in all fields before proceeding to payment.";

/** The Maps script for address autocomplete, loaded on this page only, when there is a key. */
function autocompleteScript(): string | null {
  const env = getEnv();
  if (!env.GOOGLE_MAPS_API_KEY) return null;
  const url = new URL(env.GOOGLE_MAPS_SCRIPT_URL);
  url.searchParams.set("key", env.GOOGLE_MAPS_API_KEY);
  url.searchParams.set("libraries", "places");
  return url.toString();
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSignedInUser(request);
  const url = new URL(request.url);
  const prefill = user
    ? ((await lastShippingDetails(getDb(), user.id)) ?? {
        ...EMPTY_SHIPPING,
        name: [user.firstName, user.lastName].filter(Boolean).join(" "),
        email: user.email,
      })
    : null;
  return {
    signedIn: Boolean(user),
    prefill,
    freeShippingThresholdCents: getEnv().FREE_SHIPPING_THRESHOLD_CENTS,
    cancelled: url.searchParams.get("payment") === "cancelled",
    autocompleteScript: autocompleteScript(),
  };
}

const linesSchema = z.array(orderLineSchema).min(1).max(MAX_ORDER_LINES);

function readLines(text: string | undefined): OrderLine[] | null {
  try {
    const parsed = linesSchema.safeParse(JSON.parse(text ?? ""));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await getSignedInUser(request);
  // Checkout needs an account; the cart stays in the browser meanwhile.
  if (!user) throw redirect(`/login?redirectTo=${encodeURIComponent("/cart")}`);
  const form = await readForm(request);
  const values: ShippingValues = {
    name: form.name ?? "",
    address: form.address ?? "",
    city: form.city ?? "",
    state: form.state ?? "",
    postalCode: form.postalCode ?? "",
    phone: form.phone ?? "",
    email: form.email ?? "",
  };
  const shippingMethod: ShippingMethod =
    SHIPPING_METHODS.find((method) => method === form.shippingMethod) ?? "standard";
  // Every answer keeps what was typed; one with a review shows the review step.
  const typed = { values, shippingMethod };
  const backToCart = (reason: RefusalReason, message: string, errors?: FieldErrors) =>
    reply.refused(reason, message, { ...typed, errors });

  // A pickup order asks only who collects it; the server puts the shop's address on it.
  const shipping = checkoutDetailsSchema(shippingMethod).safeParse(values);
  if (!shipping.success) {
    const errors = fieldErrors(shipping.error);
    const asked = shippingMethod === "pickup" ? PICKUP_FIELDS : SHIPPING_FIELDS;
    const missing = asked.some((name) => values[name].trim() === "");
    return backToCart("invalid", missing ? FILL_ALL : (Object.values(errors)[0] ?? ""), errors);
  }
  const lines = readLines(form.lines);
  if (!lines) return backToCart("invalid", "Your cart is empty.");

  const env = getEnv();
  const pricing = {
    salesTaxRates: env.SALES_TAX_RATES,
    freeShippingThresholdCents: env.FREE_SHIPPING_THRESHOLD_CENTS,
  };
  const quote = () =>
    quoteCheckout(getDb(), { lines, shippingMethod, state: shipping.data.state }, pricing);
  const withReview = (quoted: Quote, checkoutKey: string) => ({
    ...typed,
    review: { lines: form.lines!, quote: quoted, checkoutKey },
  });

  const checkoutKey = z.uuid().safeParse(form.checkoutKey);
  if (form.intent !== "pay" || !checkoutKey.success) {
    const quoted = await quote();
    if (!quoted.ok) return backToCart("conflict", quoted.message);
    return reply.ok(null, withReview(quoted.quote, crypto.randomUUID()));
  }

  // Placing the order prices it again from the catalogue; the quote is only needed to show the
  // review once more if payment cannot start.
  const result = await startPayment(
    getDb(),
    {
      customerId: user.id,
      checkoutKey: checkoutKey.data,
      shippingMethod,
      shipping: shipping.data,
      lines,
    },
    {
      ...pricing,
      timeZone: env.SHOP_TIME_ZONE,
      providerFor: paymentProviderFor,
      publicUrl: publicUrl(env),
      secret: authSecret(env),
      // Each attempt places an order that holds stock for half an hour: a sensible number per
      // account and per client, so nobody can keep titles off the shelf by trying again and again.
      attempts: {
        clientIp: clientIp(request),
        perAccount: env.CHECKOUT_ATTEMPTS_PER_ACCOUNT,
        perClient: env.CHECKOUT_ATTEMPTS_PER_CLIENT,
      },
    },
  );
  if (result.ok) throw redirect(result.redirectTo);
  if (result.retryAfterSeconds) {
    const quoted = await quote();
    if (!quoted.ok) return backToCart("rate-limited", quoted.message);
    return reply.refused(
      "rate-limited",
      result.message,
      withReview(quoted.quote, checkoutKey.data),
      { "Retry-After": String(result.retryAfterSeconds) },
    );
  }
  // The stock has just been counted: the shopper changes the cart before anything else.
  if (result.soldOut) return backToCart("conflict", result.message);
  const quoted = await quote();
  if (!quoted.ok) return backToCart("conflict", quoted.message);
  // The attempt's order is over (released, or never placed): pressing "Pay" again is a new one.
  return reply.refused("conflict", result.message, withReview(quoted.quote, crypto.randomUUID()));
}

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const cart = useCart();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [shippingId, setShippingId] = useState<string>(
    actionData?.shippingMethod ?? DEFAULT_SHIPPING_OPTION,
  );
  const { values, update, reviewing, setReviewing } = useCheckoutDetails(
    actionData,
    loaderData.prefill ?? EMPTY_SHIPPING,
  );

  if (!cart.ready || cart.lines.length === 0) {
    // The cart lives in the browser: the server draws the heading, the lines follow it.
    return (
      <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold">Your Cart</h1>
        <p className="mt-6 text-muted-foreground">
          {cart.ready ? "Your cart is empty." : "Loading your cart…"}
        </p>
        {cart.ready ? (
          <Link to="/movies" className={buttonVariants({ className: "mt-4" })}>
            Browse Movies
          </Link>
        ) : null}
      </div>
    );
  }

  const review = actionData && "review" in actionData ? actionData.review : undefined;
  if (reviewing && actionData && review) {
    return (
      <ReviewStep
        review={review}
        values={actionData.values ?? values}
        shippingMethod={actionData.shippingMethod ?? shippingId}
        message={actionData.message}
        busy={busy}
        onEdit={() => setReviewing(false)}
      />
    );
  }
  // Field errors show beside their fields; above the form, only a message about the whole form.
  const answer = review ? undefined : actionData;
  const message = answer && (!answer.errors || answer.message === FILL_ALL) ? answer.message : null;

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Your Cart</h1>
      {loaderData.cancelled ? (
        <div className="mt-4">
          <FormMessage tone="error">
            Payment was cancelled. Your cart is as you left it.
          </FormMessage>
        </div>
      ) : null}
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_320px]">
        <div className="flex flex-col gap-8">
          <CartLines lines={cart.lines} />
          <CheckoutForm
            lines={cart.lines}
            values={values}
            errors={errorsOf(answer)}
            message={message}
            onChange={update}
            shippingId={shippingId}
            pickup={shippingId === "pickup"}
            signedIn={loaderData.signedIn}
            autocompleteScript={loaderData.autocompleteScript}
          />
        </div>
        <CartSummary
          shippingId={shippingId}
          onShippingChange={setShippingId}
          subtotalCents={cart.totalCents}
          shipping={shippingCents(
            shippingId,
            cart.totalCents,
            loaderData.freeShippingThresholdCents,
          )}
          freeShippingThresholdCents={loaderData.freeShippingThresholdCents}
          busy={busy}
        />
      </div>
    </div>
  );
}
