import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { Database } from "./client.server.ts";

const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../drizzle",
);

/**
 * The key of the session-level advisory lock held while migrating. Every process runs the
 * migrations at start; the first to take the lock applies them, the others wait and then find
 * nothing left to do (drizzle's own bookkeeping table is created inside, so two processes never
 * race to create it).
 */
export const MIGRATION_LOCK_KEY = 4242000;

export async function runMigrations(db: Database): Promise<void> {
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  // A connection of its own, without the pool's statement timeouts: building an index over a
  // large table, or waiting for another process's migrations, may rightly take minutes.
  const { statement_timeout, query_timeout, ...options } = pool.options;
  void statement_timeout;
  void query_timeout;
  const client = new pg.Client(options);
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client, { casing: "snake_case" }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}
