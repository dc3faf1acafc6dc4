import { Form } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { OrderSummary } from "#app/components/order-summary.tsx";
import type { ShippingValues } from "#app/components/shipping-form.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { Quote } from "#app/domain/orders/checkout.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { deliveryLabel, isPickup } from "#app/lib/shipping.ts";
import { SHOP_ADDRESS } from "#app/lib/site.ts";

/**
 * The checkout's review: the lines priced by the server, where they go, and the button that
 * pays. The form sends back what the server answered, so paying places exactly this order.
 */
export function ReviewStep({
  review,
  values,
  shippingMethod,
  message,
  busy,
  onEdit,
}: {
  review: { lines: string; quote: Quote; checkoutKey: string };
  values: ShippingValues;
  shippingMethod: string;
  /** Why paying did not start, when it did not. */
  message: string | null;
  busy: boolean;
  onEdit: () => void;
}) {
  const { quote } = review;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Review your order</h1>
      {message ? (
        <div className="mt-4">
          <FormMessage tone="error">{message}</FormMessage>
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
          {isPickup(shippingMethod) ? "Pick up at the store" : "Ship to"}
        </h2>
        <address className="mt-2 text-sm not-italic">
          {values.name}
          <br />
          {isPickup(shippingMethod) ? (
            <>Collect at {SHOP_ADDRESS}, with the code we e-mail you when it is ready.</>
          ) : (
            <>
              {values.address}
              <br />
              {values.city}, {values.state.toUpperCase()} {values.postalCode}
            </>
          )}
          <br />
          {values.phone} · {values.email}
        </address>
        <p className="mt-2 text-sm text-muted-foreground">{deliveryLabel(shippingMethod)}</p>
      </section>
      <Form method="post" className="mt-6 flex flex-wrap items-center gap-3">
        {Object.entries(values).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="shippingMethod" value={shippingMethod} />
        <input type="hidden" name="lines" value={review.lines} />
        <input type="hidden" name="checkoutKey" value={review.checkoutKey} />
        <Button type="submit" name="intent" value="pay" size="lg" disabled={busy}>
          Pay {formatUsd(quote.totalCents)}
        </Button>
        <Button type="button" variant="outline" size="lg" onClick={onEdit}>
          Edit cart or details
        </Button>
      </Form>
    </div>
  );
}
