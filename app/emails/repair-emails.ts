import { createEvent } from "ics";
import type { OutgoingMail } from "#app/emails/outgoing-mail.ts";
import { shopContact } from "#app/lib/env.server.ts";
import { formatAppointment } from "#app/lib/shop-time.ts";
import { SHOP, SHOP_ADDRESS } from "#app/lib/site.ts";
import { renderEmail } from "./layout.ts";

/** A booked repair appointment as the messages about it need it. */
export type RepairAppointment = {
  uid: string;
  name: string;
  email: string;
  phone: string;
  serviceType: string;
  issue: string;
  /** Shop-local date and time of the slot, as booked. */
  preferredDate: string;
  preferredTime: string;
  startsAt: Date;
  durationMinutes: number;
  timeZone: string;
};

type Message = Omit<OutgoingMail, "to">;

const SHOP_DOMAIN = SHOP.email.slice(SHOP.email.indexOf("@") + 1);

/** The calendar event's UID: the booking's own, so every client matches update and cancellation. */
export function calendarUid(appointment: Pick<RepairAppointment, "uid">): string {
  return `repair-${appointment.uid}@${SHOP_DOMAIN}`;
}

/**
 * The appointment as an iCalendar invitation (METHOD:REQUEST) or its cancellation
 * (METHOD:CANCEL, the same UID, a higher SEQUENCE), times in UTC.
 */
export function appointmentCalendar(
  appointment: RepairAppointment,
  method: "REQUEST" | "CANCEL",
): string {
  const { error, value } = createEvent({
    productId: `-//${SHOP.name}//Repair appointments//EN`,
    method,
    uid: calendarUid(appointment),
    sequence: method === "CANCEL" ? 1 : 0,
    status: method === "CANCEL" ? "CANCELLED" : "CONFIRMED",
    start: appointment.startsAt.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: appointment.durationMinutes },
    title: `Repair appointment: ${appointment.serviceType}`,
    description: `${appointment.serviceType} at ${SHOP.name}. Questions? Call ${shopContact().phone}.`,
    location: SHOP_ADDRESS,
    organizer: { name: SHOP.name, email: shopContact().email },
    attendees: [
      {
        // A quoted parameter value cannot hold a double quote; the name is only a label here.
        name: appointment.name.replace(/["\\]/g, ""),
        email: appointment.email,
        rsvp: false,
        partstat: "ACCEPTED",
        role: "REQ-PARTICIPANT",
      },
    ],
  });
  if (error || !value) throw error ?? new Error("Could not create the calendar event.");
  return value;
}

function calendarAttachment(appointment: RepairAppointment, method: "REQUEST" | "CANCEL") {
  return {
    filename: method === "CANCEL" ? "cancellation.ics" : "appointment.ics",
    content: appointmentCalendar(appointment, method),
    contentType: `text/calendar; charset=utf-8; method=${method}`,
  };
}

/**
 * To an address nobody has proven yet: only the link that confirms the booking, with the
 * service and time chosen from the shop's lists. Nothing typed into the form reaches it (see
 * visitor-text.ts), so a stranger cannot use the form to mail someone else their words.
 */
export function repairConfirmRequestMessage(
  booking: Pick<RepairAppointment, "serviceType" | "startsAt" | "timeZone">,
  confirmUrl: string,
  holdMinutes: number,
): Message {
  const when = formatAppointment(booking.startsAt, booking);
  return renderEmail({
    subject: "Confirm your repair appointment",
    preview: `${booking.serviceType}, ${when}: one click to keep the time.`,
    heading: "Please confirm your appointment",
    paragraphs: [
      `Someone, hopefully you, asked for a ${booking.serviceType} appointment on ${when} at ${SHOP_ADDRESS}, with this e-mail address.`,
      `We hold the time for ${holdMinutes} minutes. Confirm it with the button below to keep it; we then send the details and a calendar invitation.`,
    ],
    action: { label: "Confirm my appointment", url: confirmUrl },
    note: "If you did not ask for this, ignore this message: the time is freed and nothing else happens.",
  });
}

/**
 * To the customer once their address is proven (confirmed by the link, or their signed-in
 * account's own): the booking, the invitation and the link that cancels it.
 */
export function repairConfirmationMessage(
  appointment: RepairAppointment,
  cancelUrl: string,
): Message {
  const when = formatAppointment(appointment.startsAt, appointment);
  return {
    ...renderEmail({
      subject: `Your repair appointment: ${when}`,
      preview: `${appointment.serviceType}, ${when}, ${SHOP_ADDRESS}`,
      heading: "Your appointment is booked",
      paragraphs: [
        `Thank you, ${appointment.name}. We have booked your ${appointment.serviceType} appointment for ${when} at ${SHOP_ADDRESS}.`,
        `What you told us: ${appointment.issue}`,
        "Please bring the device with its charger or power cable. Diagnostics and estimates are free.",
        "The appointment is attached as a calendar event.",
      ],
      action: { label: "Cancel the appointment", url: cancelUrl },
      note: `Cannot make it? Cancel with the button above so someone else can have the time, or call us on ${shopContact().phone}.`,
    }),
    attachments: [calendarAttachment(appointment, "REQUEST")],
  };
}

/** Spec §7: to the shop, with every field of the request (client_name … preferred_time). */
export function repairShopNotificationMessage(appointment: RepairAppointment): Message {
  const when = formatAppointment(appointment.startsAt, appointment);
  return {
    ...renderEmail({
      subject: `Repair appointment: ${appointment.serviceType}, ${appointment.preferredDate} ${appointment.preferredTime}, ${appointment.name}`,
      preview: `${appointment.name}, ${when}`,
      heading: "New repair appointment",
      paragraphs: [
        `Name: ${appointment.name}`,
        `E-mail: ${appointment.email}`,
        `Phone: ${appointment.phone}`,
        `Service: ${appointment.serviceType}`,
        `Date: ${appointment.preferredDate}`,
        `Time: ${appointment.preferredTime} (${when})`,
        "Issue:",
        ...appointment.issue.split(/\n{2,}/),
      ],
      note: "Reply to this e-mail to answer the customer.",
    }),
    replyTo: appointment.email,
  };
}

/** To the customer once the appointment is cancelled, with the calendar's cancellation. */
export function repairCancellationMessage(appointment: RepairAppointment): Message {
  const when = formatAppointment(appointment.startsAt, appointment);
  return {
    ...renderEmail({
      subject: `Cancelled: your repair appointment on ${when}`,
      preview: `${appointment.serviceType}, ${when}`,
      heading: "Your appointment is cancelled",
      paragraphs: [
        `Your ${appointment.serviceType} appointment for ${when} is cancelled, ${appointment.name}.`,
        "The attached calendar update removes it from your calendar. You are welcome to book another time, or simply walk in.",
      ],
    }),
    attachments: [calendarAttachment(appointment, "CANCEL")],
  };
}

/** To the shop, so the freed place is no surprise. */
export function repairCancelledShopMessage(appointment: RepairAppointment): Message {
  const when = formatAppointment(appointment.startsAt, appointment);
  return {
    ...renderEmail({
      subject: `Cancelled repair appointment: ${appointment.preferredDate} ${appointment.preferredTime}, ${appointment.name}`,
      preview: `${appointment.name}, ${when}`,
      heading: "A repair appointment was cancelled",
      paragraphs: [
        `Name: ${appointment.name}`,
        `E-mail: ${appointment.email}`,
        `Phone: ${appointment.phone}`,
        `Service: ${appointment.serviceType}`,
        `Was booked for: ${when}`,
      ],
    }),
    replyTo: appointment.email,
  };
}
