import { z } from "zod";
import { parsePriceToCents } from "./money.ts";

// Rules for fields typed in the back office (or read from a CSV cell), shared by the catalogues'
// titles and the store's items: text as typed in, what the table stores out.

const MAX_PRICE_CENTS = 10_000_000; // $100,000: anything above is a typo
const MAX_STOCK = 1_000_000;

export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters.`)
    .transform((value) => value || null);

export const requiredText = (label: string, max: number) =>
  z.string().trim().min(1, `${label} is required.`).max(max, `At most ${max} characters.`);

export const price = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required.`)
    .transform((value, context) => {
      const cents = parsePriceToCents(value);
      if (cents === undefined || cents > MAX_PRICE_CENTS) {
        context.addIssue({
          code: "custom",
          message: `${label} must be a number of dollars, e.g. 12.99.`,
        });
        return z.NEVER;
      }
      return cents;
    });

export const count = (label: string, message: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required.`)
    .regex(/^\d+$/, message)
    .transform(Number)
    .refine((value) => value <= MAX_STOCK, `${label} must be at most ${MAX_STOCK}.`);
