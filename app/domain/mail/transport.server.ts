import nodemailer from "nodemailer";
import type { Env } from "#app/lib/env.server.ts";
import { storeMail } from "./mailbox.server.ts";
import type { OutgoingMail } from "#app/emails/outgoing-mail.ts";

export type MailTransport = {
  kind: "smtp" | "mailbox";
  /**
   * `id` is the message's stable id (its queue job id): every attempt to send the same message
   * carries the same Message-ID, so a receiving server can drop a copy sent again after a crash.
   */
  send: (mail: OutgoingMail, options?: { id?: string }) => Promise<void>;
  close: () => void;
  /** Messages it delivers at the same time (SMTP: open connections at most). */
  maxConnections: number;
};

function positiveInteger(value: string | null): number | undefined {
  const number = Number(value);
  return value && Number.isInteger(number) && number > 0 ? number : undefined;
}

/** The right-hand side of a Message-ID: the domain of the sender's address. */
function messageIdDomain(from: string): string {
  const address = /<([^<>]*)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address.slice(address.lastIndexOf("@") + 1).trim();
  return /^[a-z0-9.-]+$/i.test(domain) && address.includes("@") ? domain : "localhost";
}

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
    // A few connections kept open and reused instead of a handshake per message. SMTP_URL may
    // change the bounds (maxConnections, maxMessages per connection; rateLimit per rateDelta ms).
    url.searchParams.set("pool", "true");
    const maxConnections = positiveInteger(url.searchParams.get("maxConnections")) ?? 5;
    url.searchParams.set("maxConnections", String(maxConnections));
    const maxMessages = positiveInteger(url.searchParams.get("maxMessages")) ?? 100;
    url.searchParams.set("maxMessages", String(maxMessages));
    const transporter = nodemailer.createTransport(url.toString());
    const domain = messageIdDomain(env.MAIL_FROM);
    return {
      kind: "smtp",
      send: async (mail, options = {}) => {
        await transporter.sendMail({
          from: env.MAIL_FROM,
          ...mail,
          ...(options.id ? { messageId: `<${options.id}@${domain}>` } : {}),
        });
      },
      close: () => transporter.close(),
      maxConnections,
    };
  }
  if (env.APP_ENV === "production") throw new Error("SMTP_URL is required in production.");
  return {
    kind: "mailbox",
    send: async (mail) => {
      const stored = await storeMail(env.DATA_DIR, env.MAIL_FROM, mail);
      // Only where to read it: its links can carry sign-in and reset tokens, which logs never do.
      log(
        `Mail to ${mail.to} kept in the development mailbox (/dev/mailbox/${stored.id}): ` +
          `"${mail.subject}"`,
      );
    },
    close: () => {},
    maxConnections: 1,
  };
}
