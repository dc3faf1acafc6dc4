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

/**
 * One real PostgreSQL for the whole run, migrated and holding the demo catalogue; and one data
 * folder (DATA_DIR: uploaded posters, repair photos) for the run's test files, so that none of
 * them writes into the working tree's `.data`.
 */
export default async function setup(project: TestProject) {
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-files-"));
  // The test files' processes are started after this and inherit it.
  process.env.DATA_DIR = filesDir;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-db-"));
  // When run as root the server runs as a separate "postgres" user, which must reach the folder.
  fs.chmodSync(dataDir, 0o755);
  // embedded-postgres hooks the process's exit and exits with code 0, which would report a run
  // with failing tests as a success; its hooks go once the database is stopped.
  const exitListeners = new Set([...process.listeners("beforeExit"), ...process.listeners("exit")]);
  const server = await startEmbeddedPostgres(dataDir);
  const { db, pool } = createDatabase(server.url, 2);
  await runMigrations(db);
  await seedDemoIfEmpty(db);
  await pool.end();
  project.provide("databaseUrl", server.url);
  return async () => {
    await server.stop();
    for (const listener of process.listeners("beforeExit")) {
      if (!exitListeners.has(listener)) process.removeListener("beforeExit", listener);
    }
    for (const listener of process.listeners("exit")) {
      if (!exitListeners.has(listener)) process.removeListener("exit", listener);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(filesDir, { recursive: true, force: true });
  };
}
