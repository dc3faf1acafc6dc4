import { z } from "zod";

/** Staff correcting a customer's date of birth: the date (empty clears it) and why. */
export const birthDateCorrectionSchema = z.object({
  dateOfBirth: z
    .string()
    .trim()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, "Enter a real date of birth.")
    .refine((value) => {
      if (!value) return true;
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date < new Date() && date.getUTCFullYear() >= 1900;
    }, "Enter a real date of birth."),
  note: z
    .string()
    .trim()
    .min(3, "Say why it is corrected (for example: ID seen at the counter).")
    .max(200, "Keep the note under 200 characters."),
});
