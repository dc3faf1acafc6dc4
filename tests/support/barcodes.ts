import { hasValidCheckDigit } from "#app/domain/stock/barcode.ts";

/**
 * A GTIN of `length` digits no other test is likely to use: random digits and the check digit
 * that makes them valid (the test run's files share one database, where a barcode is unique).
 */
export function freshBarcode(length = 13): string {
  const body = Array.from({ length: length - 1 }, () => Math.floor(Math.random() * 10)).join("");
  const check = [..."0123456789"].find((digit) => hasValidCheckDigit(body + digit))!;
  return body + check;
}
