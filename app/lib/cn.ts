/**
 * Joins class names, skipping the empty ones. Nothing is merged: the primitives keep their own
 * styles in the components layer (app.css), so a caller's utility classes win by the cascade.
 */
export function cn(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(" ");
}
