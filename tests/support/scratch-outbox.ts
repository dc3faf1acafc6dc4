import { sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, inject } from "vitest";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import type { OutgoingMail } from "#app/emails/outgoing-mail.ts";
import type { scratchDatabase } from "./scratch-database.ts";

/**
 * The mail queue in a test file's scratch database, so messages queued inside the domain's
 * transactions land there; `mailTo` reads what was queued for an address, oldest first.
 * Call after `scratchDatabase()` so the database exists when the queue starts.
 */
export function scratchOutbox(scratch: ReturnType<typeof scratchDatabase>) {
  let boss: PgBoss | undefined;
  let url = "";
  beforeAll(async () => {
    const { rows } = await scratch.db().execute(sql`select current_database() as name`);
    url = inject("databaseUrl").replace(/\/[^/]+$/, `/${(rows[0] as { name: string }).name}`);
    boss = await startOutbox(url, { onError() {} });
  });
  afterAll(async () => {
    if (boss) await stopOutbox(boss);
  });
  return {
    /** The scratch database's URL (once started). */
    url: () => url,
    async mailTo(address: string): Promise<OutgoingMail[]> {
      const { rows } = await scratch
        .db()
        .execute(
          sql`select data from pgboss.job where name = 'mail-send' and data->>'to' = ${address} order by created_on`,
        );
      return (rows as { data: OutgoingMail }[]).map((row) => row.data);
    },
  };
}
