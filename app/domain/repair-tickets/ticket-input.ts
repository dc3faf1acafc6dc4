import { z } from "zod";
import { SERVICE_TYPES } from "#app/lib/catalog.ts";
import { boundedText } from "#app/lib/clean-text.ts";
import { emailField, personNameField, usPhone } from "#app/lib/contact-fields.ts";
import { isCalendarDate } from "#app/lib/calendar-date.ts";
import { parsePriceToCents } from "#app/lib/money.ts";
import { DEVICE_KINDS, PAYMENT_METHODS, TICKET_STATUSES } from "./status.ts";

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The intake form at the counter: a walk-in, or a booking from the inbox with its fields carried
 * over (`serviceRequestId`). Whether the promised date is in the past is the server's call.
 */
export const ticketSchema = z.object({
  serviceRequestId: z.coerce.number().int().positive().optional(),
  name: personNameField({
    missing: "Enter the customer's name.",
    tooLong: "Keep the customer's name under 100 characters.",
    lineBreaks: "The customer's name cannot contain line breaks.",
  }),
  email: emailField("Enter the customer's e-mail address."),
  phone: usPhone("Enter the customer's phone number."),
  serviceType: z.enum(SERVICE_TYPES, { error: "Please choose a service." }),
  deviceKind: z.enum(DEVICE_KINDS, { error: "Please choose the kind of device." }),
  deviceBrand: boundedText(60, "Please enter the brand."),
  deviceModel: boundedText(80, "Please enter the model."),
  deviceSerial: boundedText(60, null)
    .optional()
    .transform((value) => value || undefined),
  problem: boundedText(2000, "Please describe the problem as the customer told it."),
  conditionAtIntake: boundedText(1000, "Please note the device's condition."),
  accessories: boundedText(500, null).optional().default(""),
  promisedDate: z
    .string()
    .trim()
    .regex(isoDate, "Please choose a promised date.")
    .refine(isCalendarDate, "Please choose a promised date."),
});
export type TicketInput = z.infer<typeof ticketSchema>;

/**
 * A correction of what was typed at intake: the same fields and rules, the version of the
 * details the staff member saw (`seen`, so a correction made meanwhile is not overwritten
 * unnoticed), and why, for the history (optional).
 */
export const correctionSchema = ticketSchema.omit({ serviceRequestId: true }).extend({
  seen: z.string().min(1),
  note: boundedText(300, null).optional().default(""),
});
export type CorrectionInput = z.infer<typeof correctionSchema>;

/** Photos of the device a ticket keeps (files, checked apart from the schema's fields). */
export const MAX_TICKET_PHOTOS = 5;

/** A status change made by hand, with the status the staff member saw (so a race is noticed). */
export const moveSchema = z.object({
  to: z.enum(TICKET_STATUSES, { error: "Please choose the next status." }),
  from: z.enum(TICKET_STATUSES),
  note: boundedText(500, null).optional().default(""),
});

/**
 * The most any repair amount can be: a line's unit price, an estimate's total with its tax, an
 * amount taken at collection. A repair bench never needs more, and every amount a ticket keeps
 * (sums included) stays far inside its integer columns.
 */
export const MAX_REPAIR_CENTS = 10_000_000;

const cents = z
  .unknown()
  .transform((value, context) => {
    const parsed = parsePriceToCents(value);
    if (parsed === undefined) {
      context.addIssue({ code: "custom", message: "Please enter a price, e.g. 49.99." });
      return z.NEVER;
    }
    return parsed;
  })
  .pipe(z.number().int().min(0).max(MAX_REPAIR_CENTS, "Please enter a price up to $100,000."));

/** One line of an estimate as typed: the unit price in dollars ("49.99"), kept as cents. */
export const estimateLineSchema = z
  .object({
    kind: z.enum(["labour", "part"], { error: "Please choose labour or part." }),
    description: boundedText(120, "Please describe the line."),
    quantity: z.coerce
      .number({ error: "Please enter a quantity." })
      .int("Please enter a whole number.")
      .min(1, "The quantity is at least 1.")
      .max(999, "The quantity is at most 999."),
    unitPrice: cents,
  })
  .transform(({ unitPrice, ...line }) => ({ ...line, unitCents: unitPrice }));
export type EstimateLine = z.infer<typeof estimateLineSchema>;

/** The most lines an estimate can have (rows the form adds in the browser, up to this). */
export const MAX_ESTIMATE_LINES = 20;

export const estimateSchema = z.object({
  from: z.enum(TICKET_STATUSES),
  lines: z
    .array(estimateLineSchema)
    .min(1, "An estimate needs at least one line.")
    .max(MAX_ESTIMATE_LINES, `An estimate has at most ${MAX_ESTIMATE_LINES} lines.`),
  note: boundedText(1000, null).optional().default(""),
});
export type EstimateInput = z.infer<typeof estimateSchema>;

