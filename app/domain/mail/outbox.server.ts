import { sql } from "drizzle-orm";
import { fromDrizzle, PgBoss, type JobResult } from "pg-boss";
import type { Database, Transaction } from "#app/db/client.server.ts";
import type { MailTransport } from "./transport.server.ts";
import type { OutgoingMail } from "#app/emails/outgoing-mail.ts";

export const MAIL_QUEUE = "mail-send";

export type RetryPolicy = { retryLimit: number; retryDelay: number; retryDelayMax: number };

/** About a day and a half of retries, starting at 10 s and doubling up to an hour apart. */
export const DEFAULT_RETRY: RetryPolicy = { retryLimit: 40, retryDelay: 10, retryDelayMax: 3600 };

/**
 * A worker refreshes its messages' heartbeat while sending; messages of a worker that stops
 * heartbeating (a crashed process) are handed out again about this long later, instead of after
 * pg-boss's 15-minute expiry.
 */
const HEARTBEAT_SECONDS = 30;

// The server entry starts the queue; the app (a separate module graph) reaches it here.
const globalOutbox = globalThis as typeof globalThis & { __shopOutbox?: PgBoss };

/**
 * Starts the Postgres-backed job queue (pg-boss, its own schema) that carries outgoing mail.
 * Sending is a row insert, so a slow or absent mail server never delays or fails a request,
 * and queued messages survive restarts.
 */
export async function startOutbox(
  connectionString: string,
  options: {
    retry?: RetryPolicy;
    onError?: (error: Error) => void;
    onWarning?: (warning: { message: string }) => void;
  } = {},
): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    schema: "pgboss",
    max: 3,
    application_name: "shop-outbox",
    // A queued message wakes the workers at once (NOTIFY on commit) instead of at their next poll;
    // it holds one more connection. Behind a transaction-mode PgBouncer pg-boss warns and polls.
    useListenNotify: true,
  });
  boss.on("error", (error) => (options.onError ?? console.error)(error));
  boss.on("warning", (warning) => (options.onWarning ?? console.warn)(warning));
  await boss.start();
  const queue = {
    ...(options.retry ?? DEFAULT_RETRY),
    retryBackoff: true,
    notify: true,
    heartbeatSeconds: HEARTBEAT_SECONDS,
  };
  await boss.createQueue(MAIL_QUEUE, queue);
  await boss.updateQueue(MAIL_QUEUE, queue);
  globalOutbox.__shopOutbox = boss;
  return boss;
}

export type MailWorkerOptions = {
  /**
   * Messages in flight at once in this process. By default twice the transport's connections
   * (10 with the default SMTP pool of 5), so each connection has its next message waiting.
   */
  concurrency?: number;
  /** How often an idle worker looks for due retries while NOTIFY wakes it for new mail. */
  notifyPollingIntervalSeconds?: number;
  /** The same when NOTIFY is unavailable (then new mail waits for it too). */
  pollingIntervalSeconds?: number;
};

/**
 * Delivers queued mail through the transport, `concurrency` messages at a time; a failed message
 * is retried alone, with backoff, and never fails or resends the others fetched with it.
 * Delivery is at least once: a crash between sending and recording sends again, with the same
 * Message-ID (from the job id) so that the receiving server can drop the copy.
 */
export async function startMailWorker(
  boss: PgBoss,
  transport: MailTransport,
  options: MailWorkerOptions = {},
) {
  const concurrency = options.concurrency ?? 2 * transport.maxConnections;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  return boss.work<OutgoingMail>(
    MAIL_QUEUE,
    {
      // One fetch and one settling statement per batch; while batches come back full (a
      // backlog) the next one is fetched at once instead of after the polling interval.
      batchSize: concurrency,
      burstWhenBatchFull: true,
      perJobResults: true,
      pollingIntervalSeconds,
      notifyPollingIntervalSeconds: Math.max(
        options.notifyPollingIntervalSeconds ?? 10,
        pollingIntervalSeconds,
      ),
    },
    (jobs) =>
      Promise.all(
        jobs.map(async (job): Promise<JobResult> => {
          try {
            await transport.send(job.data, { id: job.id });
            return { id: job.id, status: "completed" };
          } catch (error) {
            return { id: job.id, status: "failed", output: error };
          }
        }),
      ),
  );
}

/**
 * Stops fetching; messages being sent finish and are recorded (up to 10 s, after which they are
 * handed back to the queue and sent again later).
 */
export async function stopOutbox(boss: PgBoss) {
  if (globalOutbox.__shopOutbox === boss) globalOutbox.__shopOutbox = undefined;
  await boss.stop({ graceful: true, timeout: 10_000 });
}

/**
 * Queues a message; returns once it is safely stored, never waiting for the mail server.
 * Given a transaction (`{ tx }`), the message is stored inside it: it is sent only if that
 * transaction commits, and a rollback takes it back with everything else.
 */
export async function queueMail(mail: OutgoingMail, options: { tx?: Database | Transaction } = {}) {
  const boss = globalOutbox.__shopOutbox;
  if (!boss) throw new Error("The mail queue is not running.");
  await boss.send(MAIL_QUEUE, mail, options.tx ? { db: fromDrizzle(options.tx, sql) } : {});
}

/** Queues many messages in one statement, inside `tx` when given (as `queueMail` does one). */
export async function queueMails(
  mails: OutgoingMail[],
  options: { tx?: Database | Transaction } = {},
) {
  if (mails.length === 0) return;
  const boss = globalOutbox.__shopOutbox;
  if (!boss) throw new Error("The mail queue is not running.");
  await boss.insert(
    MAIL_QUEUE,
    mails.map((data) => ({ data })),
    options.tx ? { db: fromDrizzle(options.tx, sql) } : {},
  );
}
