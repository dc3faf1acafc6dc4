import { useEffect, useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import {
  CartLineThumbnail,
  CartLineTitle,
  QuantityStepper,
  RemoveLineButton,
} from "#app/components/cart-line-controls.tsx";
import { useCart } from "#app/components/cart-provider.tsx";
import { FormMessage } from "#app/components/form-field.tsx";
import { OrderSummary } from "#app/components/order-summary.tsx";
import {
  EMPTY_SHIPPING,
  ShippingFields,
  type ShippingValues,
} from "#app/components/shipping-form.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { getDb } from "#app/db/client.server.ts";
import { getSignedInAccount, getSignedInUser } from "#app/domain/accounts/session.server.ts";
import {
  orderLineSchema,
  shippingAddressSchema,
  MAX_ORDER_LINES,
  type OrderLine,
} from "#app/domain/orders/checkout-input.ts";
import { quoteCheckout, startPayment, type Quote } from "#app/domain/orders/checkout.server.ts";
import { clientIp } from "#app/lib/client-ip.ts";
import { lastShippingDetails } from "#app/domain/orders/customer-orders.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { paymentProviderFor } from "#app/domain/payments/providers.server.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { DEFAULT_SHIPPING_OPTION, SHIPPING_OPTIONS, shippingCents } from "#app/lib/shipping.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/cart";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Your Cart", "The titles in your cart, with shipping and totals."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { ...privatePageHeaders(), "Retry-After": retryAfter } : privatePageHeaders();
};

const FILL_ALL = "Please fill in all fields before proceeding to payment.";
/** What was typed is kept for this tab only, so it survives signing in on the way. */
const DRAFT_KEY = "checkout-shipping";

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

type CartStep = {
  step: "cart";
  values: ShippingValues;
  shippingMethod: string;
  errors: Record<string, string | undefined>;
  message: string | null;
};
type ReviewStep = {
  step: "review";
  values: ShippingValues;
  shippingMethod: string;
  lines: string;
  quote: Quote;
  checkoutKey: string;
  message: string | null;
};

