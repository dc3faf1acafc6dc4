import { z } from "zod";
import { SERVICE_TYPES } from "#app/lib/catalog.ts";
import { hasControlCharacters } from "#app/lib/clean-text.ts";
import { senderEmail, senderName, usPhone } from "#app/lib/contact-fields.ts";

/**
 * Spec §5 service form: every field required, the service from the list. The date and time are
 * the shop-local slot the form offered; whether it is still bookable is the server's call
 * (`checkSlot`, then the slot's places).
 */
export const bookingSchema = z.object({
  name: senderName,
  email: senderEmail,
  phone: usPhone("Please enter your phone number."),
  serviceType: z.enum(SERVICE_TYPES, { error: "Please choose a service." }),
  issue: z
    .string()
    .trim()
    .min(1, "Please describe the problem.")
    .max(2000, "Please keep the description under 2,000 characters.")
    .refine(
      (value) => !hasControlCharacters(value),
      "The description contains invalid characters.",
    ),
  preferredDate: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Please choose a date."),
  preferredTime: z
    .string()
    .trim()
    .regex(/^\d{2}:\d{2}$/, "Please choose a time."),
});
export type BookingInput = z.infer<typeof bookingSchema>;

/** The success page's query when the booking waits for the link mailed to its address. */
export const SUCCESS_AWAITING_EMAIL = "confirm=email";
