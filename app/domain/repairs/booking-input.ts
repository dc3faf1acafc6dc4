import { z } from "zod";
import { SERVICE_TYPES } from "#app/lib/catalog.ts";
import { hasControlCharacters } from "#app/lib/clean-text.ts";

/** No line breaks or other control characters: these fields reach e-mail headers or subjects. */
const oneLine = (value: string) => !/[\r\n\t]/.test(value) && !hasControlCharacters(value);

const PHONE_MESSAGE = "Enter a US phone number, e.g. (817) 555-0142.";

/**
 * Spec §5 service form: every field required, the service from the list. The date and time are
 * the shop-local slot the form offered; whether it is still bookable is the server's call
 * (`checkSlot`, then the slot's places).
 */
export const bookingSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Please enter your name.")
    .max(100, "Please keep your name under 100 characters.")
    .refine(oneLine, "Your name cannot contain line breaks."),
  email: z
    .string()
    .trim()
    .min(1, "Please enter your email.")
    .max(254, "That e-mail address is too long.")
    .refine(oneLine, "Invalid email address")
    .pipe(z.email("Invalid email address")),
  // A US number: ten digits, optionally after +1 or 1, written however people write them, on
  // one line (spaces only: no line breaks or tabs).
  phone: z
    .string()
    .trim()
    .min(1, "Please enter your phone number.")
    .max(25, PHONE_MESSAGE)
    .refine(
      (value) =>
        /^[\d ().+-]+$/.test(value) && /^1?[2-9]\d{2}[2-9]\d{6}$/.test(value.replace(/\D/g, "")),
      PHONE_MESSAGE,
    ),
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
