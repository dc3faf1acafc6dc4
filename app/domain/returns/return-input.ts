import { z } from "zod";
import { boundedText } from "#app/lib/clean-text.ts";
import { PRODUCT_TYPES } from "#app/lib/catalog.ts";
import { LINE_CONDITIONS, RETURN_METHODS, RETURN_REASONS } from "./status.ts";

/** The form field of a line's quantity: `quantity.regular.1042`. */
export const lineField = (productType: string, serialNo: number) =>
  `quantity.${productType}.${serialNo}`;

/** The form field of a received line's condition: `condition.regular.1042`. */
export const conditionField = (productType: string, serialNo: number) =>
  `condition.${productType}.${serialNo}`;

const lineSchema = z.object({
  productType: z.enum(PRODUCT_TYPES),
  serialNo: z.number().int().positive(),
  quantity: z.number().int().min(1).max(999),
});

/**
 * The customer's return request. Which lines and how many are theirs to return is the server's
 * call (`requestReturn`), against the order as it was sold.
 */
export const returnRequestSchema = z.object({
  lines: z
    .array(lineSchema)
    .min(1, "Please choose at least one item to return.")
    // `quantity.regular.1` and `quantity.regular.01` name the same line.
    .refine(
      (lines) =>
        new Set(lines.map((line) => `${line.productType}:${line.serialNo}`)).size === lines.length,
      "Each item can be chosen only once.",
    ),
  reason: z.enum(RETURN_REASONS, { error: "Please choose a reason." }),
  note: boundedText(1000, null).optional().default(""),
  method: z.enum(RETURN_METHODS, { error: "Please choose how you will send it back." }),
});
export type ReturnRequestInput = z.infer<typeof returnRequestSchema>;

/**
 * Reads the request form: one `quantity.<type>.<serial>` select per line of the order (0: not
 * returned), the reason, the note and the method.
 */
export function readReturnRequestForm(form: Record<string, string>) {
  const lines: { productType: string; serialNo: number; quantity: number }[] = [];
  for (const [name, value] of Object.entries(form)) {
    const match = /^quantity\.(\w+)\.(\d{1,9})$/.exec(name);
    if (!match) continue;
    const quantity = Number(value);
    if (value.trim() === "" || quantity === 0) continue;
    lines.push({ productType: match[1]!, serialNo: Number(match[2]), quantity });
  }
  return returnRequestSchema.safeParse({
    lines,
    reason: form.reason || undefined,
    note: form.note ?? "",
    method: form.method || undefined,
  });
}

/** Staff receiving the parcel: each line's condition, and the status they saw. */
export function readReceiveForm(
  form: Record<string, string>,
  lines: readonly { productType: string; serialNo: number }[],
) {
  const conditionSchema = z.enum(LINE_CONDITIONS, {
    error: "Please say whether it goes back to stock.",
  });
  const conditions: {
    productType: string;
    serialNo: number;
    condition: (typeof LINE_CONDITIONS)[number];
  }[] = [];
  const errors: Record<string, string> = {};
  for (const line of lines) {
    const field = conditionField(line.productType, line.serialNo);
    const parsed = conditionSchema.safeParse(form[field]);
    if (parsed.success) conditions.push({ ...line, condition: parsed.data });
    else errors[field] = parsed.error.issues[0]!.message;
  }
  return { conditions, errors };
}

export const rejectSchema = z.object({
  reason: boundedText(500, "Please tell the customer why the return is rejected."),
});
