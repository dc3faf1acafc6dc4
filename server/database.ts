import path from "node:path";
import { closeDb, getDb } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { seedDemoIfEmpty } from "#app/db/seed/demo.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";
import { logger } from "./logger.ts";

export type DatabaseHandle = { close: () => Promise<void>; embedded: boolean };

/**
 * Connects to DATABASE_URL, or starts the embedded server when it is unset; then applies the
 * committed migrations and, on an empty catalogue, the demo data. The embedded server is
 * started again if it stops; `onLost` hears when that failed.
 */
export async function prepareDatabase(
  env: Env,
  onLost: (error: unknown) => void = () => {},
): Promise<DatabaseHandle> {
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!env.DATABASE_URL) {
    const started = Date.now();
    const embedded = await startEmbeddedPostgres(
      path.resolve(env.DATA_DIR),
      (line) => logger.debug({ postgres: line }),
      // The shop started this server, so it keeps it running (docs/decisions/008).
      {
        onStopped: (how) =>
          logger.error({ how }, "embedded PostgreSQL stopped unexpectedly; starting it again"),
        onRestarted: (details) => logger.info(details, "embedded PostgreSQL started again"),
        onGaveUp: onLost,
      },
    );
    process.env.DATABASE_URL = embedded.url;
    stopEmbedded = embedded.stop;
    logger.info({ ms: Date.now() - started, dataDir: env.DATA_DIR }, "embedded PostgreSQL started");
  }
  try {
    const db = getDb();
    await runMigrations(db);
    if (env.SEED_DEMO) {
      const seeded = await seedDemoIfEmpty(db);
      if (seeded) logger.info(seeded, "demo catalogue seeded");
    }
  } catch (error) {
    await closeDb();
    await stopEmbedded?.();
    throw error;
  }
  return {
    embedded: Boolean(stopEmbedded),
    close: async () => {
      await closeDb();
      await stopEmbedded?.();
    },
  };
}