/** Cash handed over, in dollars; left blank when it was the amount exactly. */
const tendered = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  cents.optional(),
);

/** The card payment's reference (the slip's or the reader's), when there is one to keep. */
const cardReference = boundedText(60, null)
  .optional()
  .transform((value) => value || undefined);

/**
 * The key a desk form was shown with (a new one each time the ticket's page is drawn): the same
 * form sent twice takes its money once, and the second answer is the first's.
 */
export const formKey = z
  .string({ error: "This form is out of date: open it again." })
  .regex(/^[\w-]{16,64}$/, "This form is out of date: open it again.");

export const collectSchema = z
  .object({
    key: formKey,
    paymentMethod: z.enum(PAYMENT_METHODS, { error: "Please choose how it was paid." }),
    paid: cents,
    /** Why the amount differs from the approved total; the server asks for it when it does. */
    reason: boundedText(300, null).optional().default(""),
    tendered,
    reference: cardReference,
  })
  .refine((value) => value.paymentMethod !== "no_charge" || value.paid === 0, {
    path: ["paid"],
    message: "No charge means an amount of $0.00.",
  });

/** A deposit taken at the desk: cash (with what was handed over) or card, more than nothing. */
export const depositSchema = z.object({
  key: formKey,
  method: z.enum(["cash", "card"], { error: "Please choose cash or card." }),
  amount: cents.pipe(z.number().min(1, "Please enter the deposit, e.g. 50.00.")),
  tendered,
  reference: cardReference,
});
export type DepositInput = z.infer<typeof depositSchema>;

/** The deposit's fields as its forms send them (the ticket's Deposit form, and intake). */
export const DEPOSIT_FIELDS = ["method", "amount", "tendered", "reference"] as const;

/**
 * The intake form's optional deposit: none when its fields are all left blank, otherwise the
 * deposit form's rules.
 */
export function intakeDeposit(
  form: Record<string, string | undefined>,
): { ok: true; deposit: DepositInput | null } | { ok: false; error: z.ZodError } {
  if (DEPOSIT_FIELDS.every((field) => !form[field]?.trim())) return { ok: true, deposit: null };
  const parsed = depositSchema.safeParse(form);
  return parsed.success ? { ok: true, deposit: parsed.data } : { ok: false, error: parsed.error };
}

/**
 * A refund of what a ticket took, when the device goes back unrepaired: the amount (the form
 * starts with all that can go back); how it goes back is the server's, from how it was paid.
 */
export const refundSchema = z.object({
  key: formKey,
  amount: cents.pipe(z.number().min(1, "Please enter the amount to refund, e.g. 50.00.")),
});

/**
 * How many line rows the estimate form starts with (all a browser without JavaScript gets);
 * "Add line" adds more, up to MAX_ESTIMATE_LINES. Rows left blank are ignored.
 */
export const ESTIMATE_FORM_ROWS = 5;
const LINE_FIELDS = ["kind", "description", "quantity", "unitPrice"] as const;
export type EstimateRowValues = Record<(typeof LINE_FIELDS)[number], string>;

/**
 * Reads the estimate form's rows (`lines.0.description` ...) as the schema's input, leaving out
 * rows with neither a description nor a price (their kind and quantity have defaults); `rows`
 * keeps each line's row, so a message finds its field. `values` has every row sent (at least
 * the form's first five, at most MAX_ESTIMATE_LINES), so a form sent back keeps them all.
 */
export function readEstimateForm(form: Record<string, string>) {
  let sent = ESTIMATE_FORM_ROWS;
  for (let row = MAX_ESTIMATE_LINES - 1; row >= ESTIMATE_FORM_ROWS; row--) {
    if (LINE_FIELDS.some((field) => `lines.${row}.${field}` in form)) {
      sent = row + 1;
      break;
    }
  }
  const values: EstimateRowValues[] = [];
  for (let row = 0; row < sent; row++) {
    values.push(
      Object.fromEntries(
        LINE_FIELDS.map((field) => [field, form[`lines.${row}.${field}`] ?? ""]),
      ) as EstimateRowValues,
    );
  }
  const rows = values
    .map((line, row) => ({ line, row }))
    .filter(({ line }) => [line.description, line.unitPrice].some((v) => v.trim()));
  return {
    values,
    rows: rows.map(({ row }) => row),
    input: {
      from: form.from,
      note: form.note ?? "",
      lines: rows.map(({ line }) => line),
    },
  };
}

/** The schema's messages keyed by the form's field names: `lines.2.unitPrice`, `note`, `lines`. */
export function estimateErrors(error: z.ZodError, rows: number[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const [first, index, field] = issue.path;
    const key =
      first === "lines" && typeof index === "number" && field !== undefined
        ? `lines.${rows[index]}.${String(field)}`
        : String(first ?? "form");
    errors[key] ??= issue.message;
  }
  return errors;
}
