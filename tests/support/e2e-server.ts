// Starts the built shop for the browser tests on a fresh embedded database with the demo data.
import fs from "node:fs";
import path from "node:path";

const dataDir = path.resolve(".tmp/e2e-data");
fs.rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.HOST = "127.0.0.1";
process.env.APP_ENV = "local";
process.env.SEED_DEMO = "true";
process.env.LOG_LEVEL = "warn";
delete process.env.DATABASE_URL;
await import("../../server/index.ts");
