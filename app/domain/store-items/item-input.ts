import { z } from "zod";
import { checkBarcode } from "#app/domain/stock/barcode.ts";
import { count, price, requiredText } from "#app/lib/input-rules.ts";

// A store item as the back office's form and the items' CSV import type it (decision 023).

const barcode = z
  .string()
  .trim()
  .transform((value, context) => {
    if (value === "") return null;
    const checked = checkBarcode(value);
    if (!checked.ok) {
      context.addIssue({ code: "custom", message: checked.message });
      return z.NEVER;
    }
    return checked.barcode;
  });

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
  barcode,
});

export type StoreItemValues = z.output<typeof storeItemSchema>;
