import {
  DEFAULT_RETRY,
  startMailWorker,
  startOutbox,
  stopOutbox,
} from "#app/domain/mail/outbox.server.ts";
import { createMailTransport } from "#app/domain/mail/transport.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { logger } from "./logger.ts";

/** Starts the mail queue and, in this process, the worker that delivers from it. */
export async function startMail(env: Env) {
  const transport = createMailTransport(env, (line) => logger.info(line));
  const boss = await startOutbox(process.env.DATABASE_URL!, {
    retry: { ...DEFAULT_RETRY, retryDelay: env.MAIL_RETRY_DELAY_SECONDS },
    onError: (error) => logger.warn({ err: error }, "mail queue"),
    onWarning: (warning) => logger.warn(warning, "mail queue"),
  });
  await startMailWorker(boss, transport);
  if (transport.kind === "mailbox") {
    logger.info("No SMTP_URL: e-mail is kept in the development mailbox at /dev/mailbox");
  }
  return {
    /** The job queue, for other background work of this process. */
    queue: boss,
    // The queue first: it stops fetching and waits for the messages being sent to be recorded,
    // and only then are the SMTP connections closed.
    stop: async () => {
      await stopOutbox(boss);
      transport.close();
    },
  };
}
