import type { Database } from "#app/db/client.server.ts";
import { contacts } from "#app/db/schema.ts";
import { consumeLimit } from "#app/domain/accounts/rate-limit.server.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import { contactNotificationMessage } from "#app/emails/contact-emails.ts";
import type { ContactInput } from "./contact-input.ts";

/** Per client address: enough for a person, too few for a flood. */
export const CONTACT_LIMIT = { windowSeconds: 60 * 60, max: 5 };

export type ContactResult = "sent" | "rate-limited";

/**
 * Stores a contact message and queues the shop's notification in the same transaction (spec
 * §7), so the message is never lost to a mail problem and never notified without being kept.
 */
export async function submitContactMessage(
  db: Database,
  input: ContactInput,
  options: { clientIp: string; shopEmail: string },
): Promise<ContactResult> {
  const limit = await consumeLimit(db, `contact:${options.clientIp}`, CONTACT_LIMIT);
  if (!limit.allowed) return "rate-limited";
  await db.transaction(async (tx) => {
    await tx.insert(contacts).values(input);
    await queueMail(
      { to: options.shopEmail, replyTo: input.email, ...contactNotificationMessage(input) },
      { tx },
    );
  });
  return "sent";
}
