import type { PgBoss } from "pg-boss";
import type { Database } from "#app/db/client.server.ts";
import { expireStaleOrders } from "./fulfilment.server.ts";

/** The queue of the once-a-minute sweep that releases unpaid orders whose payment lapsed. */
export const EXPIRE_ORDERS_QUEUE = "orders-expire";

/**
 * Schedules the expiry sweep in the shared job queue. Every server process runs this; pg-boss
 * creates one job per minute for the whole cluster, and the sweep itself is safe to run from
 * several processes at once (rows are claimed with `for update skip locked`), so stock goes back
 * exactly once.
 */
export async function startOrderJobs(
  boss: PgBoss,
  db: Database,
  log: (expired: number[]) => void = () => {},
) {
  // NOTIFY wakes a worker as soon as the scheduled job is made; the polling is a fallback.
  const queue = { retryLimit: 2, retryDelay: 10, notify: true };
  await boss.createQueue(EXPIRE_ORDERS_QUEUE, queue);
  await boss.updateQueue(EXPIRE_ORDERS_QUEUE, queue);
  await boss.schedule(EXPIRE_ORDERS_QUEUE, "* * * * *");
  await boss.work(EXPIRE_ORDERS_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
    const { expired } = await expireStaleOrders(db, new Date());
    if (expired.length > 0) log(expired);
  });
}
