import { z } from "zod";
import { hasControlCharacters } from "#app/lib/clean-text.ts";

/** No line breaks or other control characters: these fields reach e-mail headers. */
const oneLine = (value: string) => !/[\r\n\t]/.test(value) && !hasControlCharacters(value);

/** Spec §5 contact form: name, e-mail and message, all required. */
export const contactSchema = z.object({
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
  message: z
    .string()
    .trim()
    .min(1, "Please enter a message.")
    .max(5000, "Please keep your message under 5,000 characters."),
});
export type ContactInput = z.infer<typeof contactSchema>;

/** A field people never see: only bots fill it in. */
export const HONEYPOT_FIELD = "website";
