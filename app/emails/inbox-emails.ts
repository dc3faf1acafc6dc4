import { shopContact } from "#app/lib/env.server.ts";
import { SHOP } from "#app/lib/site.ts";
import { renderEmail, type RenderedEmail } from "./layout.ts";
import { hello, type AddressProof } from "./visitor-text.ts";

/**
 * What a staff reply from the inbox answers: a contact message, whose address nobody proved, or
 * a confirmed repair appointment, whose address its owner proved by confirming it.
 */
export type RepliedItem =
  | { kind: "contact"; name: string }
  | { kind: "repair"; name: string; serviceType: string; when: string };

/**
 * A staff member's answer to a contact message or a repair request, sent from the inbox. Staff
 * write the body; the sender's own words are never quoted back (see visitor-text.ts).
 */
export function inboxReplyMessage(
  item: RepliedItem,
  reply: { body: string; staffName: string },
): RenderedEmail {
  const contact = item.kind === "contact";
  const proof: AddressProof = contact ? "unproven" : "proven";
  const writeBack = `Reply to this e-mail to write back, or call us on ${shopContact().phone}.`;
  return renderEmail({
    subject: contact ? `Re: your message to ${SHOP.name}` : "Re: your repair appointment",
    preview: reply.body.replace(/\s+/g, " ").slice(0, 100),
    heading: contact ? "A reply to your message" : "About your repair appointment",
    paragraphs: [
      hello(proof, item.name),
      ...reply.body.split(/\n{2,}/),
      `${reply.staffName}, ${SHOP.name}`,
    ],
    note: contact ? writeBack : `Your appointment: ${item.serviceType}, ${item.when}. ${writeBack}`,
  });
}
