import { hasControlCharacters } from "#app/lib/clean-text.ts";
import { NAME_MAX_LENGTH, PLAIN_NAME } from "#app/lib/person-name.ts";

/** Longest text any auth endpoint takes (tokens, callback paths); passwords stop at 128. */
const MAX_TEXT = 2048;
/** "First Last" as the registration form builds it. */
const MAX_NAME = NAME_MAX_LENGTH * 2 + 1;

/**
 * What is wrong with a body sent to the auth library, before the library stores any of it:
 * every text is bounded and free of control characters, and a person's name is short and
 * plain (the library would otherwise store 5 MB names, and PostgreSQL refuses NUL with a 500).
 */
export function authBodyProblem(body: unknown): string | null {
  if (!body || typeof body !== "object") return null;
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== "string") continue;
    if (hasControlCharacters(value)) {
      return `${key} contains characters that are not allowed.`;
    }
    if (value.length > MAX_TEXT) return `${key} is too long.`;
    if (key === "name") {
      const name = value.trim();
      if (name.length > MAX_NAME) return `Name must be at most ${MAX_NAME} characters.`;
      if (name && !name.split(/\s+/).every((part) => PLAIN_NAME.test(part))) {
        return "Name may contain letters, spaces, apostrophes, hyphens and dots only.";
      }
    }
  }
  return null;
}
