import { sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";

/**
 * How many contact messages and confirmed repair requests no staff member has marked handled
 * yet (unconfirmed bookings never reach staff).
 */
export async function openInboxCount(db: Database): Promise<number> {
  const result = await db.execute<{ open: number }>(sql`
    select ((select count(*) from contacts where handled_at is null)
          + (select count(*) from service_requests
              where handled_at is null and confirmed_at is not null))::int as open`);
  return result.rows[0]?.open ?? 0;
}
