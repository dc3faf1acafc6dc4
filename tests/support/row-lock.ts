import { sql, type SQL } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";

/**
 * Runs `racers` so that they cannot but overlap: another connection first takes the rows `lock`
 * selects (`select … for update`), the racers start, and the lock is let go only once every one
 * of them is queued behind it. Without it two "simultaneous" requests may simply run one after
 * the other, and a race test proves nothing. The racers must each take the same rows' lock
 * (and the pool must have a connection for each racer, the holder and the watcher).
 */
export async function queuedBehindRowLock<T>(
  db: Database,
  lock: SQL,
  racers: (() => Promise<T>)[],
): Promise<T[]> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: (pid: number) => void;
  const holder = new Promise<number>((resolve) => (held = resolve));
  const holding = db.transaction(async (tx) => {
    await tx.execute(lock);
    const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    held(rows[0]!.pid);
    await released;
  });
  const pid = await Promise.race([holder, holding.then(() => -1)]);
  if (pid < 0) throw new Error("The lock holder ended before it held the lock.");
  let finished = 0;
  const results = racers.map((racer) => racer().finally(() => finished++));
  // Queued: blocked by the holder, or by a session queued behind it (the first to wait for a row
  // holds the row's place in the line, and the others wait for that one), by pid, not just any
  // session waiting for some lock.
  for (;;) {
    const { rows } = await db.execute<{ n: number }>(sql`
      with recursive queued(pid) as (
        select pid from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))
        union
        select waiting.pid from pg_stat_activity waiting
          join queued on queued.pid = any(pg_blocking_pids(waiting.pid))
      )
      select count(*)::int as n from queued`);
    if (rows[0]!.n >= racers.length) break;
    if (finished > 0) {
      release();
      await Promise.allSettled([holding, ...results]);
      throw new Error("A racer finished without queueing behind the lock: it takes another.");
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  release();
  await holding;
  return Promise.all(results);
}
