import { createHmac, timingSafeEqual } from "node:crypto";

const PURPOSE = "repair-ticket-status";

function signature(ticketNumber: number, secret: string): Buffer {
  return createHmac("sha256", secret).update(`${PURPOSE}:${ticketNumber}`).digest();
}

/**
 * The customer's way to a ticket without signing in: the ticket's number and a signature of it
 * with the shop's secret. Numbers are sequential, signatures are not; a signature is good for
 * its own ticket only.
 */
export function ticketStatusPath(ticketNumber: number, secret: string): string {
  return `/repairs/R-${ticketNumber}/${signature(ticketNumber, secret).toString("base64url")}`;
}

export function isTicketStatusToken(ticketNumber: number, token: string, secret: string): boolean {
  const given = Buffer.from(token, "base64url");
  const expected = signature(ticketNumber, secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
