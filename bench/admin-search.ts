// `npm run bench:admin-search`: how fast the back office's catalogue tables search, sort and page
// at 100,000 regular and 20,000 adult titles (the trigram-indexed admin search expression).
// Prints p50 / p95 per query over repeated runs on its own embedded PostgreSQL.
//
//   node bench/admin-search.ts [--regular 100000] [--adult 20000] [--repeat 30]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { seedDemoIfEmpty } from "#app/db/seed/demo.server.ts";
import { seedSynthetic } from "#app/db/seed/synthetic.server.ts";
import { startEmbeddedPostgres } from "#server/embedded-postgres.ts";
import { adminCatalogueQueries } from "./catalogue-shop.ts";
import { printQueryTimings } from "./query-timings.ts";

const { values: args } = parseArgs({
  options: {
    regular: { type: "string", default: "100000" },
    adult: { type: "string", default: "20000" },
    repeat: { type: "string", default: "30" },
  },
});
const REPEAT = Number(args.repeat);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-admin-search-"));
fs.chmodSync(dataDir, 0o755);
const server = await startEmbeddedPostgres(dataDir);
const { db, pool } = createDatabase(server.url, 2);

try {
  await runMigrations(db);
  await seedDemoIfEmpty(db);
  console.log(`Seeding ${args.regular} regular and ${args.adult} adult titles…`);
  await seedSynthetic(db, { regular: Number(args.regular), adult: Number(args.adult) });
  await pool.query("analyze");

  await printQueryTimings(adminCatalogueQueries(db), REPEAT);
} finally {
  await pool.end();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
