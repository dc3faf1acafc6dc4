// `npm run bench:sizes`: the catalogue at two sizes, one after the other on one machine, side by
// side in one report: 100,000 regular and 20,000 adult titles ("100k") and 1,000,000 regular and
// 100,000 adult titles ("1M"), each with the demo catalogue on top.
//
//   npm run bench:sizes [-- --small 100000:20000] [--large 1000000:100000] [--seconds 10]
//                       [--repeat 30] [--keep] [--out bench/sizes.md]
//
// Per size: the seed's time (`npm run db:seed` and a vacuum, from an empty database), the
// database's size and that of the titles' tables and indexes; each catalogue page, the search
// box's suggestions (four fixed texts and words as typed) and the adult list past the age gate
// at 32 connections, from the page cache and from a process without it (as `npm run bench`);
// the deep pages one request at a time; the server processes' memory; the back office's
// catalogue tables (the queries of `bench:admin-search`, p50 / p95); and the whole regular
// catalogue's CSV export. Then the ratio of the two sizes, and whether the goals hold: cached
// pages unchanged, misses and suggestions within 2× of the small size's figures, no page slower
// than 50 ms p99 at 32 connections from the cache.
//
// Each size's database is kept in the system's temp folder (where `npm run bench` keeps its own:
// the 100k one is the same), and seeded again each run so the seed is timed; --keep uses a kept
// one as it is, with the seed time recorded when it was made. The report (bench/sizes.md, or
// --out) is written after each size, and printed at the end. Nothing else should run meanwhile.
// Try it small: --small 2000:500 --large 20000:2000 --seconds 2 --repeat 3 --out /tmp/sizes.md
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "#app/db/client.server.ts";
import { buildIfStale } from "#server/build-stamp.ts";
import {
  adminCatalogueQueries,
  type Catalogue,
  type CatalogueSize,
  catalogueTargets,
  exportCatalogueTo,
  measurePages,
  oneAtATime,
  openCatalogue,
  type PageRow,
  startShops,
  type Target,
  titleWords,
  typedSuggestionPath,
} from "./catalogue-shop.ts";
import { rssMegabytes } from "./heap.ts";
import { writeMarkdown } from "./markdown.ts";
import { type QueryTiming, timeQueries } from "./query-timings.ts";

const { values: args } = parseArgs({
  options: {
    small: { type: "string", default: "100000:20000" },
    large: { type: "string", default: "1000000:100000" },
    seconds: { type: "string", default: "10" },
    repeat: { type: "string", default: "30" },
    keep: { type: "boolean", default: false },
    out: { type: "string", default: "bench/sizes.md" },
  },
});
const root = path.resolve(import.meta.dirname, "..");
const CONNECTIONS = 32;
const SECONDS = Number(args.seconds);
const REPEAT = Number(args.repeat);
const reportFile = path.resolve(root, args.out);

/** The goals: cached req/s at the large size at least this share of the small size's… */
const CACHED_KEPT = 0.85;
/** …misses and suggestions no more than this many times slower… */
const MISS_WITHIN = 2;
/** …and no page from the cache slower than this at the 99th percentile. */
const CACHED_P99_MS = 50;
/** Suggestions for words as they are typed: most are not in the page cache, even its own. */
const VARIED = "suggestions as typed (varied)";
/** Requests of each deep page one at a time. */
const ONE_AT_A_TIME = 20;

function parseSize(text: string): CatalogueSize {
  const [regular, adult] = text.split(":").map(Number);
  if (!Number.isInteger(regular) || !Number.isInteger(adult) || regular! < 1 || adult! < 0) {
    console.error(
      `Not a size: ${text}. Usage: npm run bench:sizes -- [--small <regular>:<adult>] [--large <regular>:<adult>] [--seconds 10] [--repeat 30] [--keep] [--out <file>]`,
    );
    process.exit(2);
  }
  return { regular: regular!, adult: adult! };
}

