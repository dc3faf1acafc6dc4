// Who may do what in the back office (decision 023, point 1). An account is a customer, a clerk
// (the counter and the repair desk) or an admin (everything). Each back-office page and action
// names the one permission it needs, and `requireStaff` checks it; the table below is the only
// place that says which role has which. No server code here: the back office's menu reads it too.

export const ROLES = ["customer", "clerk", "admin"] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  /** The back office's home: the dashboard, and a place for staff to land after signing in. */
  | "back-office"
  /** The orders list and an order's page, to read. */
  | "orders.view"
  /** Shipping, cancelling, completing and refunding orders, and the orders' CSV export. */
  | "orders.manage"
  /** The counter: the till, selling, receipts and the Z report. */
  | "counter"
  /** Pickup orders: marking them ready (the e-mail with the code) and handing them over. */
  | "pickups"
  /** The repair desk: tickets, intake, estimates, status changes, collection, intake photos. */
  | "repairs"
  /** Returns: receiving, inspecting, rejecting, and refunds up to the counter's limit. */
  | "returns"
  /** A return's refund above `COUNTER_REFUND_LIMIT_CENTS`. */
  | "refunds.above-limit"
  /** Both catalogues, prices, posters, staff picks, Coming Soon, CSV import and export. */
  | "catalogue"
  /** Customers' personal data: the customers list, a customer's page and its edits. */
  | "customers"
  /** Contact messages and repair bookings, and the replies sent to them in the shop's name. */
  | "inbox";

const CLERK: readonly Permission[] = [
  "back-office",
  "counter",
  "orders.view",
  "pickups",
  "repairs",
  "returns",
];

const PERMISSIONS: Record<Role, readonly Permission[]> = {
  customer: [],
  clerk: CLERK,
  admin: [...CLERK, "orders.manage", "refunds.above-limit", "catalogue", "customers", "inbox"],
};

/** The role an account's stored role names; anything unknown is a customer, who may do nothing. */
export function roleOf(stored: unknown): Role {
  return stored === "admin" || stored === "clerk" ? stored : "customer";
}

export function can(role: Role, permission: Permission): boolean {
  return PERMISSIONS[role].includes(permission);
}

/** Staff: anyone the back office opens for (where they are taken after signing in). */
export function isStaff(role: Role): boolean {
  return can(role, "back-office");
}

/**
 * The most this role may refund on a return, in cents: the counter's limit for a clerk, no
 * limit (undefined) for an admin. Nobody else refunds at all (`requireStaff` stops them first).
 */
export function refundCeiling(role: Role, limitCents: number): number | undefined {
  return can(role, "refunds.above-limit") ? undefined : limitCents;
}

/** May this role refund this amount? At the limit a clerk may; above it only an admin. */
export function mayRefund(role: Role, amountCents: number, limitCents: number): boolean {
  if (!can(role, "returns")) return false;
  const ceiling = refundCeiling(role, limitCents);
  return ceiling === undefined || amountCents <= ceiling;
}

/** Where signing in lands: staff in the back office, everyone else where they were going. */
export function landingAfterSignIn(stored: unknown, next: string): string {
  return isStaff(roleOf(stored)) ? "/admin" : next;
}
