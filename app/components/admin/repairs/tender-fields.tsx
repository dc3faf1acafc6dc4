import { FormField } from "#app/components/form-field.tsx";

/** What a payment at the desk asks besides the amount: the cash handed over, or the card's slip. */
export function TenderFields({
  values,
  errors,
}: {
  values?: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
}) {
  return (
    <>
      <FormField
        label="Cash handed over ($)"
        name="tendered"
        inputMode="decimal"
        autoComplete="off"
        hint="Cash only; blank when it was the amount exactly."
        defaultValue={values?.tendered}
        error={errors.tendered}
      />
      <FormField
        label="Card reference"
        name="reference"
        maxLength={60}
        autoComplete="off"
        hint="Card only, from the slip; optional."
        defaultValue={values?.reference}
        error={errors.reference}
      />
    </>
  );
}
