import type { Database } from "#app/db/client.server.ts";
import { contacts } from "#app/db/schema.ts";
import { addressLimitKey, consumeLimit } from "#app/domain/accounts/rate-limit.server.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import { contactNotificationMessage } from "#app/emails/contact-emails.ts";
import type { ContactInput } from "./contact-input.ts";

/** Per client address: enough for a person, too few for a flood. */
export const CONTACT_LIMIT = { windowSeconds: 60 * 60, max: 5 };

/** Per e-mail address, from any client: nobody's name fills the inbox from many connections. */
export const CONTACT_ADDRESS_LIMIT = { windowSeconds: 60 * 60, max: 5 };

export type ContactResult = "sent" | "rate-limited" | "address-rate-limited";

/**
 * Stores a contact message and queues the shop's notification in the same transaction (spec
 * §7), so the message is never lost to a mail problem and never notified without being kept.
 * Nothing is mailed to the address typed: nobody proved it is the sender's, and an automatic
 * answer quoting the message would mail a stranger's words to it (see visitor-text.ts).
 */
export async function submitContactMessage(
  db: Database,
  input: ContactInput,
  options: { clientIp: string; shopEmail: string },
): Promise<ContactResult> {
  const limit = await consumeLimit(db, `contact:${options.clientIp}`, CONTACT_LIMIT);
  if (!limit.allowed) return "rate-limited";
  const addressLimit = await consumeLimit(
    db,
    addressLimitKey("contact-address", input.email),
    CONTACT_ADDRESS_LIMIT,
  );
  if (!addressLimit.allowed) return "address-rate-limited";
  await db.transaction(async (tx) => {
    await tx.insert(contacts).values(input);
    await queueMail(
      { to: options.shopEmail, replyTo: input.email, ...contactNotificationMessage(input) },
      { tx },
    );
  });
  return "sent";
}
