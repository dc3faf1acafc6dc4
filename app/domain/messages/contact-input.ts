import { z } from "zod";
import { senderEmail, senderName } from "#app/lib/contact-fields.ts";

/** Spec §5 contact form: name, e-mail and message, all required. */
export const contactSchema = z.object({
  name: senderName,
  email: senderEmail,
  message: z
    .string()
    .trim()
    .min(1, "Please enter a message.")
    .max(5000, "Please keep your message under 5,000 characters."),
});
export type ContactInput = z.infer<typeof contactSchema>;

/** A field people never see: only bots fill it in. */
export const HONEYPOT_FIELD = "website";
