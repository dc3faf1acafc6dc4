import path from "node:path";
import { getEnv } from "#app/lib/env.server.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";

/**
 * For command-line tools: the shop's database, whether or not the shop is running. Uses
 * DATABASE_URL, else the embedded server of DATA_DIR (the running one, or one started for the
 * command and stopped after it).
 */
export async function connectForCli(): Promise<{ url: string; stop: () => Promise<void> }> {
  const env = getEnv();
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, stop: async () => {} };
  return startEmbeddedPostgres(path.resolve(env.DATA_DIR));
}