export async function action({ request }: Route.ActionArgs) {
  const user = await getSignedInAccount(request);
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
  const shippingMethod = form.shippingMethod === "express" ? "express" : "standard";
  const backToCart = (fields: Omit<CartStep, "step" | "values" | "shippingMethod">, status = 400) =>
    data<CartStep | ReviewStep>({ step: "cart", values, shippingMethod, ...fields }, { status });

  const shipping = shippingAddressSchema.safeParse(values);
  if (!shipping.success) {
    const missing = Object.values(values).some((value) => value.trim() === "");
    return backToCart({ errors: fieldErrors(shipping.error), message: missing ? FILL_ALL : null });
  }
  const lines = readLines(form.lines);
  if (!lines) return backToCart({ errors: {}, message: "Your cart is empty." });

  const env = getEnv();
  const pricing = {
    salesTaxRates: env.SALES_TAX_RATES,
    freeShippingThresholdCents: env.FREE_SHIPPING_THRESHOLD_CENTS,
  };
  const quote = () =>
    quoteCheckout(getDb(), { lines, shippingMethod, state: shipping.data.state }, pricing);
  const review = (
    quoted: Quote,
    checkoutKey: string,
    message: string | null = null,
    init: ResponseInit = { status: message ? 409 : 200 },
  ) =>
    data<CartStep | ReviewStep>(
      {
        step: "review",
        values,
        shippingMethod,
        lines: form.lines!,
        quote: quoted,
        checkoutKey,
        message,
      },
      init,
    );

  const checkoutKey = z.uuid().safeParse(form.checkoutKey);
  if (form.intent !== "pay" || !checkoutKey.success) {
    const quoted = await quote();
    if (!quoted.ok) return backToCart({ errors: {}, message: quoted.message }, 409);
    return review(quoted.quote, crypto.randomUUID());
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
    if (!quoted.ok) return backToCart({ errors: {}, message: quoted.message }, 429);
    return review(quoted.quote, checkoutKey.data, result.message, {
      status: 429,
      headers: { "Retry-After": String(result.retryAfterSeconds) },
    });
  }
  // The stock has just been counted: the shopper changes the cart before anything else.
  if (result.soldOut) return backToCart({ errors: {}, message: result.message }, 409);
  const quoted = await quote();
  if (!quoted.ok) return backToCart({ errors: {}, message: quoted.message }, 409);
  // The attempt's order is over (released, or never placed): pressing "Pay" again is a new one.
  return review(quoted.quote, crypto.randomUUID(), result.message);
}

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const cart = useCart();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [shippingId, setShippingId] = useState<string>(
    actionData?.shippingMethod ?? DEFAULT_SHIPPING_OPTION,
  );
  const [values, setValues] = useState<ShippingValues>(
    actionData?.values ?? loaderData.prefill ?? EMPTY_SHIPPING,
  );
  const [reviewing, setReviewing] = useState(actionData?.step === "review");

  // A new answer from the server decides the step again.
  useEffect(() => {
    if (!actionData) return;
    setValues(actionData.values);
    setReviewing(actionData.step === "review");
  }, [actionData]);

  // Signed out, the typed details wait in this tab until the shopper is back from signing in.
  useEffect(() => {
    const draft = window.sessionStorage.getItem(DRAFT_KEY);
    if (!draft || actionData) return;
    try {
      setValues((current) => ({ ...current, ...(JSON.parse(draft) as Partial<ShippingValues>) }));
    } catch {
      window.sessionStorage.removeItem(DRAFT_KEY);
    }
  }, [actionData]);
  const update = (name: keyof ShippingValues, value: string) =>
    setValues((current) => {
      const next = { ...current, [name]: value };
      window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(next));
      return next;
    });

  if (!cart.ready) {
    // The cart lives in the browser: the server draws the heading, the lines follow it.
    return (
      <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold">Your Cart</h1>
        <p className="mt-6 text-muted-foreground">Loading your cart…</p>
      </div>
    );
  }
  if (cart.lines.length === 0) {
    return (
      <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold">Your Cart</h1>
        <p className="mt-6 text-muted-foreground">Your cart is empty.</p>
        <Link to="/movies" className={buttonVariants({ className: "mt-4" })}>
          Browse Movies
        </Link>
      </div>
    );
  }

  const linesJson = JSON.stringify(
    cart.lines.map((line) => ({
      productType: line.kind,
      serialNo: line.serialNo,
      quantity: line.quantity,
    })),
  );

  if (reviewing && actionData?.step === "review") {
    const { quote } = actionData;
    return (
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold">Review your order</h1>
        {actionData.message ? (
          <div className="mt-4">
            <FormMessage tone="error">{actionData.message}</FormMessage>
          </div>
        ) : null}
        <section aria-labelledby="review-items" className="mt-6 rounded-xl border bg-card p-5">
          <h2 id="review-items" className="text-lg font-semibold">
            Items
          </h2>
          <OrderSummary
            items={quote.lines.map((line) => ({
              ...line,
              key: `${line.productType}:${line.serialNo}`,
            }))}
            subtotalCents={quote.subtotalCents}
            shippingCents={quote.shippingCents}
            taxCents={quote.taxCents}
            totalCents={quote.totalCents}
          />
        </section>
        <section aria-labelledby="review-shipping" className="mt-6 rounded-xl border bg-card p-5">
          <h2 id="review-shipping" className="text-lg font-semibold">
            Ship to
          </h2>
          <address className="mt-2 text-sm not-italic">
            {actionData.values.name}
            <br />
            {actionData.values.address}
            <br />
            {actionData.values.city}, {actionData.values.state.toUpperCase()}{" "}
            {actionData.values.postalCode}
            <br />
            {actionData.values.phone} · {actionData.values.email}
          </address>
          <p className="mt-2 text-sm text-muted-foreground">
            {SHIPPING_OPTIONS.find((option) => option.id === actionData.shippingMethod)?.name}{" "}
            shipping
          </p>
        </section>
        <Form method="post" className="mt-6 flex flex-wrap items-center gap-3">
          {Object.entries(actionData.values).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="shippingMethod" value={actionData.shippingMethod} />
          <input type="hidden" name="lines" value={actionData.lines} />
          <input type="hidden" name="checkoutKey" value={actionData.checkoutKey} />
          <Button type="submit" name="intent" value="pay" size="lg" disabled={busy}>
            Pay {formatUsd(quote.totalCents)}
          </Button>
          <Button type="button" variant="outline" size="lg" onClick={() => setReviewing(false)}>
            Edit cart or details
          </Button>
        </Form>
      </div>
    );
  }

  const shipping = shippingCents(
    shippingId,
    cart.totalCents,
    loaderData.freeShippingThresholdCents,
  );
  const errors = actionData?.step === "cart" ? actionData.errors : {};
  const message = actionData?.step === "cart" ? actionData.message : null;

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
          <ul
            aria-label="Items in your cart"
            className="flex flex-col divide-y rounded-xl border bg-card"
          >
            {cart.lines.map((line) => (
              <li key={line.lineId} className="flex gap-4 p-4">
                <CartLineThumbnail line={line} className="w-20" />
                <div className="flex flex-1 flex-wrap items-start justify-between gap-4">
                  <div>
                    <p>
                      <CartLineTitle line={line} />
                    </p>
                    <p className="text-sm text-muted-foreground">
                      {line.disc}
                      {line.kind === "adult" ? " · Adult catalogue" : ""}
                    </p>
                    <p className="mt-1 text-sm">Price: {formatUsd(line.priceCents)}</p>
                  </div>
                  <div className="flex flex-col items-end gap-2">
                    <QuantityStepper line={line} />
                    <p className="text-sm font-semibold">
                      Item Total: {formatUsd(line.priceCents * line.quantity)}
                    </p>
                    <RemoveLineButton line={line} />
                  </div>
                </div>
              </li>
            ))}
          </ul>
          <Form
            method="post"
            id="checkout-form"
            noValidate
            className="flex flex-col gap-4 rounded-xl border bg-card p-5"
          >
            {message ? <FormMessage tone="error">{message}</FormMessage> : null}
            <ShippingFields
              values={values}
              errors={errors}
              onChange={update}
              autocompleteScript={loaderData.autocompleteScript}
            />
            <input type="hidden" name="lines" value={linesJson} />
            <input type="hidden" name="shippingMethod" value={shippingId} />
            {loaderData.signedIn ? null : (
              <p className="text-sm text-muted-foreground">
                You will be asked to log in or create an account; your cart and details stay here.
              </p>
            )}
          </Form>
        </div>
        <section aria-labelledby="summary-heading" className="h-fit rounded-xl border bg-card p-5">
          <h2 id="summary-heading" className="text-lg font-semibold">
            Order summary
          </h2>
          <div className="mt-4 flex flex-col gap-1.5">
            <Label htmlFor="shipping-method">Shipping method</Label>
            <NativeSelect
              id="shipping-method"
              value={shippingId}
              onChange={(event) => setShippingId(event.target.value)}
            >
              {SHIPPING_OPTIONS.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name} ({option.estimatedDays}) – {formatUsd(option.priceCents)}
                </option>
              ))}
            </NativeSelect>
            <p className="text-xs text-muted-foreground">
              Standard shipping is free on orders of{" "}
              {formatUsd(loaderData.freeShippingThresholdCents)} or more.
            </p>
          </div>
          <dl className="mt-4 grid grid-cols-[1fr_auto] gap-y-1 text-sm">
            <dt>Subtotal</dt>
            <dd>{formatUsd(cart.totalCents)}</dd>
            <dt>Shipping</dt>
            <dd>{shipping === 0 ? "Free" : formatUsd(shipping)}</dd>
            <dt className="mt-2 border-t pt-2 text-base font-semibold">Total</dt>
            <dd className="mt-2 border-t pt-2 text-base font-semibold">
              {formatUsd(cart.totalCents + shipping)}
            </dd>
          </dl>
          <p className="mt-4 text-xs text-muted-foreground">
            Sales tax, if any, is added on the next step. Prices are checked against the catalogue
            again when you place your order.
          </p>
          <Button
            type="submit"
            form="checkout-form"
            name="intent"
            value="review"
            size="lg"
            className="mt-4 w-full"
            disabled={busy}
          >
            Proceed to Checkout
          </Button>
        </section>
      </div>
    </div>
  );
}
