// The shape every action answers in, and the HTTP status of each reason for a refusal. Types and
// a constant only, so a component can name the answer its form gets back; the functions that
// answer are in reply.server.ts.

/** Why a change was refused, and the status a page or endpoint answers that with. */
export const REFUSAL_STATUS = {
  /** The input is wrong: the message (and `field`) say how. */
  invalid: 400,
  /** The card was declined: nothing was paid, and the order still waits for its payment. */
  declined: 402,
  /** Not for the staff member asking: someone with more rights may (an admin, decision 023). */
  forbidden: 403,
  "not-found": 404,
  /** Not from the state the thing is in now (someone else may just have changed it). */
  conflict: 409,
  /** A link or a hold past its time. */
  expired: 410,
  "rate-limited": 429,
  /** The payment provider refused or could not be reached; nothing else was lost. */
  "refund-failed": 502,
  /** Could not be kept just now (the database is away): nothing was lost from the form. */
  unavailable: 503,
} as const;

export type RefusalReason = keyof typeof REFUSAL_STATUS;

/** The one shape of an action's answer. */
export type Answer<Values = Record<string, string>> = {
  ok: boolean;
  message: string | null;
  /** Set on a refusal. */
  reason?: RefusalReason;
  /** A message per field, shown beside it. */
  errors?: Record<string, string | undefined>;
  /** What was typed, for the form shown again. */
  values?: Values;
};

/**
 * The messages to show beside a form's fields: a refusal's, and none once an answer went through
 * (or before the form was sent).
 */
export function errorsOf(
  answer: { ok?: boolean; errors?: Record<string, string | undefined> } | null | undefined,
): Record<string, string | undefined> {
  return answer && answer.ok !== true ? (answer.errors ?? {}) : {};
}
