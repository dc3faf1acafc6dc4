import nodemailer from "nodemailer";
import type { Env } from "#app/lib/env.server.ts";
import { linksIn, storeMail } from "./mailbox.server.ts";
import type { OutgoingMail } from "./outgoing-mail.ts";

export type MailTransport = {
  kind: "smtp" | "mailbox";
  send: (mail: OutgoingMail) => Promise<void>;
  close: () => void;
};

/** Real SMTP when SMTP_URL is set; otherwise (never in production) the development mailbox. */
export function createMailTransport(
  env: Pick<Env, "SMTP_URL" | "MAIL_FROM" | "APP_ENV" | "DATA_DIR">,
  log: (message: string) => void = console.log,
): MailTransport {
  if (env.SMTP_URL) {
    const url = new URL(env.SMTP_URL);
    // Short timeouts: a hung mail server should fail the job (and be retried), not stall it.
    url.searchParams.set("connectionTimeout", "10000");
    url.searchParams.set("greetingTimeout", "10000");
    url.searchParams.set("socketTimeout", "20000");
    const transporter = nodemailer.createTransport(url.toString());
    return {
      kind: "smtp",
      send: async (mail) => {
        await transporter.sendMail({ from: env.MAIL_FROM, ...mail });
      },
      close: () => transporter.close(),
    };
  }
  if (env.APP_ENV === "production") throw new Error("SMTP_URL is required in production.");
  return {
    kind: "mailbox",
    send: async (mail) => {
      const stored = await storeMail(env.DATA_DIR, env.MAIL_FROM, mail);
      const links = linksIn(mail.text);
      log(
        `Mail to ${mail.to} kept in the development mailbox (/dev/mailbox/${stored.id}): ` +
          `"${mail.subject}"${links.length ? ` ${links.join(" ")}` : ""}`,
      );
    },
    close: () => {},
  };
}
