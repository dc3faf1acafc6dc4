import { z } from "zod";
import { type FieldErrors, fieldErrors } from "#app/domain/accounts/forms.ts";
import { isBirthDate } from "#app/lib/calendar-date.ts";
import { parsePriceToCents } from "#app/lib/money.ts";
import { price } from "#app/lib/input-rules.ts";
import { MAX_LINE_QUANTITY } from "./sale-limits.ts";

// What the counter's forms send (decision 023): one schema per form, the server's authority.

/** An amount of money that may be left empty (null), in cents. */
const moneyOrEmpty = (label: string) =>
  z
    .string()
    .trim()
    .default("")
    .transform((value, context) => {
      if (value === "") return null;
      const cents = parsePriceToCents(value);
      if (cents === undefined || cents > 10_000_000) {
        context.addIssue({ code: "custom", message: `${label} must be an amount, e.g. 20.00.` });
        return z.NEVER;
      }
      return cents;
    });

/** An amount of money that may be left empty (nothing), in cents. */
export const optionalMoney = (label: string) =>
  moneyOrEmpty(label).transform((cents) => cents ?? 0);

const quantity = z
  .string()
  .trim()
  .regex(/^\d{1,3}$/, `Quantity is a whole number from 1 to ${MAX_LINE_QUANTITY}.`)
  .transform(Number)
  .refine(
    (value) => value >= 1 && value <= MAX_LINE_QUANTITY,
    `Quantity is a whole number from 1 to ${MAX_LINE_QUANTITY}.`,
  );

export const openTillSchema = z.object({ float: price("The float") });

export const closeTillSchema = z.object({ counted: price("The counted cash") });

export const scanSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "Scan a barcode, or type a serial, a SKU or a name.")
    .max(100, "At most 100 characters."),
});

export const addSchema = z.object({
  type: z.enum(["regular", "adult", "item"]),
  id: z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number),
});

export const lineSchema = z
  .object({
    line: z
      .string()
      .regex(/^\d{1,15}$/, "Unknown line.")
      .transform(Number),
    quantity,
    discount: optionalMoney("The discount"),
    reason: z.string().trim().max(120, "At most 120 characters."),
  })
  .refine((line) => line.discount === 0 || line.reason.length >= 3, {
    path: ["reason"],
    message: "Say why the discount is given.",
  });

/** The birth date on the customer's ID; sent only when the sale has adult titles. */
export const idCheckField = z
  .string()
  .default("")
  .transform((value) => value.trim())
  .refine(
    (value) => value === "" || (/^\d{4}-\d{2}-\d{2}$/.test(value) && isBirthDate(value)),
    "Type the birth date on the ID as a real date.",
  )
  .transform((value) => value || null);

export const paySchema = z.object({
  cashTendered: optionalMoney("Cash tendered"),
  /** The card's part of a card or split payment; empty: what the cash does not cover. */
  card: moneyOrEmpty("The card amount"),
  /** Sent only when the sale has adult titles. */
  idCheck: idCheckField,
});

/** Finding a pickup order by the code the customer was e-mailed (typed, or scanned from its QR). */
export const pickupCodeSearchSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "Type or scan the pickup code.")
    .max(40, "A pickup code is 8 letters and digits."),
});

/** Finding a pickup order by the customer's name and the order number, without the code. */
export const pickupNameSearchSchema = z.object({
  orderNumber: z
    .string()
    .trim()
    .regex(/^#?\d{1,15}$/, "Type the order number, e.g. 1042.")
    .transform((value) => Number(value.replace("#", ""))),
  name: z
    .string()
    .trim()
    .min(2, "Type the customer's name as on the order.")
    .max(200, "At most 200 characters."),
});

/** A pickup handed over at the counter: which order, and the ID check its adult titles need. */
export const collectPickupSchema = z.object({
  orderId: z
    .string()
    .regex(/^\d{1,15}$/, "Find the order again.")
    .transform(Number),
  idCheck: idCheckField,
});

export const receiptEmailSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Type the customer's e-mail address.")
    .max(254, "At most 254 characters.")
    .pipe(z.email("Type a whole e-mail address, such as name@example.com.")),
});

/** A counter form as posted, checked against its schema; what was typed comes back either way. */
export function readCounterForm<S extends z.ZodType<unknown, Record<string, string>>>(
  schema: S,
  form: Record<string, string>,
): { ok: true; values: z.output<S> } | { ok: false; errors: FieldErrors; message: string } {
  const parsed = schema.safeParse(form);
  if (parsed.success) return { ok: true, values: parsed.data };
  const errors = fieldErrors(parsed.error);
  return { ok: false, errors, message: Object.values(errors)[0] ?? "Please check the form." };
}
