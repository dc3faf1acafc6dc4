import { isSignedLink, signLink } from "#app/lib/signed-link.server.ts";
import { parseTicketLabel } from "./status.ts";

const PURPOSE = "repair-ticket-status";

/**
 * The customer's way to a ticket without signing in: the ticket's number and a signature of it
 * with the shop's secret. Numbers are sequential, signatures are not; a signature is good for
 * its own ticket only.
 */
export function ticketStatusPath(ticketNumber: number, secret: string): string {
  return `/repairs/R-${ticketNumber}/${signLink(PURPOSE, [ticketNumber], secret)}`;
}

export function isTicketStatusToken(ticketNumber: number, token: string, secret: string): boolean {
  return isSignedLink(PURPOSE, [ticketNumber], token, secret);
}

/** The printable receipt of a collected ticket, under its status link (the same signature). */
export function ticketReceiptPath(ticketNumber: number, secret: string): string {
  return `${ticketStatusPath(ticketNumber, secret)}/receipt`;
}

/** The pay link of a ticket's balance, under its status link (the same signature). */
export function ticketPayPath(ticketNumber: number, secret: string): string {
  return `${ticketStatusPath(ticketNumber, secret)}/pay`;
}

/**
 * The ticket a status link (`/repairs/R-1042/<signature>`) is for, from its two parts; undefined
 * for a forged link, or one signed for another ticket.
 */
export function ticketOfStatusLink(
  label: string | undefined,
  token: string | undefined,
  secret: string,
): number | undefined {
  const number = label?.startsWith("R-") ? parseTicketLabel(label) : undefined;
  if (!number || !token || !isTicketStatusToken(number, token, secret)) return undefined;
  return number;
}
