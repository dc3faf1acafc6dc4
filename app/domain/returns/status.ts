// What a return is and can be, shared by the server and the pages (no server code here).

/** requested → received → refunded, or rejected (from requested or received). */
export const RETURN_STATUSES = ["requested", "received", "refunded", "rejected"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** Requested or received: staff still have something to do. */
export const OPEN_RETURN_STATUSES = ["requested", "received"] as const satisfies ReturnStatus[];

export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: "Requested",
  received: "Received",
  refunded: "Refunded",
  rejected: "Rejected",
};

/** Why the customer sends it back: a short list, as the platforms offer. */
export const RETURN_REASONS = [
  "Changed my mind",
  "Arrived damaged",
  "Faulty disc",
  "Wrong item sent",
  "Not as described",
  "Other",
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/** How the parcel comes back. */
export const RETURN_METHODS = ["drop_off", "mail"] as const;
export type ReturnMethod = (typeof RETURN_METHODS)[number];

export const RETURN_METHOD_LABELS: Record<ReturnMethod, string> = {
  drop_off: "Drop it off at the shop",
  mail: "Send it by mail",
};

/** What staff found each returned line to be when it arrived: only `restock` goes back on sale. */
export const LINE_CONDITIONS = ["restock", "damaged"] as const;
export type LineCondition = (typeof LINE_CONDITIONS)[number];

export const LINE_CONDITION_LABELS: Record<LineCondition, string> = {
  restock: "Back to stock",
  damaged: "Damaged (not resold)",
};

/** "RMA-1042": the return number the customer writes on the parcel. */
export function returnLabel(number: number): string {
  return `RMA-${number}`;
}

/** Reads "RMA-1042", "rma1042" or "1042" back into the number; undefined for anything else. */
export function parseReturnLabel(text: string): number | undefined {
  const match = /^\s*(?:rma-?)?(\d{1,9})\s*$/i.exec(text);
  if (!match) return undefined;
  const number = Number(match[1]);
  return number >= 1 ? number : undefined;
}
