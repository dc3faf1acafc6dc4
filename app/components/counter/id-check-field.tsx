import { FormField } from "#app/components/form-field.tsx";

/** The ID check adult titles need at the counter, for a sale and a pickup alike. */
export function IdCheckField({ value, error }: { value: string; error: string | undefined }) {
  return (
    <FormField
      label="Birth date on the customer's ID"
      name="idCheck"
      type="date"
      required
      hint="Adult titles: check a photo ID; the customer must be 18 or older."
      defaultValue={value}
      error={error}
    />
  );
}
