import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { createDatabase, type Database } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";

/**
 * A database of this test file's own, migrated and empty, for tests that change shop-wide state
 * (staff picks, counts) that tests in other files read at the same time. Dropped afterwards.
 */
export function scratchDatabase(): { db: () => Database; url: () => string } {
  const adminUrl = inject("databaseUrl");
  const name = `scratch_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const url = adminUrl.replace(/\/[^/]+$/, `/${name}`);
  let handle: ReturnType<typeof createDatabase> | undefined;
  beforeAll(async () => {
    const admin = new pg.Client(adminUrl);
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    handle = createDatabase(url, 8);
    await runMigrations(handle.db);
  }, 60_000);
  afterAll(async () => {
    await handle?.pool.end();
    const admin = new pg.Client(adminUrl);
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return {
    url: () => url,
    db: () => {
      if (!handle) throw new Error("The scratch database is not ready yet.");
      return handle.db;
    },
  };
}