function label(size: CatalogueSize) {
  const n = size.regular;
  if (n >= 1e6 && n % 1e5 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 100 === 0) return `${n / 1e3}k`;
  return n.toLocaleString("en-US");
}

const sizes = [parseSize(args.small), parseSize(args.large)];
const labels = sizes.map(label);
if (labels[0] === labels[1])
  [labels[0], labels[1]] = [`${labels[0]} (small)`, `${labels[1]} (large)`];
if (!(SECONDS > 0) || !(REPEAT > 0)) {
  console.error("--seconds and --repeat take a positive number.");
  process.exit(2);
}

type SizeResult = {
  label: string;
  counts: Catalogue["counts"];
  seed: Catalogue["seed"];
  /** Bytes. */
  storage: Record<string, number>;
  pages: PageRow[];
  oneByOne: { name: string; median: number; worst: number }[];
  /** MB: now and the peak, of the server with the page cache and the one without. */
  memory: { cached: number; cachedPeak: number; miss: number; missPeak: number };
  admin: QueryTiming[];
  csv: { rows: number; seconds: number; bytes: number };
  loadAtStart: number[];
  minutes: number;
};

/** The database and the titles' tables: what a bigger catalogue costs on disk. */
async function storageOf(catalogue: Catalogue) {
  const { rows } = await catalogue.db.query<Record<string, string>>(`
    select pg_database_size(current_database())::text as "database",
           pg_table_size('regular_titles')::text as "regular_titles table",
           pg_indexes_size('regular_titles')::text as "regular_titles indexes",
           pg_table_size('regular_title_search')::text as "regular_title_search table",
           pg_indexes_size('regular_title_search')::text as "regular_title_search indexes",
           pg_table_size('regular_title_genres')::text as "regular_title_genres table",
           pg_indexes_size('regular_title_genres')::text as "regular_title_genres indexes",
           pg_table_size('adult_titles')::text as "adult_titles table",
           pg_indexes_size('adult_titles')::text as "adult_titles indexes",
           pg_total_relation_size('stock_moves')::text as "stock_moves with its indexes"`);
  return Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)]));
}

/** The deep pages: every page past the first of a list or of search results. */
const isDeep = (target: Target) =>
  !target.next && /last page|middle page|page \d/.test(target.name);

