import { PgBoss } from "pg-boss";
import type { MailTransport } from "./transport.server.ts";
import type { OutgoingMail } from "./outgoing-mail.ts";

export const MAIL_QUEUE = "mail-send";

export type RetryPolicy = { retryLimit: number; retryDelay: number; retryDelayMax: number };

/** About a day and a half of retries, starting at 10 s and doubling up to an hour apart. */
export const DEFAULT_RETRY: RetryPolicy = { retryLimit: 40, retryDelay: 10, retryDelayMax: 3600 };

// The server entry starts the queue; the app (a separate module graph) reaches it here.
const globalOutbox = globalThis as typeof globalThis & { __shopOutbox?: PgBoss };

/**
 * Starts the Postgres-backed job queue (pg-boss, its own schema) that carries outgoing mail.
 * Sending is a row insert, so a slow or absent mail server never delays or fails a request,
 * and queued messages survive restarts.
 */
export async function startOutbox(
  connectionString: string,
  options: { retry?: RetryPolicy; onError?: (error: Error) => void } = {},
): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    schema: "pgboss",
    max: 3,
    application_name: "shop-outbox",
  });
  boss.on("error", (error) => (options.onError ?? console.error)(error));
  await boss.start();
  const retry = options.retry ?? DEFAULT_RETRY;
  await boss.createQueue(MAIL_QUEUE, { ...retry, retryBackoff: true });
  await boss.updateQueue(MAIL_QUEUE, { ...retry, retryBackoff: true });
  globalOutbox.__shopOutbox = boss;
  return boss;
}

/** Delivers queued mail through the transport; a failure is retried with backoff. */
export async function startMailWorker(
  boss: PgBoss,
  transport: MailTransport,
  options: { pollingIntervalSeconds?: number } = {},
) {
  return boss.work<OutgoingMail>(
    MAIL_QUEUE,
    { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 1 },
    async ([job]) => {
      if (job) await transport.send(job.data);
    },
  );
}

export async function stopOutbox(boss: PgBoss) {
  if (globalOutbox.__shopOutbox === boss) globalOutbox.__shopOutbox = undefined;
  await boss.stop({ graceful: true, timeout: 10_000 });
}

/** Queues a message; returns once it is safely stored, never waiting for the mail server. */
export async function queueMail(mail: OutgoingMail): Promise<void> {
  const boss = globalOutbox.__shopOutbox;
  if (!boss) throw new Error("The mail queue is not running.");
  await boss.send(MAIL_QUEUE, mail);
}
