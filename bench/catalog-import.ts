// Speed of the catalogue CSV import and export: node bench/catalog-import.ts [--rows 100000]
// Starts a throwaway PostgreSQL with the demo catalogue, writes a regular-catalogue CSV of
// generated titles (quoted commas, new lines in fields, $ prices, a barcode on every other title),
// and times, reading the file as a stream each time:
//   1. a dry run (every row would be added);
//   2. the import (every row added, one transaction);
//   3. a second file with every title's price, title and barcode changed (every row updated);
//   4. that file again (every row matches a title, none differs: nothing is rewritten);
//   5. the export of the whole catalogue to a file;
//   6. a dry run of that export (must report 0 added, 0 rejected);
//   7. a restock of 1,000 sold-out titles with 10,000 waiting stock alerts (10 each): the import
//      that makes them due in its transaction, then the 10,000 alert e-mails queued by two
//      senders at once (the checks are in app/domain/alerts/alerts.server.test.ts).
// Prints rows/s for each and the process's peak memory. Exits 1 if a count is not as expected.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { and, eq, inArray, sql } from "drizzle-orm";
import { createDatabase, type Database } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { regularTitles, stockAlerts } from "#app/db/schema.ts";
import { seedDemoIfEmpty } from "#app/db/seed/demo.server.ts";
import { sendDueAlerts } from "#app/domain/alerts/alerts.server.ts";
import {
  catalogCsvColumns,
  importCatalogCsv,
  type CatalogImportReport,
} from "#app/domain/catalog/catalog-csv.server.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { hasValidCheckDigit } from "#app/domain/stock/barcode.ts";
import { startEmbeddedPostgres } from "#server/embedded-postgres.ts";
import { exportCatalogueTo } from "./catalogue-shop.ts";

const { values: args } = parseArgs({ options: { rows: { type: "string", default: "100000" } } });
const ROWS = Number(args.rows);
if (!Number.isInteger(ROWS) || ROWS < 1 || ROWS > 200_000) {
  console.error("Usage: node bench/catalog-import.ts [--rows 1..200000]");
  process.exit(2);
}
const FIRST_SERIAL = 1_000_001;
const DISCS = ["DVD", "Blu-ray", "4K/Blu-ray", "Collections"];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-csv-"));
// When run as root the server runs as a separate "postgres" user, which must reach the folder.
fs.chmodSync(dataDir, 0o755);
const database = await startEmbeddedPostgres(path.join(dataDir, "db"));
const { db, pool } = createDatabase(database.url, 4);
let failed = false;

/** An EAN-13 of the store's own range (prefix 2), different for each title and edition. */
function barcode(i: number, edition: number) {
  const body = `2${edition}${String(i).padStart(10, "0")}`;
  return body + [..."0123456789"].find((digit) => hasValidCheckDigit(body + digit))!;
}

function csvCell(value: string) {
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

async function writeInputFile(file: string, edition: number) {
  async function* lines() {
    yield catalogCsvColumns("regular").join(",") + "\r\n";
    let batch = "";
    for (let i = 0; i < ROWS; i++) {
      const cells = [
        String(FIRST_SERIAL + i),
        `BENCH-${i}`,
        String(i % 25),
        `Bench Title ${i}, Part ${i % 7}${edition > 1 ? ` (edition ${edition})` : ""}`,
        String(1930 + (i % 95)),
        DISCS[i % 4]!,
        "Movie",
        i % 3 === 0
          ? `$${(5 + edition + (i % 40)).toFixed(2)}`
          : `${1000 + edition + (i % 500)}.99`,
        `A generated title for the import benchmark.\nIt has a second line, a comma and "quotes" (${i}).`,
        "Drama, Thriller",
        "A. Director",
        "First Actor, Second Actor, Third Actor",
        i % 2 ? "" : `/uploads/posters/${i}.webp`,
        i % 2 ? "" : barcode(i, edition),
      ];
      batch += cells.map(csvCell).join(",") + "\r\n";
      if (batch.length > 1 << 20) {
        yield batch;
        batch = "";
      }
    }
    yield batch;
  }
  await pipeline(Readable.from(lines()), fs.createWriteStream(file));
}

async function timed<T>(name: string, rows: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    name.padEnd(44),
    `${seconds.toFixed(2)} s`.padStart(9),
    `${Math.round(rows / seconds).toLocaleString("en-US")} rows/s`.padStart(16),
  );
  return result;
}

function expectReport(name: string, report: CatalogImportReport, added: number, updated: number) {
  if (report.added !== added || report.updated !== updated || report.rejected.length > 0) {
    failed = true;
    console.error(
      `  ${name}: expected ${added} added, ${updated} updated, 0 rejected; got`,
      report.added,
      report.updated,
      report.rejected.slice(0, 3),
    );
  }
}

