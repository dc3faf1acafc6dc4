import { FormField, SelectField, TextareaField } from "#app/components/form-field.tsx";
import { DEVICE_KINDS } from "#app/domain/repair-tickets/status.ts";
import { SenderFields, ServiceField } from "#app/components/sender-fields.tsx";

/** The ticket's fields as the intake and correction forms send them. */
export const TICKET_FIELDS = [
  "name",
  "email",
  "phone",
  "serviceType",
  "deviceKind",
  "deviceBrand",
  "deviceModel",
  "deviceSerial",
  "problem",
  "conditionAtIntake",
  "accessories",
  "promisedDate",
] as const;
export type TicketFieldValues = Record<(typeof TICKET_FIELDS)[number], string>;

/**
 * The customer, the device and what was said at the counter: the fields of the intake form,
 * and of the form that corrects them. `photos` goes before the promised date (intake only).
 */
export function RepairTicketFields({
  values,
  errors,
  today,
  photos,
}: {
  values: TicketFieldValues;
  errors: Record<string, string | undefined>;
  today: string;
  photos?: React.ReactNode;
}) {
  const field = (name: keyof TicketFieldValues) => ({
    name,
    defaultValue: values[name],
    error: errors[name],
  });
  return (
    <>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold">Customer</legend>
        <SenderFields
          values={values}
          errors={errors}
          phone
          typedBy="staff"
          nameClassName="sm:col-span-2"
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold">Device</legend>
        <ServiceField value={values.serviceType} error={errors.serviceType} />
        <SelectField
          label="Kind of device"
          {...field("deviceKind")}
          placeholder="Choose a kind"
          options={DEVICE_KINDS}
        />
        <FormField label="Brand" maxLength={60} autoComplete="off" {...field("deviceBrand")} />
        <FormField label="Model" maxLength={80} autoComplete="off" {...field("deviceModel")} />
        <FormField
          label="Serial number or IMEI (optional)"
          maxLength={60}
          autoComplete="off"
          className="sm:col-span-2"
          {...field("deviceSerial")}
        />
      </fieldset>
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-lg font-semibold">At the counter</legend>
        <TextareaField
          label="Problem, as the customer tells it"
          rows={3}
          maxLength={2000}
          {...field("problem")}
        />
        <TextareaField
          label="Condition at intake"
          rows={2}
          maxLength={1000}
          {...field("conditionAtIntake")}
        />
        <FormField
          label="Accessories left with the device (optional)"
          maxLength={500}
          autoComplete="off"
          {...field("accessories")}
        />
        {photos}
        <FormField
          label="Promised date"
          type="date"
          min={today}
          className="sm:max-w-xs"
          {...field("promisedDate")}
        />
      </fieldset>
    </>
  );
}
