// The life of a repair ticket, shared by the back office, the customer's status page and the
// server's rules. Diagnosis and estimates are free (spec §3.11): money changes hands only when
// a device is collected.
import { formatUsd } from "#app/lib/money.ts";

export const TICKET_STATUSES = [
  "checked_in",
  "diagnosing",
  "estimate_sent",
  "approved",
  "declined",
  "repairing",
  "ready",
  "collected",
  "returned",
] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** What staff see on the board and in the ticket's history. */
export const STATUS_LABELS: Record<TicketStatus, string> = {
  checked_in: "Checked in",
  diagnosing: "Diagnosing",
  estimate_sent: "Estimate sent",
  approved: "Approved",
  declined: "Declined",
  repairing: "Repairing",
  ready: "Ready for pickup",
  collected: "Collected",
  returned: "Returned unrepaired",
};

/** The same steps in the customer's words, for the status page and its history. */
export const CUSTOMER_WORDS: Record<TicketStatus, string> = {
  checked_in: "We have your device and will look at it soon.",
  diagnosing: "A technician is finding out what is wrong.",
  estimate_sent: "Your estimate is ready: approve or decline it below.",
  approved: "You approved the estimate. The repair is next in line.",
  declined: "You declined the estimate. Your device is waiting for you, unrepaired.",
  repairing: "Your device is being repaired.",
  ready: "Your device is ready for pickup.",
  collected: "You collected your device. Thank you!",
  returned: "Your device was returned to you unrepaired.",
};

/**
 * The moves staff make by hand. Estimate sent comes only from sending an estimate, approved and
 * declined only from the customer's decision, collected only with how it was paid: each has an
 * action of its own, which checks the same table.
 */
export const NEXT_STATUSES: Record<TicketStatus, readonly TicketStatus[]> = {
  checked_in: ["diagnosing", "returned"],
  diagnosing: ["estimate_sent", "returned"],
  estimate_sent: ["estimate_sent", "approved", "declined"],
  approved: ["repairing"],
  declined: ["estimate_sent", "returned"],
  repairing: ["ready"],
  ready: ["collected"],
  collected: [],
  returned: [],
};

/** Statuses a ticket can still move on from: the board's open work. */
export const OPEN_STATUSES = TICKET_STATUSES.filter(
  (status) => NEXT_STATUSES[status].length > 0,
) as TicketStatus[];

/**
 * Statuses in which the repair is still ahead of the shop, so the promised date is still a
 * promise: it is said to the customer, and a ticket past it is overdue. Once the device is ready
 * or the estimate declined, there is no work left to be late with.
 */
export const WORK_AHEAD_STATUSES: readonly TicketStatus[] = [
  "checked_in",
  "diagnosing",
  "estimate_sent",
  "approved",
  "repairing",
];

/**
 * Statuses in which the device goes back without a repair: the customer declined the estimate,
 * or it was returned unrepaired (it could not be repaired, or the customer took it back). Money
 * taken toward the repair can be refunded then.
 */
export const UNREPAIRED_STATUSES: readonly TicketStatus[] = ["declined", "returned"];

export function isWorkAhead(status: TicketStatus): boolean {
  return WORK_AHEAD_STATUSES.includes(status);
}

/** The statuses from which `to` may be reached. */
export function statusesBefore(to: TicketStatus): TicketStatus[] {
  return TICKET_STATUSES.filter((from) => NEXT_STATUSES[from].includes(to));
}

export function canMove(from: TicketStatus, to: TicketStatus): boolean {
  return NEXT_STATUSES[from].includes(to);
}

/** "R-1042": what the customer quotes at the counter and on the phone. */
export function ticketLabel(number: number): string {
  return `R-${number}`;
}

/** Reads "R-1042", "r1042" or "1042" back into the number; undefined for anything else. */
export function parseTicketLabel(text: string): number | undefined {
  const match = /^\s*(?:r\s*-?\s*)?(\d{1,9})\s*$/i.exec(text);
  return match ? Number(match[1]) : undefined;
}

export const DEVICE_KINDS = [
  "Laptop",
  "Desktop PC",
  "Phone",
  "Tablet",
  "Game console",
  "TV",
  "Other",
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

/**
 * What staff can correct after intake, by the ticket's column (as the history keeps them), in
 * the words of the intake form.
 */
export const CORRECTABLE_FIELDS = {
  customer_name: "Name",
  customer_email: "E-mail",
  customer_phone: "Phone",
  service_type: "Service",
  device_kind: "Kind of device",
  device_brand: "Brand",
  device_model: "Model",
  device_serial: "Serial / IMEI",
  problem: "Problem",
  condition_at_intake: "Condition at intake",
  accessories: "Accessories",
  promised_date: "Promised date",
} as const;
export type CorrectableField = keyof typeof CORRECTABLE_FIELDS;

/** One field of a correction, as its history keeps it (null: left blank). */
export type TicketCorrection = { field: CorrectableField; from: string | null; to: string | null };

export const PAYMENT_METHODS = ["cash", "card", "no_charge"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_LABELS: Record<PaymentMethod, string> = {
  cash: "Cash",
  card: "Card",
  no_charge: "No charge",
};

/** A ticket's payments (`repair_payments`): what each was for and how it was taken. */
export const REPAIR_PAYMENT_KINDS = ["deposit", "balance", "refund"] as const;
export type RepairPaymentKind = (typeof REPAIR_PAYMENT_KINDS)[number];

export const REPAIR_PAYMENT_METHODS = ["cash", "card", "online"] as const;
export type RepairPaymentMethod = (typeof REPAIR_PAYMENT_METHODS)[number];

export const REPAIR_PAYMENT_LABELS: Record<RepairPaymentMethod, string> = {
  cash: "Cash",
  card: "Card",
  online: "Online",
};

export const REPAIR_PAYMENT_KIND_LABELS: Record<RepairPaymentKind, string> = {
  deposit: "Deposit",
  balance: "Balance",
  refund: "Refund",
};

/** How a ticket was paid, by its payments' methods ("Card, Cash"); "No charge" for none. */
export function paidByLabel(methods: readonly RepairPaymentMethod[]): string {
  const labels = [...new Set(methods.map((method) => REPAIR_PAYMENT_LABELS[method]))];
  return labels.length ? labels.join(", ") : "No charge";
}

/**
 * How the amount taken at collection compares with the approved total: null when they agree,
 * else "$58.54 less than the approved $59.54".
 */
export function paidDifference(paidCents: number, dueCents: number): string | null {
  const difference = paidCents - dueCents;
  if (difference === 0) return null;
  return `${formatUsd(Math.abs(difference))} ${difference < 0 ? "less" : "more"} than the approved ${formatUsd(dueCents)}`;
}

/** Days back the dashboard looks for tickets collected for another amount than approved. */
export const OTHER_AMOUNT_DAYS = 7;

const promisedFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
});

/** A promised date ("2026-12-01", a calendar date with no zone) as "Tue, Dec 1, 2026". */
export function promisedDateLabel(isoDate: string): string {
  return promisedFormat.format(new Date(`${isoDate}T12:00:00Z`));
}
