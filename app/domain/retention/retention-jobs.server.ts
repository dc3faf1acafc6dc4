import type { PgBoss } from "pg-boss";
import type { Database } from "#app/db/client.server.ts";
import type { PosterStorage } from "#app/domain/posters/storage.server.ts";
import { type SweepCounts, sweepPersonalData } from "./retention.server.ts";

/** The queue of the hourly sweep that deletes personal data past its retention period. */
export const RETENTION_QUEUE = "retention-sweep";

/** Hourly, at 17 minutes past: away from the top of the hour, when other scheduled work runs. */
export const RETENTION_CRON = "17 * * * *";

/**
 * Schedules the retention sweep in the shared job queue, as the order expiry is scheduled: every
 * server process runs this, pg-boss makes one job an hour for the whole cluster, and one worker
 * takes it. A failed sweep is retried; a sweep that finds nothing due deletes nothing.
 */
export async function startRetentionJobs(
  boss: PgBoss,
  db: Database,
  options: { photoStorage?: PosterStorage; log?: (deleted: SweepCounts) => void } = {},
) {
  const queue = { retryLimit: 2, retryDelay: 60, notify: true };
  await boss.createQueue(RETENTION_QUEUE, queue);
  await boss.updateQueue(RETENTION_QUEUE, queue);
  await boss.schedule(RETENTION_QUEUE, RETENTION_CRON);
  await boss.work(RETENTION_QUEUE, { pollingIntervalSeconds: 60 }, async () => {
    const deleted = await sweepPersonalData(db, { photoStorage: options.photoStorage });
    options.log?.(deleted);
  });
}
