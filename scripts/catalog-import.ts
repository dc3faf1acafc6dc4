// npm run catalog:import -- <file.csv> [--adult] [--dry-run]
// Imports a catalogue CSV in the spec's column names (RegSerialNo, ProductID, ... or, with
// --adult, AdultSerialNo, ProductID, ...) into the shop's database (DATABASE_URL, or the embedded
// one in DATA_DIR, whether or not the shop is running). Every row is checked first; if any row
// is rejected nothing is written. --dry-run only reports what would happen.
// Exit code: 0 when every row is fine, 1 when rows were rejected or the file cannot be read,
// 2 for a usage error.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { createDatabase } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { importCatalogCsv } from "#app/domain/catalog/catalog-csv.server.ts";
import { CsvImportError } from "#app/lib/csv.server.ts";
import { connectForCli } from "#server/connect.ts";

const SHOWN_REJECTIONS = 50;

const usage = "Usage: npm run catalog:import -- <file.csv> [--adult] [--dry-run]";
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      adult: { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
    },
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.error(usage);
  process.exit(2);
}
const { values, positionals } = parsed;
const file = positionals[0];
if (positionals.length !== 1 || !file) {
  console.error(usage);
  process.exit(2);
}
if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
  console.error(`No such file: ${file}`);
  process.exit(2);
}
const kind = values.adult ? "adult" : "regular";
const dryRun = values["dry-run"];

const connection = await connectForCli();
const { db, pool } = createDatabase(connection.url, 2);
let exitCode = 0;
try {
  await runMigrations(db);
  const started = performance.now();
  const report = await importCatalogCsv(db, kind, fs.createReadStream(file), { dryRun });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const rows = (n: number) => `${n.toLocaleString("en-US")} row${n === 1 ? "" : "s"}`;
  console.log(`${file}: ${rows(report.total)} for the ${kind} catalogue, read in ${seconds} s.`);
  if (report.rejected.length > 0) {
    console.log(`${rows(report.rejected.length)} rejected:`);
    for (const { row, reasons } of report.rejected.slice(0, SHOWN_REJECTIONS)) {
      console.log(`  row ${row}: ${reasons.join("; ")}`);
    }
    if (report.rejected.length > SHOWN_REJECTIONS) {
      console.log(`  … and ${rows(report.rejected.length - SHOWN_REJECTIONS)} more.`);
    }
    console.log(
      `Nothing was written. Fix the rows above and try again (${rows(report.added)} would be added, ${rows(report.updated)} updated).`,
    );
    exitCode = 1;
  } else if (report.written) {
    console.log(`Imported: ${rows(report.added)} added, ${rows(report.updated)} updated.`);
  } else {
    console.log(
      `Dry run, nothing written: ${rows(report.added)} would be added, ${rows(report.updated)} updated, none rejected.`,
    );
  }
} catch (error) {
  console.error(error instanceof CsvImportError ? error.message : error);
  exitCode = 1;
} finally {
  // pool.end() resolves once each connection is asked to close, not once it has: wait for
  // them, or stopping the embedded server below cuts them off with an error.
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on("remove", () => --open <= 0 && resolve());
  });
  await pool.end();
  await closed;
  await connection.stop();
}
process.exit(exitCode);
