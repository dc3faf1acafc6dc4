// Stock alerts as the pages and the server both name them (no server code here).
import { countLabel } from "#app/lib/count-label.ts";
import { formatShopDate } from "#app/lib/shop-time.ts";

/** `restock`: a sold-out title is back; `release`: a Coming Soon entry is in the catalogue. */
export const ALERT_KINDS = ["restock", "release"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/**
 * `unconfirmed`: a visitor's, until the link e-mailed to the address is followed; `active`:
 * waiting; `due`: the title came in (set by the database in the stock change's transaction);
 * `sent`: mailed, once; `unsubscribed`: stopped by its owner.
 */
export const ALERT_STATUSES = ["unconfirmed", "active", "due", "sent", "unsubscribed"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const ALERT_BUTTON_LABELS: Record<AlertKind, string> = {
  restock: "Email me when it's back",
  release: "Notify me on release",
};

/** What an alert waits for, as the back office and My Account name it. */
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  restock: "Back in stock",
  release: "Release",
};

/** A visitor's confirmation link past its window (`RETENTION_DAYS.unconfirmedAlert`). */
export const ALERT_LINK_EXPIRED =
  "This link has expired. Ask for the alert again on the title's page.";

/** "3 waiting": how many people an alert count stands for. */
export const waitingLabel = (count: number) => `${count.toLocaleString("en-US")} waiting`;

/**
 * What deleting a Coming Soon entry does to the people waiting for its release (confirmed
 * release alerts): "3 people waiting for its release will not be told; their alerts end with it."
 */
export const notToldText = (count: number) =>
  count === 1
    ? "1 person waiting for its release will not be told; their alert ends with it."
    : `${countLabel(count, false, "person", "people")} waiting for its release will not be told; their alerts end with it.`;

/** Alerts still waiting for the title, which their owner can stop. */
export const isWaiting = (status: AlertStatus) => status === "unconfirmed" || status === "active";

/** An alert's state in the customer's words ("Sent on Mar 3, 2027"), in the shop's time zone. */
export function alertStatusText(
  alert: { kind: AlertKind; status: AlertStatus; sentAt: Date | null },
  timeZone: string,
): string {
  switch (alert.status) {
    case "unconfirmed":
      return "Waiting for your confirmation";
    case "active":
      return "Waiting";
    case "due":
      return alert.kind === "restock"
        ? "Back in stock: your e-mail is on its way"
        : "Released: your e-mail is on its way";
    case "sent":
      return alert.sentAt ? `Sent on ${formatShopDate(alert.sentAt, timeZone)}` : "Sent";
    case "unsubscribed":
      return "Cancelled";
  }
}
