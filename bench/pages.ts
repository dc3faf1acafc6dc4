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
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { buildIfStale } from "#server/build-stamp.ts";
import { writeMarkdown } from "./markdown.ts";
import {
  catalogueTargets,
  measurePages,
  oneAtATime,
  openCatalogue,
  type PageRow,
  startShops,
} from "./catalogue-shop.ts";

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

if ((await buildIfStale()) !== 0) process.exit(1);

// One database per catalogue size, kept between runs: seeding a million titles takes a while.
const catalogue = await openCatalogue({ regular: REGULAR, adult: ADULT }, { reseed: args.reseed });
const regularCount = catalogue.counts.regular;
const shops = await startShops(catalogue);
const { cached, uncached } = shops;
const stopAll = async () => {
  await shops.stop();
  await catalogue.close();
};

const allTargets = await catalogueTargets(catalogue, shops);

const only = args.only ?? [];
const targets = only.length
  ? allTargets.filter((target) => only.some((text) => target.name.includes(text)))
  : allTargets;

const print = (row: PageRow) =>
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
  const rows = await measurePages(shops, targets, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    onRow: print,
  });

  // --only: the figures above are the answer; the report stays as the last full run left it.
  if (only.length === 0) {
    // Cold, sequential: the deepest pages straight from the database (no page cache).
    console.log("\nDeep pages, one request at a time, no page cache (ms):");
    const sequential: string[] = [];
    for (const target of targets.filter((t) => t.name.includes("last page"))) {
      const times = await oneAtATime(uncached, target);
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
    await writeMarkdown(
      path.join(root, resultsFile),
      [
        `# npm run bench${args.large ? " -- --large" : ""}`,
        "",
        `${new Date().toISOString().slice(0, 10)}; ${os.cpus().length} cores; ${regularCount.toLocaleString("en-US")} regular and ${catalogue.counts.adult} adult titles; ${SECONDS} s per measurement; autocannon, no Accept-Encoding. "cached": the shop as it runs; "miss": a second process with PAGE_CACHE_ENTRIES=0 (every request rendered); "static": a file of the catalogue page's size from the same server.`,
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
