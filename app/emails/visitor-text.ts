import { greetingName } from "#app/lib/person-name.ts";

/**
 * The shop's one rule against relaying a stranger's words (docs/security.md). Anyone can type
 * anyone's address into a form, so mail to an address nobody has proven theirs carries nothing
 * typed into the form (not the name, not the message), only the shop's own words and choices
 * made from the shop's own lists. An address is proven by a signed-in account whose e-mail is
 * confirmed, or by following a link mailed to it. Mail to the shop's own inbox may carry
 * anything: it relays nothing.
 */
export type AddressProof = "proven" | "unproven";

/** What the visitor typed, for mail to the address they gave: all of it once proven, else none. */
export function visitorText(proof: AddressProof, text: string): string | null {
  return proof === "proven" ? text : null;
}

/** "Hello Ann," to a proven address (a plain first name only), "Hello," to any other. */
export function hello(proof: AddressProof, name: string): string {
  const first = visitorText(proof, greetingName(name));
  return first ? `Hello ${first},` : "Hello,";
}
