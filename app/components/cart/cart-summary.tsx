import { Button } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { formatUsd } from "#app/lib/money.ts";
import { SHIPPING_OPTIONS, shippingChoiceLabel } from "#app/lib/shipping.ts";

/**
 * The cart's summary: the shipping method, the totals as the browser knows them, and the button
 * that sends the checkout form (`#checkout-form`) to be priced by the server.
 */
export function CartSummary({
  shippingId,
  onShippingChange,
  subtotalCents,
  shipping,
  freeShippingThresholdCents,
  busy,
}: {
  shippingId: string;
  onShippingChange: (id: string) => void;
  subtotalCents: number;
  shipping: number;
  freeShippingThresholdCents: number;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="summary-heading" className="h-fit rounded-xl border bg-card p-5">
      <h2 id="summary-heading" className="text-lg font-semibold">
        Order summary
      </h2>
      <div className="mt-4 flex flex-col gap-1.5">
        <Label htmlFor="shipping-method">Shipping method</Label>
        <NativeSelect
          id="shipping-method"
          value={shippingId}
          onChange={(event) => onShippingChange(event.target.value)}
          options={SHIPPING_OPTIONS.map((option) => ({
            value: option.id,
            label: shippingChoiceLabel(option, formatUsd),
          }))}
        />
        <p className="text-xs text-muted-foreground">
          Standard shipping is free on orders of {formatUsd(freeShippingThresholdCents)} or more.
        </p>
      </div>
      <dl className="mt-4 grid grid-cols-[1fr_auto] gap-y-1 text-sm">
        <dt>Subtotal</dt>
        <dd>{formatUsd(subtotalCents)}</dd>
        <dt>Shipping</dt>
        <dd>{shipping === 0 ? "Free" : formatUsd(shipping)}</dd>
        <dt className="mt-2 border-t pt-2 text-base font-semibold">Total</dt>
        <dd className="mt-2 border-t pt-2 text-base font-semibold">
          {formatUsd(subtotalCents + shipping)}
        </dd>
      </dl>
      <p className="mt-4 text-xs text-muted-foreground">
        Sales tax, if any, is added on the next step. Prices are checked against the catalogue again
        when you place your order.
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
  );
}