async function measureSize(size: CatalogueSize, name: string): Promise<SizeResult> {
  const began = performance.now();
  const loadAtStart = os.loadavg();
  console.log(
    `\n== ${name}: ${size.regular.toLocaleString("en-US")} regular and ${size.adult.toLocaleString("en-US")} adult titles ==`,
  );
  const catalogue = await openCatalogue(size, { reseed: !args.keep });
  try {
    const storage = await storageOf(catalogue);
    const shops = await startShops(catalogue);
    let pages: PageRow[];
    const oneByOne: SizeResult["oneByOne"] = [];
    let memory: SizeResult["memory"];
    try {
      // Words of demo and synthetic titles alike, the same ones at every size.
      const { rows: sample } = await catalogue.db.query<{ title: string }>(
        "select title from regular_titles where reg_serial_no % 31 = 0 order by reg_serial_no limit 60",
      );
      const words = titleWords(sample.map((row) => row.title));
      const targets: Target[] = [
        ...(await catalogueTargets(catalogue, shops, { adultLastPage: true })),
        {
          name: VARIED,
          path: typedSuggestionPath(words),
          next: () => typedSuggestionPath(words),
        },
      ];
      console.log(
        `\n${"page".padEnd(34)} ${"server".padEnd(6)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"errors".padStart(7)}`,
      );
      pages = await measurePages(shops, targets, {
        connections: [CONNECTIONS],
        seconds: SECONDS,
        onRow: (row) =>
          console.log(
            `${row.name.padEnd(34)} ${row.server.padEnd(6)} ${row.rps.toFixed(0).padStart(8)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(8)} ${String(row.errors).padStart(7)}`,
          ),
      });
      console.log(`\nDeep pages, ${ONE_AT_A_TIME} requests one at a time, no page cache (ms):`);
      for (const target of targets.filter(isDeep)) {
        const times = await oneAtATime(shops.uncached, target, ONE_AT_A_TIME);
        const row = { name: target.name, median: times[times.length >> 1]!, worst: times.at(-1)! };
        oneByOne.push(row);
        console.log(
          `${target.name}: median ${row.median.toFixed(1)}, worst ${row.worst.toFixed(1)}`,
        );
      }
      memory = {
        cached: rssMegabytes(shops.cached.child.pid),
        cachedPeak: rssMegabytes(shops.cached.child.pid, "VmHWM"),
        miss: rssMegabytes(shops.uncached.child.pid),
        missPeak: rssMegabytes(shops.uncached.child.pid, "VmHWM"),
      };
    } finally {
      await shops.stop();
    }

    // The back office and the export straight on the database, with the shop stopped.
    const { db, pool } = createDatabase(catalogue.database.url, 2);
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-sizes-"));
    try {
      console.log("\nBack-office catalogue tables:\n\n| query | matches | p50 ms | p95 ms |");
      const admin = await timeQueries(
        adminCatalogueQueries(db, catalogue.counts),
        REPEAT,
        ({ label, total, p50, p95 }) =>
          console.log(`| ${label} | ${total} | ${p50.toFixed(1)} | ${p95.toFixed(1)} |`),
      );
      const file = path.join(scratch, "regular.csv");
      const started = performance.now();
      await exportCatalogueTo(db, "regular", file);
      const csv = {
        rows: catalogue.counts.regular,
        seconds: (performance.now() - started) / 1000,
        bytes: fs.statSync(file).size,
      };
      console.log(
        `\nCSV export of ${csv.rows.toLocaleString("en-US")} regular titles: ${csv.seconds.toFixed(2)} s, ${Math.round(csv.rows / csv.seconds).toLocaleString("en-US")} rows/s, ${(csv.bytes / 1e6).toFixed(1)} MB`,
      );
      return {
        label: name,
        counts: catalogue.counts,
        seed: catalogue.seed,
        storage,
        pages,
        oneByOne,
        memory,
        admin,
        csv,
        loadAtStart,
        minutes: (performance.now() - began) / 60_000,
      };
    } finally {
      await pool.end();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  } finally {
    await catalogue.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The report

const whole = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => n.toFixed(1);
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
/** Large ÷ small; latencies count at least 1 ms (autocannon's resolution), so 0 does not divide. */
const ratio = (small: number | undefined, large: number | undefined, floor = 0) =>
  small === undefined || large === undefined || !Number.isFinite(small) || !Number.isFinite(large)
    ? undefined
    : Math.max(large, floor) / Math.max(small, floor || Number.MIN_VALUE);
const times = (r: number | undefined) => (r === undefined ? "—" : `${r.toFixed(2)}×`);
const cell = (value: number | undefined, format: (n: number) => string) =>
  value === undefined || !Number.isFinite(value) ? "—" : format(value);

function render(results: SizeResult[]): string {
  return [
    ...heading(results),
    "## Goals",
    "",
    ...goals(results),
    "",
    ...catalogueSection(results),
    ...pageSections(results),
    ...deepSection(results),
    ...adminSection(results),
  ].join("\n");
}

/** The two sizes' results, each `of` them found by `name` (undefined where a size lacks it). */
function pair<T>(
  results: SizeResult[],
  of: (result: SizeResult) => T[],
  name: (item: T) => string,
) {
  const [small, large] = results;
  const names = [...new Set([...(small ? of(small) : []), ...(large ? of(large) : [])].map(name))];
  const find = (result: SizeResult | undefined, wanted: string) =>
    result ? of(result).find((item) => name(item) === wanted) : undefined;
  return names.map((wanted) => ({ name: wanted, x: find(small, wanted), y: find(large, wanted) }));
}

/** The report's title, what was measured, and how. */
function heading(results: SizeResult[]): string[] {
  const [a, b] = labels as [string, string];
  const cpus = os.cpus();
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root }).toString().trim();
  } catch {
    // Not a clone: the report says so.
  }
  return [
    "# npm run bench:sizes",
    "",
    `\`npm run bench:sizes${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}\``,
    "",
    `The catalogue at two sizes, measured one after the other on one machine: ${results.map((r) => `${r.label} = ${r.counts.regular.toLocaleString("en-US")} regular and ${r.counts.adult.toLocaleString("en-US")} adult titles (demo catalogue included)`).join("; ")}${results.length < 2 ? `; ${b} not measured yet` : ""}.`,
    "",
    `${new Date().toISOString().replace("T", " ").slice(0, 16)} UTC; ${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB; Node ${process.version}; PostgreSQL 18 (embedded, its defaults); commit ${commit}. Pages: autocannon at ${CONNECTIONS} connections for ${SECONDS} s each, no Accept-Encoding; "cached": the shop as it runs, the page asked for once first; "miss": a second process with PAGE_CACHE_ENTRIES=0 (every request rendered). Back-office queries: ${REPEAT} runs each, straight on the database with the shop stopped. ÷ is the ${b} figure divided by the ${a} one: for req/s and rows/s below 1 is slower, for times and sizes above 1 is slower or bigger.`,
    "",
  ];
}

