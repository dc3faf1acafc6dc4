import { cleanText } from "#app/lib/clean-text.ts";

/** Escapes LIKE wildcards so a shopper's "%" or "_" is searched for literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Collapses whitespace; blank input yields "" (which must never reach the database). */
export function normalizeQuery(text: string | null | undefined): string {
  return cleanText(text ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100);
}
