// How long the shop keeps each kind of personal data (docs/security.md, "Retention"). Constants,
// not settings: each period follows from what the data is for, the table in the docs states them
// to customers, and a setting would let the two drift apart. Change them here and there together.
// No server code here: the pages that say when a link stops working read them too.

export const RETENTION_DAYS = {
  /**
   * A visitor's alert whose address was never confirmed: its confirmation link works this long
   * after it was (last) asked for, then the alert is deleted. A week covers a holiday inbox.
   */
  unconfirmedAlert: 7,
  /** An alert that was mailed: kept this long after sending, for "did you e-mail me?". */
  sentAlert: 90,
  /** An alert its owner stopped: kept this long after, as the record of the request to stop. */
  unsubscribedAlert: 30,
  /**
   * A repair booking never confirmed: deleted this long after its hold ended (a day in which its
   * link still says it expired, rather than that it is not valid).
   */
  unconfirmedBooking: 1,
  /**
   * A confirmed (or cancelled) repair booking: kept this long after the appointment, for the
   * visit's questions and a year's look back; a ticket opened from it keeps its own copy.
   */
  booking: 365,
  /**
   * A repair ticket's status link stops working this long after the ticket is closed (collected
   * or returned): the repair's warranty questions come within it.
   */
  repairStatusLink: 90,
  /**
   * Intake photos (the device's condition when it came in): deleted this long after the ticket
   * is closed, when a dispute about that condition is no longer likely.
   */
  intakePhoto: 90,
  /** A contact message and the staff's replies to it: kept this long after it came in. */
  contactMessage: 365,
  /**
   * Rate-limit counts (keyed by client address or e-mail address): their longest window is an
   * hour, so a day-old count no longer limits anything.
   */
  rateLimit: 1,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The moment `days` days before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** When a closed repair ticket's status link stops working; null while the ticket is open. */
export function repairStatusLinkEndsAt(closedAt: Date | null): Date | null {
  return closedAt ? new Date(closedAt.getTime() + RETENTION_DAYS.repairStatusLink * DAY_MS) : null;
}

/** Whether a repair ticket's status link has stopped working at `now`. */
export function repairStatusLinkEnded(closedAt: Date | null, now: Date): boolean {
  const endsAt = repairStatusLinkEndsAt(closedAt);
  return endsAt !== null && endsAt.getTime() <= now.getTime();
}

/** Whether a visitor's unconfirmed alert asked for at `askedAt` can still be confirmed. */
export function alertConfirmable(askedAt: Date, now: Date): boolean {
  return askedAt.getTime() > daysBefore(now, RETENTION_DAYS.unconfirmedAlert).getTime();
}