/** The catalogue's size, seed, storage, export and memory at both sizes. */
function catalogueSection(results: SizeResult[]): string[] {
  const [small, large] = results;
  const [a, b] = labels as [string, string];
  const row = (
    name: string,
    of: (result: SizeResult) => number | undefined,
    format: (n: number) => string,
    floor = 0,
  ) => {
    const x = small && of(small);
    const y = large && of(large);
    return `| ${name} | ${cell(x, format)} | ${cell(y, format)} | ${times(ratio(x, y, floor))} |`;
  };
  const seedCell = (result: SizeResult) =>
    result.seed
      ? `${result.seed.seconds.toFixed(0)}${result.seed.now ? "" : ` (kept, seeded ${result.seed.at.slice(0, 10)})`}`
      : "not recorded (kept database)";
  const textRow = (name: string, of: (result: SizeResult) => string) =>
    `| ${name} | ${small ? of(small) : "—"} | ${large ? of(large) : "—"} | |`;
  const storageNames = Object.keys(small?.storage ?? large?.storage ?? {});
  return [
    "## The catalogue",
    "",
    `| | ${a} | ${b} | ÷ |`,
    "|---|---:|---:|---:|",
    row("regular titles", (r) => r.counts.regular, whole),
    row("adult titles", (r) => r.counts.adult, whole),
    `| seed from an empty database, s | ${small ? seedCell(small) : "—"} | ${large ? seedCell(large) : "—"} | ${times(ratio(small?.seed?.seconds, large?.seed?.seconds))} |`,
    ...storageNames.map((name) => row(`${name}, MB`, (r) => r.storage[name], mb)),
    row(
      "CSV export of the regular catalogue, s",
      (r) => r.csv.seconds,
      (n) => n.toFixed(2),
    ),
    row("CSV export, rows/s", (r) => r.csv.rows / r.csv.seconds, whole),
    row("CSV export, MB", (r) => r.csv.bytes, mb),
    row("server RSS after the run, cached, MB", (r) => r.memory.cached, whole),
    row("server RSS at its peak, cached, MB", (r) => r.memory.cachedPeak, whole),
    row("server RSS after the run, miss, MB", (r) => r.memory.miss, whole),
    row("server RSS at its peak, miss, MB", (r) => r.memory.missPeak, whole),
    textRow("load average at the start", (r) => r.loadAtStart.map((n) => n.toFixed(1)).join(", ")),
    row(
      "this size's whole run, min",
      (r) => r.minutes,
      (n) => n.toFixed(1),
    ),
    "",
  ];
}

