import { useState } from "react";
import { Link } from "react-router";
import { QuantityStepper, RemoveLineButton } from "#app/components/cart-line-controls.tsx";
import { useCart } from "#app/components/cart-provider.tsx";
import { PosterImage } from "#app/components/poster-image.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { getEnv } from "#app/lib/env.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { DEFAULT_SHIPPING_OPTION, SHIPPING_OPTIONS, shippingCents } from "#app/lib/shipping.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/cart";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Your Cart", "The titles in your cart, with shipping and totals."),
  { name: "robots", content: "noindex" },
];

export function loader() {
  return { freeShippingThresholdCents: getEnv().FREE_SHIPPING_THRESHOLD_CENTS };
}

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const cart = useCart();
  const [shippingId, setShippingId] = useState<string>(DEFAULT_SHIPPING_OPTION);
  const shipping = shippingCents(
    shippingId,
    cart.totalCents,
    loaderData.freeShippingThresholdCents,
  );

  if (!cart.ready) {
    return <p className="mx-auto max-w-5xl px-4 py-10 sm:px-6">Loading your cart…</p>;
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Your Cart</h1>
      {cart.lines.length === 0 ? (
        <div className="mt-6">
          <p className="text-muted-foreground">Your cart is empty.</p>
          <Link to="/movies" className={buttonVariants({ className: "mt-4" })}>
            Browse Movies
          </Link>
        </div>
      ) : (
        <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_320px]">
          <ul
            aria-label="Items in your cart"
            className="flex flex-col divide-y rounded-xl border bg-card"
          >
            {cart.lines.map((line) => (
              <li key={line.lineId} className="flex gap-4 p-4">
                <PosterImage src={line.posterUrl} alt="" className="w-20 shrink-0" />
                <div className="flex flex-1 flex-wrap items-start justify-between gap-4">
                  <div>
                    <p className="font-semibold">{line.title}</p>
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
          <section
            aria-labelledby="summary-heading"
            className="h-fit rounded-xl border bg-card p-5"
          >
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
              Prices are checked against the catalogue again when you place your order.
            </p>
          </section>
        </div>
      )}
    </div>
  );
}
