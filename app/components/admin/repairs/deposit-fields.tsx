import { FormField, SelectField } from "#app/components/form-field.tsx";
import { TenderFields } from "./tender-fields.tsx";

/**
 * A deposit's fields, the same on the ticket's Deposit form and on the intake form: how it was
 * paid, the amount, and the cash handed over or the card's slip.
 */
export function DepositFields({
  values,
  errors,
  placeholder = "Choose cash or card",
}: {
  values?: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
  placeholder?: string;
}) {
  return (
    <>
      <SelectField
        label="Deposit paid by"
        name="method"
        defaultValue={values?.method ?? ""}
        error={errors.method}
        placeholder={placeholder}
        options={[
          { value: "cash", label: "Cash" },
          { value: "card", label: "Card" },
        ]}
      />
      <FormField
        label="Deposit ($)"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={values?.amount}
        error={errors.amount}
      />
      <TenderFields values={values} errors={errors} />
    </>
  );
}
