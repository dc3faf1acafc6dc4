import { shopContact } from "#app/lib/env.server.ts";
import { SHOP } from "#app/lib/site.ts";
import { renderEmail, type RenderedEmail } from "./layout.ts";

/** What a staff reply from the inbox answers: a contact message or a repair appointment. */
export type RepliedItem =
  | { kind: "contact"; name: string; message: string }
  | { kind: "repair"; name: string; serviceType: string; when: string };

/** The part of the sender's own words quoted under a reply, so they know what it answers. */
const QUOTE_LENGTH = 300;

function quote(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > QUOTE_LENGTH ? `${line.slice(0, QUOTE_LENGTH - 1).trimEnd()}…` : line;
}

/** A staff member's answer to a contact message or a repair request, sent from the inbox. */
export function inboxReplyMessage(
  item: RepliedItem,
  reply: { body: string; staffName: string },
): RenderedEmail {
  const contact = item.kind === "contact";
  return renderEmail({
    subject: contact ? `Re: your message to ${SHOP.name}` : "Re: your repair appointment",
    preview: reply.body.replace(/\s+/g, " ").slice(0, 100),
    heading: contact ? "A reply to your message" : "About your repair appointment",
    paragraphs: [
      `Hello ${item.name},`,
      ...reply.body.split(/\n{2,}/),
      `${reply.staffName}, ${SHOP.name}`,
    ],
    note: contact
      ? `You wrote: "${quote(item.message)}" Reply to this e-mail to write back, or call us on ${shopContact().phone}.`
      : `Your appointment: ${item.serviceType}, ${item.when}. Reply to this e-mail to write back, or call us on ${shopContact().phone}.`,
  });
}
