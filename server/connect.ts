import path from "node:path";
import { getEnv } from "#app/lib/env.server.ts";
import { embeddedUrl, runningPort, startEmbeddedPostgres } from "./embedded-postgres.ts";

/**
 * For command-line tools: the shop's database, whether or not the shop is running. Uses
 * DATABASE_URL, else the embedded server of DATA_DIR (the running one, or starts it).
 */
export async function connectForCli(): Promise<{ url: string; stop: () => Promise<void> }> {
  const env = getEnv();
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, stop: async () => {} };
  const dataDir = path.resolve(env.DATA_DIR);
  const port = runningPort(path.join(dataDir, "postgres"));
  if (port) return { url: embeddedUrl(dataDir, port), stop: async () => {} };
  const started = await startEmbeddedPostgres(dataDir);
  return started;
}
