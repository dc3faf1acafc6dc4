import type { RepairPaymentMethod } from "#app/domain/repair-tickets/status.ts";
import { formatUsd } from "#app/lib/money.ts";
import { greetingName } from "#app/lib/person-name.ts";
import { shopContact } from "#app/lib/env.server.ts";
import { SHOP, SHOP_ADDRESS } from "#app/lib/site.ts";
import { renderEmail } from "./layout.ts";

type TicketMail = { label: string; name: string; device: string; statusUrl: string };

const longDate = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "long",
  month: "long",
  day: "numeric",
});

/** "2026-12-01" → "Tuesday, December 1" (a calendar date, no time zone of its own). */
export function promisedDay(isoDate: string): string {
  return longDate.format(new Date(`${isoDate}T12:00:00Z`));
}

const questions = () =>
  `Questions? Call ${shopContact().phone} or write to ${shopContact().email}, quoting your ticket number.`;

/**
 * Sent when the device is checked in at the counter; with the deposit taken there, if one was
 * (it counts toward the repair, and goes back if the device is not repaired).
 */
export function ticketCheckedInMessage(
  ticket: TicketMail & {
    promisedDate: string;
    deposit?: { amountCents: number; method: RepairPaymentMethod } | null;
  },
) {
  return renderEmail({
    subject: `Repair ${ticket.label}: we have your ${ticket.device}`,
    preview: `Your ticket number is ${ticket.label}. We aim to have it ready by ${promisedDay(ticket.promisedDate)}.`,
    heading: `Thank you, ${greetingName(ticket.name)}!`,
    paragraphs: [
      `We checked in your ${ticket.device}. Your ticket number is ${ticket.label}: keep it for when you collect your device.`,
      ...(ticket.deposit
        ? [
            `We received a deposit of ${formatUsd(ticket.deposit.amountCents)} (${ticket.deposit.method === "cash" ? "in cash" : "by card"}). It counts toward the repair, and we give it back if your device is not repaired.`,
          ]
        : []),
      `We aim to have it ready by ${promisedDay(ticket.promisedDate)}. Diagnosis and estimates are free: we will send you an estimate to approve before any paid work starts.`,
      "Follow your repair at any time with the link below.",
    ],
    action: { label: "See your repair's status", url: ticket.statusUrl },
    note: questions(),
  });
}

/** Sent with each version of an estimate: the lines, the total and the way to decide. */
export function estimateReadyMessage(
  ticket: TicketMail & {
    version: number;
    lines: { description: string; quantity: number; unitCents: number }[];
    subtotalCents: number;
    taxCents: number;
    totalCents: number;
  },
) {
  return renderEmail({
    subject: `Repair ${ticket.label}: your estimate of ${formatUsd(ticket.totalCents)}`,
    preview: `Approve or decline the estimate for your ${ticket.device}.`,
    heading: `Your estimate is ready, ${greetingName(ticket.name)}`,
    paragraphs: [
      ticket.version > 1
        ? `Here is a new estimate for your ${ticket.device}; it replaces the one we sent before.`
        : `We found what your ${ticket.device} needs. Here is what the repair costs:`,
      ...ticket.lines.map(
        (line) =>
          `${line.quantity} × ${line.description}: ${formatUsd(line.unitCents * line.quantity)}`,
      ),
      `Subtotal: ${formatUsd(ticket.subtotalCents)}`,
      `Sales tax: ${formatUsd(ticket.taxCents)}`,
      `Total: ${formatUsd(ticket.totalCents)}`,
      "Nothing is charged now: you pay when you collect your device. Approve or decline the estimate with the link below. If you decline, you can collect your device unrepaired, free of charge.",
    ],
    action: { label: "Approve or decline", url: ticket.statusUrl },
    note: questions(),
  });
}

/** Sent when the device is ready: where and when to collect it. */
/**
 * Sent when the device is ready for pickup. With a balance left to pay, its button is the pay
 * link (the web checkout's provider); it can be paid at the counter as well.
 */