/** 1,000 sold-out titles, 10 waiting alerts each, restocked by one CSV import; then mailed. */
async function restockWithAlerts(db: Database) {
  const TITLES = 1000;
  const titles = await db
    .insert(regularTitles)
    .values(
      Array.from({ length: TITLES }, (_, i) => ({
        productId: `ALERTS-${i}`,
        title: `Awaited Title ${i}`,
        disc: "DVD" as const,
        qtyToList: 0,
        currentPriceCents: 999,
      })),
    )
    .returning({ serialNo: regularTitles.regSerialNo, title: regularTitles.title });
  const alerts = titles.flatMap((title) =>
    Array.from({ length: 10 }, (_, i) => ({
      kind: "restock" as const,
      email: `waiting-${i}@bench.example`,
      regSerialNo: title.serialNo,
      title: title.title,
      status: "active" as const,
    })),
  );
  for (let i = 0; i < alerts.length; i += 2000) {
    await db.insert(stockAlerts).values(alerts.slice(i, i + 2000));
  }
  const csv = [
    "RegSerialNo,ProductID,QtyToList,Title,Disc,CurrentPrice",
    ...titles.map((title, i) => `${title.serialNo},ALERTS-${i},2,${title.title},DVD,9.99`),
  ].join("\n");
  const restocked = await timed("restock with 10,000 waiting alerts", TITLES, () =>
    importCatalogCsv(db, "regular", csv, { dryRun: false }),
  );
  expectReport("restock", restocked, 0, TITLES);
  const serials = titles.map((title) => title.serialNo);
  const [due] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(stockAlerts)
    .where(and(inArray(stockAlerts.regSerialNo, serials), eq(stockAlerts.status, "due")));
  const links = {
    publicUrl: "http://shop.bench",
    secret: "bench-secret-of-at-least-32-characters",
  };
  const sent = await timed("alert e-mails queued (two senders)", alerts.length, () =>
    Promise.all([sendDueAlerts(db, { links }), sendDueAlerts(db, { links })]),
  );
  if (due!.n !== alerts.length || sent[0] + sent[1] !== alerts.length) {
    failed = true;
    console.error(
      `  alerts: ${due!.n} made due and ${sent[0] + sent[1]} mailed of ${alerts.length}`,
    );
  }
}

try {
  await runMigrations(db);
  await seedDemoIfEmpty(db);
  const input = path.join(dataDir, "input.csv");
  const changed = path.join(dataDir, "changed.csv");
  await writeInputFile(input, 1);
  await writeInputFile(changed, 2);
  const inputSize = fs.statSync(input).size;
  console.log(
    `${ROWS.toLocaleString("en-US")} generated regular titles, ${(inputSize / 1e6).toFixed(1)} MB of CSV`,
  );

  const read = () => fs.createReadStream(input);
  const dry = await timed("dry run (all would be added)", ROWS, () =>
    importCatalogCsv(db, "regular", read(), { dryRun: true }),
  );
  expectReport("dry run", dry, ROWS, 0);
  const added = await timed("import, one transaction (all added)", ROWS, () =>
    importCatalogCsv(db, "regular", read(), { dryRun: false }),
  );
  expectReport("import", added, ROWS, 0);
  const updated = await timed("import of changed titles (all updated)", ROWS, () =>
    importCatalogCsv(db, "regular", fs.createReadStream(changed), { dryRun: false }),
  );
  expectReport("import of changed titles", updated, 0, ROWS);
  const unchanged = await timed("same file again (all unchanged)", ROWS, () =>
    importCatalogCsv(db, "regular", fs.createReadStream(changed), { dryRun: false }),
  );
  expectReport("same file again", unchanged, 0, ROWS);

  const { rows } = await pool.query<{ total: number }>(
    "select count(*)::int as total from regular_titles",
  );
  const total = rows[0]!.total;
  const exported = path.join(dataDir, "export.csv");
  await timed(`export of all ${total.toLocaleString("en-US")} titles`, total, () =>
    exportCatalogueTo(db, "regular", exported),
  );
  console.log(`  ${(fs.statSync(exported).size / 1e6).toFixed(1)} MB written`);
  const roundTrip = await timed("dry run of the export (round trip)", total, () =>
    importCatalogCsv(db, "regular", fs.createReadStream(exported), { dryRun: true }),
  );
  expectReport("round trip", roundTrip, 0, total);

  // The alert e-mails go to the mail queue in this database, which this process runs.
  const outbox = await startOutbox(database.url, { onError() {} });
  try {
    await restockWithAlerts(db);
  } finally {
    await stopOutbox(outbox);
  }

  console.log(
    `peak memory of this process (RSS): ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  );
} finally {
  await pool.end();
  await database.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
