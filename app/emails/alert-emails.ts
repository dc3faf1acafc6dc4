import type { AlertKind } from "#app/domain/alerts/status.ts";
import { formatUsd } from "#app/lib/money.ts";
import { SHOP } from "#app/lib/site.ts";
import { renderEmail } from "./layout.ts";

/**
 * Sent to an address a visitor gave for an alert: only the shop's own words and the title's
 * name from the catalogue, never anything the visitor typed, so the form cannot relay mail.
 */
export function alertConfirmMessage(alert: { kind: AlertKind; title: string; confirmUrl: string }) {
  const what =
    alert.kind === "restock"
      ? `when ${alert.title} is back in stock`
      : `when ${alert.title} is released`;
  return renderEmail({
    subject: `Confirm your ${SHOP.name} alert`,
    preview: `Follow the link to be told ${what}.`,
    heading: "Confirm your alert",
    paragraphs: [
      `Someone, we hope you, asked ${SHOP.name} to e-mail this address ${what}.`,
      "Follow the link to confirm. If it was not you, ignore this message: without the confirmation we never write to you about it.",
    ],
    action: { label: "Confirm my alert", url: alert.confirmUrl },
  });
}

/** The alert itself: the title is in (back in stock, or released), its price and its page. */
export function backInStockMessage(alert: {
  kind: AlertKind;
  title: string;
  priceCents: number;
  titleUrl: string;
  unsubscribeUrl: string;
  manageUrl: string;
}) {
  const news =
    alert.kind === "restock" ? `${alert.title} is back in stock` : `${alert.title} is out now`;
  return renderEmail({
    subject: `${news} at ${SHOP.name}`,
    preview: `${news}: ${formatUsd(alert.priceCents)}.`,
    heading: `Good news: ${news}`,
    paragraphs: [
      `You asked us to tell you. ${alert.title} is on our shelves at ${formatUsd(alert.priceCents)}, while stock lasts.`,
      "This was a one-time alert: we will not write about this title again.",
    ],
    action: { label: `See ${alert.title}`, url: alert.titleUrl },
    note: `Stop all alert e-mails to this address: ${alert.unsubscribeUrl} · Manage your alerts: ${alert.manageUrl}`,
  });
}
