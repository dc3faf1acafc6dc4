// What a failed statement says about itself, whether the driver's error comes bare or wrapped in
// Drizzle's (as its `cause`).

type PgErrorFields = { code?: string; constraint?: string; cause?: unknown };

/** The name of the unique or check constraint a failed statement violated, if that was why. */
export function violatedConstraint(error: unknown): string | undefined {
  for (let current = error; current && typeof current === "object";) {
    const { code, constraint, cause } = current as PgErrorFields;
    if (constraint && (code === "23505" || code === "23514")) return constraint;
    current = cause;
  }
  return undefined;
}
