import { sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";

/** How many contact messages and repair requests no staff member has marked handled yet. */
export async function openInboxCount(db: Database): Promise<number> {
  const result = await db.execute<{ open: number }>(sql`
    select ((select count(*) from contacts where handled_at is null)
          + (select count(*) from service_requests where handled_at is null))::int as open`);
  return result.rows[0]?.open ?? 0;
}
