import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createDatabase } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { seedDemoIfEmpty } from "#app/db/seed/demo.server.ts";
import { startEmbeddedPostgres } from "#server/embedded-postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** One real PostgreSQL for the whole run, migrated and holding the demo catalogue. */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-db-"));
  // When run as root the server runs as a separate "postgres" user, which must reach the folder.
  fs.chmodSync(dataDir, 0o755);
  const server = await startEmbeddedPostgres(dataDir);
  const { db, pool } = createDatabase(server.url, 2);
  await runMigrations(db);
  await seedDemoIfEmpty(db);
  await pool.end();
  project.provide("databaseUrl", server.url);
  return async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
