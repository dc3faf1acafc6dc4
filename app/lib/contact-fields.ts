import { z } from "zod";
import { hasControlCharacters } from "./clean-text.ts";

// Fields of the forms that reach the shop's e-mail (contact, repair booking, checkout): one
// schema piece each, so the rules and messages are the same everywhere.

/** No line breaks or other control characters: such fields end up in e-mail headers. */
export function isOneLine(value: string): boolean {
  return !/[\r\n\t]/.test(value) && !hasControlCharacters(value);
}

/**
 * A person's name, with the messages of the form it is on: a customer's own form speaks to them
 * (the spec's words), a staff form about the customer.
 */
export function personNameField(messages: {
  missing: string;
  tooLong: string;
  lineBreaks: string;
}) {
  return z
    .string()
    .trim()
    .min(1, messages.missing)
    .max(100, messages.tooLong)
    .refine(isOneLine, messages.lineBreaks);
}

/** An e-mail address the shop will write to (spec: 'Invalid email address'). */
export function emailField(missing: string) {
  return z
    .string()
    .trim()
    .min(1, missing)
    .max(254, "That e-mail address is too long.")
    .refine(isOneLine, "Invalid email address")
    .pipe(z.email("Invalid email address"));
}

/** A person's name as typed into a contact form. */
export const senderName = personNameField({
  missing: "Please enter your name.",
  tooLong: "Please keep your name under 100 characters.",
  lineBreaks: "Your name cannot contain line breaks.",
});

/** The sender's own e-mail address on a contact form. */
export const senderEmail = emailField("Please enter your email.");

const PHONE_MESSAGE = "Enter a US phone number, e.g. (817) 555-0142.";

/**
 * A US number: ten digits, optionally after +1 or 1, written however people write them on one
 * line (spaces, dots, dashes, brackets).
 */
export function usPhone(missing = PHONE_MESSAGE) {
  return z
    .string()
    .trim()
    .min(1, missing)
    .max(25, PHONE_MESSAGE)
    .refine(
      (value) =>
        /^[\d ().+-]+$/.test(value) && /^1?[2-9]\d{2}[2-9]\d{6}$/.test(value.replace(/\D/g, "")),
      PHONE_MESSAGE,
    );
}