/** Every page at 32 connections, from the page cache and missed, the static file heading both. */
function pageSections(results: SizeResult[]): string[] {
  const [a, b] = labels as [string, string];
  const line = (name: string, x: PageRow | undefined, y: PageRow | undefined) =>
    `| ${name} | ${cell(x?.rps, whole)} | ${cell(y?.rps, whole)} | ${times(ratio(x?.rps, y?.rps))} | ${cell(x?.p99, ms)} | ${cell(y?.p99, ms)} | ${times(ratio(x?.p99, y?.p99, 1))} |`;
  const rowsOf = (server: PageRow["server"]) =>
    pair(
      results,
      (result) => result.pages.filter((p) => p.server === server),
      (p) => p.name,
    ).map(({ name, x, y }) => line(name, x, y));
  // The ceiling is measured once per size, from the cached server; it heads both tables.
  const [ceiling] = rowsOf("static");
  const table = (title: string, server: "cached" | "miss") => [
    `## Pages at ${CONNECTIONS} connections, ${title}`,
    "",
    `| page | req/s ${a} | req/s ${b} | ÷ | p99 ms ${a} | p99 ms ${b} | ÷ |`,
    "|---|---:|---:|---:|---:|---:|---:|",
    ...(ceiling ? [ceiling] : []),
    ...rowsOf(server),
    "",
  ];
  const errors = results.flatMap((result) =>
    result.pages
      .filter((p) => p.errors > 0)
      .map((p) => `${p.name} (${p.server}, ${result.label}): ${p.errors}`),
  );
  return [
    ...table("from the page cache", "cached"),
    ...table("missed (no page cache)", "miss"),
    `Requests that failed or answered other than 2xx (a page past a small catalogue's last one is answered with a redirect, counted here): ${errors.length ? errors.join("; ") : "none"}.`,
    "",
  ];
}

/** The deep pages asked for one at a time. */
function deepSection(results: SizeResult[]): string[] {
  const [a, b] = labels as [string, string];
  return [
    `## Deep pages, ${ONE_AT_A_TIME} requests one at a time, no page cache (ms)`,
    "",
    `| page | median ${a} | median ${b} | ÷ | worst ${a} | worst ${b} |`,
    "|---|---:|---:|---:|---:|---:|",
    ...pair(
      results,
      (result) => result.oneByOne,
      (d) => d.name,
    ).map(
      ({ name, x, y }) =>
        `| ${name} | ${cell(x?.median, ms)} | ${cell(y?.median, ms)} | ${times(ratio(x?.median, y?.median))} | ${cell(x?.worst, ms)} | ${cell(y?.worst, ms)} |`,
    ),
    "",
  ];
}

