import { FormField, SelectField } from "#app/components/form-field.tsx";
import { SERVICE_TYPES } from "#app/lib/catalog.ts";

type Errors = Record<string, string | undefined>;

/**
 * Who a message, a booking or a repair ticket is from: name, e-mail and, where the shop calls
 * back, phone. On a shopper's own form the browser fills them in and they are required; on the
 * counter's form staff type a customer's details, which the browser must not offer to fill.
 * The lengths are the schemas' (app/lib/contact-fields.ts).
 */
export function SenderFields({
  values,
  errors,
  phone = false,
  typedBy = "sender",
  nameClassName,
}: {
  values: { name?: string; email?: string; phone?: string };
  errors: Errors;
  phone?: boolean;
  typedBy?: "sender" | "staff";
  nameClassName?: string;
}) {
  const own = typedBy === "sender";
  const field = (name: "name" | "email" | "phone", autoComplete: string, maxLength: number) => ({
    name,
    autoComplete: own ? autoComplete : "off",
    required: own || undefined,
    maxLength: own ? maxLength : undefined,
    defaultValue: values[name],
    error: errors[name],
  });
  return (
    <>
      <FormField label="Name" className={nameClassName} {...field("name", "name", 100)} />
      <FormField label="Email" type="email" {...field("email", "email", 254)} />
      {phone ? <FormField label="Phone" type="tel" {...field("phone", "tel", 25)} /> : null}
    </>
  );
}

/** The repair service asked for, from the shop's list. */
export function ServiceField({
  value,
  error,
  required,
}: {
  value: string | undefined;
  error: string | undefined;
  required?: boolean;
}) {
  return (
    <SelectField
      label="Service"
      name="serviceType"
      required={required}
      defaultValue={value}
      error={error}
      placeholder="Choose a service"
      options={SERVICE_TYPES}
    />
  );
}

/**
 * A field people never see and bots fill in: a message or booking that has it is dropped while
 * the sender is told all went well.
 */
export function HoneypotField({ id, name }: { id: string; name: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this empty</label>
      <input id={id} name={name} tabIndex={-1} autoComplete="off" />
    </div>
  );
}
