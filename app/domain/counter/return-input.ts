import { z } from "zod";
import { fieldErrors, type FieldErrors } from "#app/domain/accounts/forms.ts";
import { idCheckField, optionalMoney } from "./counter-input.ts";
import { MAX_LINE_QUANTITY } from "./sale-limits.ts";
import { COUNTER_RETURN_REASONS } from "./status.ts";

// The counter's return form (decision 023, point 7): the server's authority on what was typed.

export const counterReturnSchema = z.object({
  intent: z.enum(["refund", "exchange"], "Choose a refund or an exchange."),
  /** The form's own key, made when it was shown: a second press of it records nothing more. */
  key: z.string().regex(/^[\w-]{16,64}$/, "This form is out of date: open it again."),
  reason: z.enum(COUNTER_RETURN_REASONS, "Choose why it comes back."),
  /** An exchange: cash for what the credit does not cover. */
  cashTendered: optionalMoney("Cash for the difference")
    .optional()
    .transform((cents) => cents ?? 0),
  idCheck: idCheckField,
});

/** The field of a line's quantity on the return form. */
export const quantityField = (lineId: number) => `qty-${lineId}`;

const quantity = z
  .string()
  .trim()
  .regex(/^\d{0,3}$/, "How many: a whole number, or leave it empty.")
  .transform((value) => (value === "" ? 0 : Number(value)))
  .refine((value) => value <= MAX_LINE_QUANTITY, `At most ${MAX_LINE_QUANTITY}.`);

export type CounterReturnForm = z.output<typeof counterReturnSchema> & {
  quantities: Map<number, number>;
};

/** The return form as posted: its fields, and how many of each line (`qty-<line>`) come back. */
export function readReturnForm(
  form: Record<string, string>,
): { ok: true; values: CounterReturnForm } | { ok: false; errors: FieldErrors; message: string } {
  const errors: FieldErrors = {};
  const quantities = new Map<number, number>();
  for (const [name, value] of Object.entries(form)) {
    const line = /^qty-(\d{1,15})$/.exec(name);
    if (!line) continue;
    const parsed = quantity.safeParse(value);
    if (parsed.success) {
      if (parsed.data > 0) quantities.set(Number(line[1]), parsed.data);
    } else errors[name] = parsed.error.issues[0]!.message;
  }
  const parsed = counterReturnSchema.safeParse(form);
  if (!parsed.success) Object.assign(errors, fieldErrors(parsed.error));
  if (!parsed.success || Object.keys(errors).length > 0) {
    return { ok: false, errors, message: Object.values(errors)[0] ?? "Please check the form." };
  }
  return { ok: true, values: { ...parsed.data, quantities } };
}
