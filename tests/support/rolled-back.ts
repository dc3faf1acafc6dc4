import { TransactionRollbackError } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";

/**
 * Runs `work` in a transaction that is rolled back at the end: its rows are seen by no other test
 * file, and are gone afterwards. The transaction is handed over as a database, so the code under
 * test takes it as it takes the shop's.
 */
export async function rolledBack(db: Database, work: (tx: Database) => Promise<void>) {
  try {
    await db.transaction(async (tx) => {
      await work(tx as unknown as Database);
      tx.rollback();
    });
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
}
