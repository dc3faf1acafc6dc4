import { sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";

/** The mail queued in `db` for the address `to` whose subject contains `subject`. */
export async function queuedMail(db: Database, to: string, subject: string) {
  const { rows } = await db.execute<{ data: { to: string; subject: string; text: string } }>(
    sql`select data from pgboss.job
        where name = 'mail-send' and data->>'to' = ${to} and data->>'subject' like ${`%${subject}%`}`,
  );
  return rows.map((row) => row.data);
}
