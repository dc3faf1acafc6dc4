// One way for a domain function to say no, and one way for an action to answer: a refusal names
// its reason, the reason decides the HTTP status, and every action answers in one shape
// (`Answer`), whatever the page, so a form finds its message, its field errors and what was
// typed in the same places.

import { data } from "react-router";
import { type Answer, REFUSAL_STATUS, type RefusalReason } from "#app/lib/answer.ts";

export { type Answer, REFUSAL_STATUS, type RefusalReason };

export type Refusal<Reason extends RefusalReason = RefusalReason> = {
  ok: false;
  reason: Reason;
  message: string;
  /** The form field the refusal is about, when it is about one. */
  field?: string;
};

/** Done, with the message to show. */
export type Done<T = object> = { ok: true; message: string } & T;

/** What a domain function that changes something answers: done (with a message) or refused. */
export type Result<T = object, Reason extends RefusalReason = RefusalReason> =
  Done<T> | Refusal<Reason>;

export function refuse<Reason extends RefusalReason>(
  reason: Reason,
  message: string,
  field?: string,
): Refusal<Reason> {
  return field === undefined
    ? { ok: false, reason, message }
    : { ok: false, reason, message, field };
}

export const reply = {
  /** Done: status 200 with the message to show. */
  ok<Values = Record<string, string>, More extends object = object>(
    message: string | null,
    more?: More,
  ) {
    return { ok: true, message, ...more } as Answer<Values> & Partial<More>;
  },

  /** Refused: the reason's status, with the message and, for a form, its errors and values. */
  refused<Values = Record<string, string>, More extends object = object>(
    reason: RefusalReason,
    message: string,
    more?: { errors?: Answer["errors"]; values?: Values } & More,
    headers?: HeadersInit,
  ) {
    return data({ ok: false, reason, message, ...more } as Answer<Values> & Partial<More>, {
      status: REFUSAL_STATUS[reason],
      ...(headers ? { headers } : {}),
    });
  },

  /** A domain function's result as it is: done, or refused with its field's error. */
  result<Values = Record<string, string>, More extends object = object>(
    result: Result<object>,
    more?: { values?: Values } & More,
  ) {
    if (result.ok) return reply.ok<Values, More>(result.message, more);
    const errors = result.field ? { [result.field]: result.message } : undefined;
    return reply.refused<Values, More>(result.reason, result.message, {
      ...(errors ? { errors } : {}),
      ...more,
    } as { errors?: Answer["errors"]; values?: Values } & More);
  },

  /** A form posted an intent the action does not know (a stale page, a hand-made request). */
  unknownAction() {
    return reply.refused<never>("invalid", "Unknown action.");
  },
};
