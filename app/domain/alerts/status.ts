// Stock alerts as the pages and the server both name them (no server code here).

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

/** "3 waiting": how many people an alert count stands for. */
export const waitingLabel = (count: number) => `${count.toLocaleString("en-US")} waiting`;