export function readyForPickupMessage(
  ticket: TicketMail & { hours: string; balanceCents: number; payUrl: string },
) {
  const owing = ticket.balanceCents > 0;
  return renderEmail({
    subject: `Repair ${ticket.label}: your ${ticket.device} is ready for pickup`,
    preview: `Collect it at ${SHOP.name}, ${SHOP_ADDRESS}.`,
    heading: `Good news, ${greetingName(ticket.name)}!`,
    paragraphs: [
      `Your ${ticket.device} is ready for pickup. Bring your ticket number, ${ticket.label}.`,
      `Where: ${SHOP.name}, ${SHOP_ADDRESS}.`,
      `When: ${ticket.hours}.`,
      ...(owing
        ? [
            `The balance due is ${formatUsd(ticket.balanceCents)}. Pay it online now with the button below, or at the counter when you collect your device.`,
            `Follow your repair at ${ticket.statusUrl}`,
          ]
        : []),
    ],
    action: owing
      ? { label: `Pay ${formatUsd(ticket.balanceCents)} online`, url: ticket.payUrl }
      : { label: "See your repair's status", url: ticket.statusUrl },
    note: questions(),
  });
}

/** Sent to a corrected e-mail address: the ticket's link, which the mistyped address got. */
export function correctedAddressMessage(
  ticket: TicketMail & { now: string; newPromisedDate?: string },
) {
  return renderEmail({
    subject: `Repair ${ticket.label}: follow your repair`,
    preview: `The link to follow your ${ticket.device}'s repair, ticket ${ticket.label}.`,
    heading: `Hello, ${greetingName(ticket.name)}`,
    paragraphs: [
      `We corrected the e-mail address on your repair ticket ${ticket.label}, for your ${ticket.device}: from now on we write to you here.`,
      `Where it stands: ${ticket.now}`,
      ...(ticket.newPromisedDate
        ? [`We now aim to have it ready by ${promisedDay(ticket.newPromisedDate)}.`]
        : []),
      "Follow your repair, and approve or decline any estimate, with the link below.",
    ],
    action: { label: "See your repair's status", url: ticket.statusUrl },
    note: questions(),
  });
}

/**
 * Sent when the date the shop aims to have the device ready by is changed while the work is still
 * ahead (parts late, or the repair sooner than thought).
 */
export function promisedDateChangedMessage(
  ticket: TicketMail & { now: string; from: string; to: string },
) {
  const later = ticket.to > ticket.from;
  return renderEmail({
    subject: `Repair ${ticket.label}: a new date for your ${ticket.device}`,
    preview: `We now aim to have it ready by ${promisedDay(ticket.to)}.`,
    heading: `Hello, ${greetingName(ticket.name)}`,
    paragraphs: [
      `We now aim to have your ${ticket.device} ready by ${promisedDay(ticket.to)}, instead of ${promisedDay(ticket.from)}.${later ? " We are sorry for the wait." : ""}`,
      `Where it stands: ${ticket.now}`,
      "Follow your repair with the link below.",
    ],
    action: { label: "See your repair's status", url: ticket.statusUrl },
    note: questions(),
  });
}

/** The customer's receipt, sent when the device is collected. */
export function repairReceiptMessage(
  ticket: TicketMail & {
    receiptUrl: string;
    collectedOn: string;
    paidCents: number;
    paidBy: string;
    approvedCents: number | null;
  },
) {
  const adjustment = ticket.approvedCents === null ? 0 : ticket.paidCents - ticket.approvedCents;
  return renderEmail({
    subject: `Repair ${ticket.label}: your receipt`,
    preview: `${formatUsd(ticket.paidCents)} paid for the repair of your ${ticket.device}.`,
    heading: `Thank you, ${greetingName(ticket.name)}!`,
    paragraphs: [
      `You collected your ${ticket.device} on ${ticket.collectedOn}. This is your receipt for repair ${ticket.label}.`,
      ...(ticket.approvedCents === null
        ? []
        : [`Approved estimate: ${formatUsd(ticket.approvedCents)}`]),
      ...(adjustment === 0 ? [] : [`Adjusted at the counter: ${formatUsd(adjustment)}`]),
      `Amount paid: ${formatUsd(ticket.paidCents)}`,
      `Paid by: ${ticket.paidBy}`,
      "See or print your receipt, with the estimate's lines, at the link below.",
    ],
    action: { label: "See or print your receipt", url: ticket.receiptUrl },
    note: questions(),
  });
}
