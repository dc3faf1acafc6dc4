import { greetingName } from "#app/lib/person-name.ts";
import { SHOP } from "#app/lib/site.ts";
import { renderEmail } from "./layout.ts";

export function verifyEmailMessage(input: { name: string; url: string }) {
  return renderEmail({
    subject: `Confirm your e-mail for ${SHOP.name}`,
    preview: "One click to finish creating your account.",
    heading: `Welcome, ${greetingName(input.name)}!`,
    paragraphs: [
      `Thanks for creating an account at ${SHOP.name}. Please confirm this is your e-mail address before you log in.`,
    ],
    action: { label: "Confirm my e-mail", url: input.url },
    note: "If you did not create an account, you can ignore this message.",
  });
}

export function resetPasswordMessage(input: { name: string; url: string }) {
  return renderEmail({
    subject: `Reset your ${SHOP.name} password`,
    preview: "A link to choose a new password.",
    heading: "Reset your password",
    paragraphs: [
      `Hi ${greetingName(input.name)}, someone (hopefully you) asked to reset the password of your ${SHOP.name} account.`,
      "The link works once and expires in one hour.",
    ],
    action: { label: "Choose a new password", url: input.url },
    note: "If you did not ask for this, ignore this message: your password stays as it is.",
  });
}
