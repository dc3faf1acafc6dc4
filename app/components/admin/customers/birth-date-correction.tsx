import { Form } from "react-router";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { formatShopDateTime } from "#app/lib/shop-time.ts";

type BirthDateChange = {
  createdAt: string | Date;
  fromDate: string | null;
  toDate: string | null;
  actorName: string | null;
  note: string | null;
};

/** The customer's date of birth, corrected by staff with a reason; every change is listed. */
export function BirthDateCorrection({
  dateOfBirth,
  birthDates,
  values,
  errors,
  busy,
  timeZone,
}: {
  dateOfBirth: string | null;
  birthDates: BirthDateChange[];
  values: { dateOfBirth?: string; note?: string } | undefined;
  errors: Record<string, string | undefined>;
  busy: boolean;
  timeZone: string;
}) {
  return (
    <section aria-labelledby="birth-date-heading" className="mt-8">
      <h2 id="birth-date-heading" className="text-xl font-semibold">
        Date of birth
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        It decides adult purchases. Customers give it once; corrections are made here and kept.
      </p>
      <Form method="post" className="mt-3 grid max-w-xl gap-3 sm:grid-cols-[12rem_1fr_auto]">
        <FormField
          label="Correct date of birth"
          name="dateOfBirth"
          type="date"
          defaultValue={values?.dateOfBirth ?? dateOfBirth ?? ""}
          error={errors.dateOfBirth}
        />
        <FormField
          label="Reason"
          name="note"
          maxLength={200}
          defaultValue={values?.note ?? ""}
          error={errors.note}
        />
        <Button type="submit" className="self-end" disabled={busy}>
          Correct
        </Button>
      </Form>
      {birthDates.length > 0 ? (
        <ul aria-label="Date of birth history" className="mt-4 space-y-1 text-sm">
          {birthDates.map((change) => (
            <li key={change.createdAt + (change.toDate ?? "")}>
              {formatShopDateTime(new Date(change.createdAt), timeZone)}:{" "}
              {change.fromDate ?? "none"} → {change.toDate ?? "none"}, by{" "}
              {change.actorName ?? "the customer"}
              {change.note ? ` (${change.note})` : ""}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
