import {
  CORRECTABLE_FIELDS,
  promisedDateLabel,
  STATUS_LABELS,
  type CorrectableField,
  type TicketCorrection,
} from "#app/domain/repair-tickets/status.ts";
import type { getTicket } from "#app/domain/repair-tickets/tickets.server.ts";

// The ticket's record as its back-office page shows it, shaped by the page's loader.

type Found = NonNullable<Awaited<ReturnType<typeof getTicket>>>;
type When = (date: Date) => string;

const ESTIMATE_STATE = {
  pending: "Waiting for the customer",
  approved: "Approved",
  declined: "Declined",
  superseded: "Replaced by a newer estimate",
} as const;

/** A corrected field's value as the intake form shows it. */
function correctedValue(change: TicketCorrection, value: string | null) {
  if (value === null || value === "") return "(blank)";
  return change.field === "promised_date" ? promisedDateLabel(value) : value;
}

/** The fields a correction changed, named as the intake form names them, from the address. */
export function correctedFields(param: string | null): string[] {
  return (param ?? "")
    .split(",")
    .filter((field): field is CorrectableField => field in CORRECTABLE_FIELDS)
    .map((field) => CORRECTABLE_FIELDS[field]);
}

/** One change of the ticket as its history lists it. */
export function historyEntry(event: Found["events"][number], when: When) {
  return {
    id: event.id,
    when: when(event.createdAt),
    from: event.fromStatus ? STATUS_LABELS[event.fromStatus] : null,
    to: STATUS_LABELS[event.toStatus],
    by:
      event.actorName ||
      (event.actorId
        ? "a former staff member"
        : // Only the back office corrects a ticket and names who did; nameless, it was changed
          // in the database directly.
          event.changes
          ? "someone outside the back office"
          : "the customer"),
    note: event.note,
    changes: event.changes?.map((change) => ({
      field: CORRECTABLE_FIELDS[change.field],
      from: correctedValue(change, change.from),
      to: correctedValue(change, change.to),
    })),
  };
}

/** An estimate as the page lists it: its state in words, when it was sent and decided. */
export function estimateRecord(estimate: Found["estimates"][number], when: When) {
  return {
    ...estimate,
    state: ESTIMATE_STATE[estimate.status],
    sent: when(estimate.createdAt),
    decided: estimate.decidedAt ? when(estimate.decidedAt) : null,
  };
}
