import fs from "node:fs";
import path from "node:path";

const mailDir = path.resolve(".tmp/e2e-mail");

type Received = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Header lines as received, by lower-case name ("list-unsubscribe": "List-Unsubscribe: <…>"). */
  headers?: Record<string, string>;
  attachments?: { filename: string; contentType: string; content: string }[];
};

/** Messages already read, by file name: a message file never changes once it is there. */
const read = new Map<string, Received>();

function message(file: string): Received {
  let mail = read.get(file);
  if (!mail) {
    mail = JSON.parse(fs.readFileSync(path.join(mailDir, file), "utf8")) as Received;
    read.set(file, mail);
  }
  return mail;
}

/** Waits for the newest message to an address (sent through the real SMTP server). */
export async function waitForMail(
  to: string,
  subject: RegExp,
  options: {
    after?: number;
    timeoutMs?: number;
    /** Only a message whose text contains this (several tests write to the shop's address). */
    containing?: string;
  } = {},
): Promise<Received> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const files = fs.existsSync(mailDir)
      ? fs
          .readdirSync(mailDir)
          .filter((file) => file.endsWith(".json"))
          .sort()
          .reverse()
      : [];
    for (const file of files) {
      if (options.after && Number(file.split("-")[0]) < options.after) continue;
      const mail = message(file);
      if (options.containing && !mail.text.includes(options.containing)) continue;
      if (mail.to.includes(to) && subject.test(mail.subject)) return mail;
    }
    if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every message received so far for an address whose subject matches, oldest first. */
export function mailsMatching(to: string, subject: RegExp): Received[] {
  if (!fs.existsSync(mailDir)) return [];
  return fs
    .readdirSync(mailDir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map(message)
    .filter((mail) => mail.to.includes(to) && subject.test(mail.subject));
}

export function firstLink(mail: Received): string {
  const link = mail.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`No link in "${mail.subject}"`);
  return link;
}

/** A fresh address per test, so parallel tests never read each other's mail. */
export function uniqueEmail(label: string) {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}
