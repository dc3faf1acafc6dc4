import { z } from "zod";
import { isBirthDate } from "#app/lib/calendar-date.ts";

/** Staff correcting a customer's date of birth: the date (empty clears it) and why. */
export const birthDateCorrectionSchema = z.object({
  dateOfBirth: z
    .string()
    .trim()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, "Enter a real date of birth.")
    .refine((value) => !value || isBirthDate(value), "Enter a real date of birth."),
  note: z
    .string()
    .trim()
    .min(3, "Say why it is corrected (for example: ID seen at the counter).")
    .max(200, "Keep the note under 200 characters."),
});
