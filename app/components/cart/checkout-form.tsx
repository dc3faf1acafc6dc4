import { Form } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import type { CartLine } from "#app/lib/cart.ts";
import { ShippingFields, type ShippingValues } from "#app/components/shipping-form.tsx";

/** The cart's lines as the server reads them: kind, serial number and quantity, never prices. */
function linesJson(lines: CartLine[]) {
  return JSON.stringify(
    lines.map((line) => ({
      productType: line.kind,
      serialNo: line.serialNo,
      quantity: line.quantity,
    })),
  );
}

/** The shipping details, sent with the cart's lines to be priced for review (`#checkout-form`). */
export function CheckoutForm({
  lines,
  values,
  errors,
  message,
  onChange,
  shippingId,
  pickup,
  signedIn,
  autocompleteScript,
}: {
  lines: CartLine[];
  values: ShippingValues;
  errors: Record<string, string | undefined>;
  message: string | null;
  onChange: (name: keyof ShippingValues, value: string) => void;
  shippingId: string;
  /** Picked up at the store: only who collects it is asked. */
  pickup: boolean;
  signedIn: boolean;
  autocompleteScript: string | null;
}) {
  return (
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
        onChange={onChange}
        pickup={pickup}
        autocompleteScript={autocompleteScript}
      />
      <input type="hidden" name="lines" value={linesJson(lines)} />
      <input type="hidden" name="shippingMethod" value={shippingId} />
      {signedIn ? null : (
        <p className="text-sm text-muted-foreground">
          You will be asked to log in or create an account; your cart and details stay here.
        </p>
      )}
    </Form>
  );
}
