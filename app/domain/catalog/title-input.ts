import { z } from "zod";
import { isCalendarDate } from "#app/lib/calendar-date.ts";
import {
  DISCS,
  RELEASE_YEAR_FORMAT_MESSAGE,
  RELEASE_YEAR_MAX,
  RELEASE_YEAR_MIN,
} from "#app/lib/catalog.ts";
import { count, optionalText, price, requiredText } from "#app/lib/input-rules.ts";

// The add/edit rules of spec §5, one schema per catalogue, used by the admin forms and by the
// CSV import alike. Input is text as typed (or as a CSV cell); output is what the table stores.

export const regularTitleSchema = z.object({
  productId: requiredText("ProductID", 100),
  qtyToList: count("QtyToList", "QtyToList must be a whole number, 0 or more."),
  title: requiredText("Title", 300),
  releaseYear: z
    .string()
    .trim()
    .refine((value) => value === "" || /^\d{4}$/.test(value), RELEASE_YEAR_FORMAT_MESSAGE)
    .transform((value) => (value === "" ? null : Number(value)))
    .refine(
      (value) => value === null || (value >= RELEASE_YEAR_MIN && value <= RELEASE_YEAR_MAX),
      `Year must be between ${RELEASE_YEAR_MIN} and ${RELEASE_YEAR_MAX}`,
    ),
  disc: z.enum(DISCS, { error: "Choose DVD, Blu-ray, 4K/Blu-ray or Collections." }),
  type: optionalText(100),
  currentPriceCents: price("CurrentPrice"),
  description: optionalText(5000),
  genres: optionalText(300),
  director: optionalText(300),
  cast: optionalText(2000),
});
export type RegularTitleInput = z.input<typeof regularTitleSchema>;
export type RegularTitleValues = z.output<typeof regularTitleSchema>;

export const adultTitleSchema = z.object({
  productId: z
    .string()
    .trim()
    .min(1, "ProductID is required.")
    .regex(/^\d{1,9}$/, "ProductID must be a number.")
    .transform(Number),
  condition: optionalText(100),
  priceCents: price("Price"),
  quantity: count("Quantity", "Quantity must be a whole number, 0 or more."),
  title: requiredText("Title", 300),
  production: optionalText(300),
  releaseDate: z
    .string()
    .trim()
    .refine((value) => value === "" || isCalendarDate(value), "Date must be in YYYY-MM-DD format")
    .transform((value) => value || null),
  description: optionalText(5000),
});
export type AdultTitleInput = z.input<typeof adultTitleSchema>;
export type AdultTitleValues = z.output<typeof adultTitleSchema>;

/** Spec §5 Coming Soon: title and release date required (the poster is checked on upload). */
export const comingSoonSchema = z.object({
  title: requiredText("Title", 300),
  releaseDate: z
    .string()
    .trim()
    .min(1, "Release date is required.")
    .refine(isCalendarDate, "Date must be in YYYY-MM-DD format"),
  description: optionalText(2000),
});

/**
 * Linking a Coming Soon entry to its title, once in the catalogue: the regular title's
 * RegSerialNo, and whether the entry leaves the Coming Soon row (a checkbox: present when ticked).
 */
export const comingSoonLinkSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, "There is no such entry.")
    .transform(Number),
  regSerialNo: z
    .string()
    .trim()
    .min(1, "Please enter the catalogue serial number.")
    .regex(/^\d{1,9}$/, "The serial number is a whole number, as the catalogue shows it.")
    .transform(Number),
  retire: z
    .string()
    .optional()
    .transform((value) => value !== undefined),
});
