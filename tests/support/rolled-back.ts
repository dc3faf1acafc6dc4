import { TransactionRollbackError } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";

/**
 * Runs `work` in a transaction that is rolled back at the end: its rows are seen by no other test
 * file, and are gone afterwards. The transaction is handed over as a database, so the code under
 * test takes it as it takes the shop's. `snapshot`: every statement sees the database as the
 * first one did (repeatable read), for a test that compares what several statements read while
 * other test files add and delete rows.
 */
export async function rolledBack(
  db: Database,
  work: (tx: Database) => Promise<void>,
  options: { snapshot?: boolean } = {},
) {
  try {
    await db.transaction(
      async (tx) => {
        await work(tx as unknown as Database);
        tx.rollback();
      },
      options.snapshot ? { isolationLevel: "repeatable read" } : undefined,
    );
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
}
