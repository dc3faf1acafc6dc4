// `npm run bench`: the shop's pages under load, against a catalogue of 100,000 regular and 20,000
// adult titles (1,000,000 regular with --large), on the production build.
//
//   npm run bench [-- --large] [--seconds 10] [--quick] [--reseed] [--only <text>]
//
// It keeps its own database (embedded PostgreSQL in the system's temp folder, one per size,
// reused by later runs; --reseed starts it again), starts two server processes on it, one with
// the page cache and one without (PAGE_CACHE_ENTRIES=0: what a cache miss costs), and measures
// each page with autocannon at 1, 32 and 256 connections (--quick: 32 only, 3 s), next to a
// static file of the same size from the same server (the ceiling). Prints a table and writes
// bench/results.md (bench/results-large.md with --large). --only measures just the pages whose
// name contains the text (repeatable), prints them and writes no file: for before/after runs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import pg from "pg";
import { buildIfStale } from "#server/build-stamp.ts";
import { startEmbeddedPostgres } from "#server/embedded-postgres.ts";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";

const { values: args } = parseArgs({
  options: {
    large: { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
    reseed: { type: "boolean", default: false },
    seconds: { type: "string" },
    only: { type: "string", multiple: true },
  },
});
const REGULAR = args.large ? 1_000_000 : 100_000;
const ADULT = 20_000;
/** The 1,000,000-title run keeps its own file next to the 100,000-title one. */
const resultsFile = args.large ? "bench/results-large.md" : "bench/results.md";
const SECONDS = Number(args.seconds ?? (args.quick ? 3 : 10));
const CONNECTIONS = args.quick ? [32] : [1, 32, 256];
const root = path.resolve(import.meta.dirname, "..");
const CEILING_FILE = "bench-ceiling.html";

if ((await buildIfStale()) !== 0) process.exit(1);

// One database per catalogue size, kept between runs: seeding a million titles takes a while.
const dataDir = path.join(os.tmpdir(), `shop-bench-${REGULAR}`);
if (args.reseed) fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
fs.chmodSync(dataDir, 0o755);
const database = await startEmbeddedPostgres(path.join(dataDir, "db"));
const db = new pg.Client(database.url);
await db.connect();

const seeded = await db
  .query<{ n: string }>("select count(*)::text as n from regular_titles")
  .then((result) => Number(result.rows[0]!.n))
  .catch(() => 0);
if (seeded < REGULAR) {
  console.log(`Seeding ${REGULAR.toLocaleString("en-US")} regular and ${ADULT} adult titles…`);
  const started = Date.now();
  const seed = spawnSync(
    process.execPath,
    [
      "scripts/seed.ts",
      "--regular",
      String(REGULAR - Math.max(0, seeded)),
      "--adult",
      String(ADULT),
    ],
    { cwd: root, stdio: "inherit", env: { ...process.env, DATABASE_URL: database.url } },
  );
  if (seed.status !== 0) throw new Error("seeding failed");
  await db.query("vacuum analyze");
  console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
const { rows: counts } = await db.query<{ regular: string; adult: string }>(
  "select (select count(*) from regular_titles)::text as regular, (select count(*) from adult_titles)::text as adult",
);
const regularCount = Number(counts[0]!.regular);

const startShop = (env: Record<string, string>) =>
  startServer(
    { PORT: "0", DATABASE_URL: database.url, DATA_DIR: dataDir, SEED_DEMO: "false", ...env },
    { keepOutput: false },
  );

const cached = await startShop({});
const uncached = await startShop({ PAGE_CACHE_ENTRIES: "0" });
const stopAll = async () => {
  await Promise.all([cached.stop(), uncached.stop()]);
  fs.rmSync(path.join(root, "build/client", CEILING_FILE), { force: true });
  await db.end();
  await database.stop();
};

// The adult list is behind the age gate: the cookie it sets is sent with those requests.
const gate = await fetch(`${cached.url}/age-check`, {
  method: "POST",
  redirect: "manual",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: cached.url },
  body: "returnTo=%2Fadult-movies",
});
const ageCookie = gate.headers
  .getSetCookie()
  .map((cookie) => cookie.split(";")[0])
  .join("; ");

const PAGE = 24;
const lastPage = Math.ceil(regularCount / PAGE);
const dvd = await db.query<{ n: string }>(
  "select total::text as n from catalogue_counts where catalogue = 'regular' and disc = 'DVD'",
);
const dvdLast = Math.ceil(Number(dvd.rows[0]?.n ?? 0) / PAGE);
const drama = await db.query<{ n: string }>(
  "select total::text as n from genre_counts where genre = 'Drama' and disc = ''",
);
const dramaLast = Math.max(1, Math.ceil(Number(drama.rows[0]?.n ?? 0) / PAGE));
const { rows: middleTitle } = await db.query<{ id: number }>(
  "select reg_serial_no as id from regular_titles order by reg_serial_no offset $1 limit 1",
  [Math.floor(regularCount / 2)],
);

const allTargets: { name: string; path: string; headers?: Record<string, string> }[] = [
  { name: "home", path: "/" },
  { name: "/movies first page", path: "/movies" },
  { name: "/movies middle page", path: `/movies?page=${Math.ceil(lastPage / 2)}` },
  { name: "/movies last page", path: `/movies?page=${lastPage}` },
  { name: "/movies DVD A→Z last page", path: `/movies?disc=DVD&sort=az&page=${dvdLast}` },
  {
    name: "/movies Drama price ↑ last page",
    path: `/movies?genre=Drama&sort=price-asc&page=${dramaLast}`,
  },
  { name: "/movies Drama price ↑ page 100", path: "/movies?genre=Drama&sort=price-asc&page=100" },
  { name: "/movies newest, page 1000", path: "/movies?sort=newest&page=1000" },
  { name: "title page", path: `/movies/${middleTitle[0]!.id}` },
  { name: "suggestions 'the'", path: "/api/search/suggestions?query=the" },
  { name: "suggestions 'spielberg'", path: "/api/search/suggestions?query=spielberg" },
  { name: "suggestions typo 'godfathr'", path: "/api/search/suggestions?query=godfathr" },
  { name: "suggestions no match", path: "/api/search/suggestions?query=qqqzzz" },
  { name: "/search 'the' page 50", path: "/search?query=the&page=50" },
  { name: "adult list (past the gate)", path: "/adult-movies", headers: { Cookie: ageCookie } },
];

const only = args.only ?? [];
const targets = only.length
  ? allTargets.filter((target) => only.some((text) => target.name.includes(text)))
  : allTargets;

// The ceiling: a static file as big as the catalogue page, from the same server.
const moviesHtml = Buffer.from(await (await fetch(`${cached.url}/movies`)).arrayBuffer());
fs.writeFileSync(path.join(root, "build/client", CEILING_FILE), moviesHtml);

type Row = {
  name: string;
  server: "cached" | "miss" | "static";
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
};

async function measure(
  server: RunningServer,
  pathname: string,
  connections: number,
  headers: Record<string, string> = {},
) {
  const result = await autocannon({
    url: `${server.url}${pathname}`,
    connections,
    duration: SECONDS,
    headers,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const rows: Row[] = [];
const print = (row: Row) =>
  console.log(
    `${row.name.padEnd(34)} ${row.server.padEnd(6)} ${String(row.connections).padStart(5)} ${row.rps
      .toFixed(0)
      .padStart(8)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(8)} ${String(
      row.errors,
    ).padStart(7)}`,
  );
console.log(
  `\n${regularCount.toLocaleString("en-US")} regular titles, ${SECONDS} s per measurement, ${os.cpus().length} cores\n`,
);
console.log(
  `${"page".padEnd(34)} ${"server".padEnd(6)} ${"conns".padStart(5)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"errors".padStart(7)}`,
);
try {
  for (const connections of CONNECTIONS) {
    const ceiling = await measure(cached, `/${CEILING_FILE}`, connections);
    const row: Row = { name: "static file (ceiling)", server: "static", connections, ...ceiling };
    rows.push(row);
    print(row);
  }
  for (const target of targets) {
    // Warm the cache, then measure; then the same address on the server without a cache.
    await fetch(`${cached.url}${target.path}`, { headers: target.headers });
    for (const connections of CONNECTIONS) {
      const hit = await measure(cached, target.path, connections, target.headers);
      rows.push({ name: target.name, server: "cached", connections, ...hit });
      print(rows.at(-1)!);
    }
    for (const connections of CONNECTIONS) {
      const miss = await measure(uncached, target.path, connections, target.headers);
      rows.push({ name: target.name, server: "miss", connections, ...miss });
      print(rows.at(-1)!);
    }
  }

  // --only: the figures above are the answer; the report stays as the last full run left it.
  if (only.length === 0) {
    // Cold, sequential: the deepest pages straight from the database (no page cache).
    console.log("\nDeep pages, one request at a time, no page cache (ms):");
    const sequential: string[] = [];
    for (const target of targets.filter((t) => t.name.includes("last page"))) {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        await (await fetch(`${uncached.url}${target.path}`)).arrayBuffer();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const line = `${target.name}: first ${times[0]!.toFixed(1)}, median ${times[10]!.toFixed(1)}, worst ${times.at(-1)!.toFixed(1)}`;
      console.log(line);
      sequential.push(line);
    }

    const sizes: string[] = [];
    for (const target of allTargets.filter((t) =>
      ["home", "/movies first page", "title page"].includes(t.name),
    )) {
      const body = Buffer.from(await (await fetch(`${cached.url}${target.path}`)).arrayBuffer());
      sizes.push(
        `| ${target.name} | ${body.length.toLocaleString("en-US")} | ${gzipSync(body).length.toLocaleString("en-US")} |`,
      );
    }

    const table = rows.map(
      (row) =>
        `| ${row.name} | ${row.server} | ${row.connections} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.errors} |`,
    );
    fs.writeFileSync(
      path.join(root, resultsFile),
      [
        `# npm run bench${args.large ? " -- --large" : ""}`,
        "",
        `${new Date().toISOString().slice(0, 10)}; ${os.cpus().length} cores; ${regularCount.toLocaleString("en-US")} regular and ${counts[0]!.adult} adult titles; ${SECONDS} s per measurement; autocannon, no Accept-Encoding. "cached": the shop as it runs; "miss": a second process with PAGE_CACHE_ENTRIES=0 (every request rendered); "static": a file of the catalogue page's size from the same server.`,
        "",
        "| page | server | connections | req/s | p50 ms | p99 ms | errors |",
        "|---|---|---:|---:|---:|---:|---:|",
        ...table,
        "",
        "Deep pages, one request at a time, no page cache (20 requests each, ms):",
        "",
        ...sequential.map((line) => `- ${line}`),
        "",
        "| page | HTML bytes | gzip bytes |",
        "|---|---:|---:|",
        ...sizes,
        "",
      ].join("\n"),
    );
    console.log(`\nWrote ${resultsFile}`);
  }
} finally {
  await stopAll();
}
