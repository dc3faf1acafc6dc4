import { z } from "zod";
import { type FieldErrors, fieldErrors } from "#app/domain/accounts/forms.ts";
import { barcodeField } from "#app/domain/stock/barcode.ts";
import { count, price, requiredText } from "#app/lib/input-rules.ts";

// A store item as the back office's form and the items' CSV import type it (decision 023).

export const storeItemSchema = z.object({
  sku: requiredText("SKU", 40).regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    "SKU is letters, digits, dots, dashes and underscores.",
  ),
  name: requiredText("Name", 200),
  priceCents: price("Price"),
  stock: count("Stock", "Stock must be a whole number, 0 or more."),
  taxable: z
    .string()
    .trim()
    .toLowerCase()
    .refine(
      (value) => ["", "on", "true", "yes", "false", "no"].includes(value),
      "Taxable is yes or no.",
    )
    .transform((value) => ["on", "true", "yes"].includes(value)),
  barcode: barcodeField,
});

export type StoreItemValues = z.output<typeof storeItemSchema>;

/** The item form's fields, in the order the form and the CSV put them. */
export const STORE_ITEM_FIELDS = [
  "sku",
  "name",
  "priceCents",
  "stock",
  "taxable",
  "barcode",
] as const;

export type StoreItemTyped = Record<(typeof STORE_ITEM_FIELDS)[number], string>;

/**
 * The item as posted: every field as text (an unticked "taxable" box sends nothing, which is
 * "no"), checked against the schema. What was typed comes back either way, for the form to show.
 */
export function readStoreItemForm(
  form: Record<string, string | undefined>,
):
  | { ok: true; values: StoreItemValues; typed: StoreItemTyped }
  | { ok: false; errors: FieldErrors; typed: StoreItemTyped } {
  const typed = Object.fromEntries(
    STORE_ITEM_FIELDS.map((field) => [field, form[field] ?? ""]),
  ) as StoreItemTyped;
  const parsed = storeItemSchema.safeParse(typed);
  if (parsed.success) return { ok: true, values: parsed.data, typed };
  return { ok: false, errors: fieldErrors(parsed.error), typed };
}
