import type { ShippingAddress } from "#app/domain/orders/checkout-input.ts";
import { US_STATE_CODES, US_STATE_NAMES } from "#app/lib/us-states.ts";
import { useAddressAutocomplete, type PickedAddress } from "./address-autocomplete.ts";
import { FormField, SelectField } from "./form-field.tsx";

export type ShippingValues = Record<keyof ShippingAddress, string>;
export const EMPTY_SHIPPING: ShippingValues = {
  name: "",
  address: "",
  city: "",
  state: "",
  postalCode: "",
  phone: "",
  email: "",
};

/**
 * The seven shipping fields (spec §5), each with its own message. Controlled by the cart page so
 * what was typed survives every error, a sign-in and a trip to the review step.
 */
export function ShippingFields({
  values,
  errors,
  onChange,
  pickup = false,
  autocompleteScript = null,
}: {
  values: ShippingValues;
  errors: Partial<Record<keyof ShippingAddress, string>>;
  onChange: (name: keyof ShippingAddress, value: string) => void;
  /** Picked up at the store: no address, only who collects it and how to reach them. */
  pickup?: boolean;
  /** The Maps script for US address autocomplete, when the shop has a key. */
  autocompleteScript?: string | null;
}) {
  const streetInput = useAddressAutocomplete(autocompleteScript, (picked) => {
    for (const [name, value] of Object.entries(picked) as [keyof PickedAddress, string][]) {
      if (value) onChange(name, value);
    }
  });
  const field = (name: keyof ShippingAddress) => ({
    name,
    value: values[name],
    error: errors[name],
    required: true,
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      onChange(name, event.target.value),
  });
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2">
      <legend className="mb-3 text-lg font-semibold">
        {pickup ? "Who picks it up" : "Shipping details"}
      </legend>
      <FormField
        label="Full name"
        autoComplete="shipping name"
        maxLength={200}
        className="sm:col-span-2"
        {...field("name")}
      />
      {pickup ? null : (
        <>
          <FormField
            label="Street address"
            autoComplete="shipping street-address"
            maxLength={300}
            className="sm:col-span-2"
            ref={streetInput}
            {...field("address")}
          />
          <FormField
            label="City"
            autoComplete="shipping address-level2"
            maxLength={100}
            {...field("city")}
          />
          <SelectField
            label="State"
            autoComplete="shipping address-level1"
            {...field("state")}
            placeholder="Choose a state"
            options={US_STATE_CODES.map((code) => ({ value: code, label: US_STATE_NAMES[code] }))}
          />
          <FormField
            label="ZIP code"
            autoComplete="shipping postal-code"
            inputMode="numeric"
            maxLength={10}
            {...field("postalCode")}
          />
        </>
      )}
      <FormField
        label="Phone"
        type="tel"
        autoComplete="shipping tel"
        maxLength={25}
        {...field("phone")}
      />
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        maxLength={254}
        className="sm:col-span-2"
        {...field("email")}
      />
    </fieldset>
  );
}
