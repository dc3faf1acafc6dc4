import { z } from "zod";
import { groupDigits } from "./digits.ts";

// C0 control characters other than tab, line feed and carriage return (NUL among them), which
// PostgreSQL refuses in text and nobody types.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Typed text without control characters, as it may be stored, searched for and shown. */
export function cleanText(value: string): string {
  return value.replace(CONTROL_CHARACTERS, "");
}

export function hasControlCharacters(value: string): boolean {
  return cleanText(value) !== value;
}

/**
 * Free text typed into a form: trimmed, at most `max` characters, no control characters;
 * `required` is the message for an empty one (null: optional).
 */
export function boundedText(max: number, required: string | null) {
  const base = z
    .string()
    .trim()
    .max(max, `Please keep this under ${groupDigits(max)} characters.`)
    .refine((value) => !hasControlCharacters(value), "This contains invalid characters.");
  return required ? base.refine((value) => value.length > 0, required) : base;
}
