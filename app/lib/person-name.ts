/** A person's name as typed: letters (any script), marks, spaces, apostrophes, hyphens, dots. */
export const PLAIN_NAME = /^[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u;
export const NAME_MAX_LENGTH = 50;

// A greeting takes one word with no dots inside, so it cannot read as an address.
const GREETING_WORD = /^[\p{L}\p{M}][\p{L}\p{M}'’-]*\.?$/u;

/**
 * The name to greet someone with in an e-mail the shop sends: their first name if it is short
 * and plain, else a neutral greeting. Mail goes to the address typed at sign-up, which may be
 * someone else's, so the name must not be able to carry a sentence or a link.
 */
export function greetingName(name: string | null | undefined): string {
  const first = (name ?? "").trim().split(/\s+/)[0] ?? "";
  if (first.length > 30 || !GREETING_WORD.test(first)) return "there";
  return first;
}

/**
 * A name for an account made without one (an admin created from the command line): the
 * letters of the address's local part, as capitalised words ("mary.jones2" → "Mary Jones"), or
 * "Shop Admin" when it has none. Always a name the auth rules accept.
 */
export function nameFromEmail(email: string): string {
  const words = (email.split("@")[0] ?? "")
    .split(/[^\p{L}\p{M}]+/u)
    .filter((word) => /^\p{L}/u.test(word))
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase());
  const name = words.join(" ").slice(0, NAME_MAX_LENGTH).trim();
  return name || "Shop Admin";
}
