import { afterAll, inject } from "vitest";
import { createDatabase, type Database } from "#app/db/client.server.ts";

/** A pool on the run's test database, closed after the file's tests. */
export function testDatabase(): Database {
  const { db, pool } = createDatabase(inject("databaseUrl"), 4);
  afterAll(() => pool.end());
  return db;
}
