import { renderEmail } from "./layout.ts";

/** Spec §7: the shop's notification of a contact message (from_name, from_email, message). */
export function contactNotificationMessage(input: {
  name: string;
  email: string;
  message: string;
}) {
  return renderEmail({
    subject: `Contact message from ${input.name}`,
    preview: input.message.slice(0, 100),
    heading: "New message from the contact form",
    paragraphs: [`From: ${input.name} <${input.email}>`, ...input.message.split(/\n{2,}/)],
    note: "Reply to this e-mail to answer the sender.",
  });
}