/** The back office's catalogue queries. */
function adminSection(results: SizeResult[]): string[] {
  const [a, b] = labels as [string, string];
  return [
    "## Back-office catalogue tables (p50 / p95 ms)",
    "",
    `| query | matches ${a} | matches ${b} | p50 ${a} | p50 ${b} | ÷ | p95 ${a} | p95 ${b} | ÷ |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...pair(
      results,
      (result) => result.admin,
      (q) => q.label,
    ).map(
      ({ name, x, y }) =>
        `| ${name} | ${cell(x?.total, whole)} | ${cell(y?.total, whole)} | ${cell(x?.p50, ms)} | ${cell(y?.p50, ms)} | ${times(ratio(x?.p50, y?.p50))} | ${cell(x?.p95, ms)} | ${cell(y?.p95, ms)} | ${times(ratio(x?.p95, y?.p95))} |`,
    ),
    "",
  ];
}

/** One line per goal: met, or not met and where. */
function goals(results: SizeResult[]): string[] {
  const [small, large] = results;
  const [a, b] = labels as [string, string];
  const verdict = (misses: string[]) =>
    misses.length === 0 ? "**met**" : `**not met**: ${misses.join("; ")}`;
  const pairs = (server: PageRow["server"]) =>
    (large?.pages ?? [])
      .filter((y) => y.server === server)
      .map((y) => ({
        y,
        x: small?.pages.find((p) => p.name === y.name && p.server === server),
      }))
      .filter((pair): pair is { x: PageRow; y: PageRow } => pair.x !== undefined);
  const lines: string[] = [];

  // Every page from the cache, at every size measured.
  const fromCache = (p: PageRow) => p.server === "cached" && p.name !== VARIED;
  const slow = results.flatMap((result) =>
    result.pages
      .filter((p) => fromCache(p) && p.p99 > CACHED_P99_MS)
      .map((p) => `${p.name} at ${result.label}: ${ms(p.p99)} ms`),
  );
  const slowest = results
    .flatMap((result) => result.pages.filter(fromCache).map((p) => ({ p, at: result.label })))
    .sort((x, y) => y.p.p99 - x.p.p99)[0];
  const p99Line = `- No page slower than ${CACHED_P99_MS} ms p99 at ${CONNECTIONS} connections from the cache (${results.map((r) => r.label).join(" and ")}; the varied suggestions are not from the cache): ${verdict(slow)}${slow.length === 0 && slowest ? ` (slowest: ${slowest.p.name} at ${slowest.at}, ${ms(slowest.p.p99)} ms)` : ""}.`;

  if (!small || !large) {
    lines.push(
      `- Cached pages unchanged, misses and suggestions within ${MISS_WITHIN}×: not checked yet (${b} not measured).`,
    );
    lines.push(p99Line);
    return lines;
  }

  const ceiling = ratio(
    small.pages.find((p) => p.server === "static")?.rps,
    large.pages.find((p) => p.server === "static")?.rps,
  );
  const changed = pairs("cached")
    .filter(({ y }) => fromCache(y))
    .map(({ x, y }) => ({ name: y.name, r: ratio(x.rps, y.rps)! }))
    .filter(({ r }) => r < CACHED_KEPT)
    .map(({ name, r }) => `${name} ${times(r)} req/s`);
  lines.push(
    `- Cached pages unchanged (every page's req/s from the cache at ${b} at least ${CACHED_KEPT * 100} % of ${a}'s, the varied suggestions left to the next line; the static file went ${times(ceiling)}): ${verdict(changed)}.`,
  );

  const grown = [
    ...pairs("miss").map(({ x, y }) => ({ name: `${y.name} (miss)`, x, y })),
    ...pairs("cached")
      .filter(({ y }) => y.name.startsWith("suggestions"))
      .map(({ x, y }) => ({ name: `${y.name} (cached)`, x, y })),
  ].flatMap(({ name, x, y }) => {
    const rps = ratio(x.rps, y.rps)!;
    const p99 = ratio(x.p99, y.p99, 1)!;
    return rps < 1 / MISS_WITHIN || p99 > MISS_WITHIN
      ? [`${name} ${times(rps)} req/s, ${times(p99)} p99`]
      : [];
  });
  const deepGrown = large.oneByOne.flatMap((y) => {
    const x = small.oneByOne.find((d) => d.name === y.name);
    const r = ratio(x?.median, y.median);
    return r !== undefined && r > MISS_WITHIN ? [`${y.name} one at a time ${times(r)}`] : [];
  });
  lines.push(
    `- Misses and suggestions within ${MISS_WITHIN}× of ${a} (every page's miss, and the suggestions from the cache too: req/s at least half and p99 at most twice ${a}'s; the deep pages one at a time: median at most twice): ${verdict([...grown, ...deepGrown])}.`,
  );
  lines.push(p99Line);
  return lines;
}

async function writeReport(results: SizeResult[]) {
  const text = render(results);
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  await writeMarkdown(reportFile, text);
  return text;
}

if ((await buildIfStale()) !== 0) process.exit(1);
const results: SizeResult[] = [];
for (const [i, size] of sizes.entries()) {
  results.push(await measureSize(size, labels[i]!));
  await writeReport(results);
}
console.log(`\n${await writeReport(results)}`);
const shown = path.relative(root, reportFile);
console.log(`Wrote ${shown.startsWith("..") ? reportFile : shown}`);
