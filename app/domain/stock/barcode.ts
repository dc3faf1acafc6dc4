import { z } from "zod";

// Barcodes as a scanner types them: the digits of a GTIN (EAN-8, UPC-A, EAN-13 or GTIN-14) and
// Enter. The last digit checks the others (GS1's mod-10: from the right, the digits before it
// weigh 3, 1, 3, …), so a misread or mistyped code is refused instead of finding nothing, or the
// wrong product.

const GTIN_LENGTHS = new Set([8, 12, 13, 14]);

/** Whether the digits' last one is the GS1 check digit of the others. */
export function hasValidCheckDigit(digits: string): boolean {
  if (!/^\d+$/.test(digits) || digits.length < 2) return false;
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) {
    sum += Number(digits[i]) * weight;
  }
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

export type BarcodeCheck = { ok: true; barcode: string } | { ok: false; message: string };

/**
 * A barcode as typed or scanned, spaces and dashes allowed between its digits, kept as its
 * digits; a UPC-A is kept as it is printed (12 digits), not widened to its EAN-13.
 */
export function checkBarcode(typed: string): BarcodeCheck {
  const digits = typed.replace(/[\s-]/g, "");
  if (!/^\d+$/.test(digits)) return { ok: false, message: "A barcode is digits only." };
  if (!GTIN_LENGTHS.has(digits.length)) {
    return { ok: false, message: "A barcode has 8, 12, 13 or 14 digits." };
  }
  if (!hasValidCheckDigit(digits)) {
    return {
      ok: false,
      message: "This barcode's last digit does not match: check it or scan again.",
    };
  }
  return { ok: true, barcode: digits };
}

/**
 * The code as a GTIN-14, the one form GS1 compares codes in: a UPC-A, the same code printed or
 * scanned as its EAN-13 (a leading 0) and an EAN-8 all widen with leading zeros to 14 digits, so
 * a product found by its UPC-A is found by a scanner that sends the EAN-13, and one code cannot
 * be on two products in two lengths. The column `product_barcodes.gtin` is this, kept by the
 * database (migration 0044).
 */
export function gtinOf(barcode: string): string {
  return barcode.padStart(14, "0");
}

/** Whether these digits are a whole GTIN's length (EAN-8, UPC-A, EAN-13, GTIN-14). */
export function isGtinLength(digits: string): boolean {
  return GTIN_LENGTHS.has(digits.length);
}

/** A barcode form field or CSV cell: empty for none, else a checked GTIN's digits. */
export const barcodeField = z
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
