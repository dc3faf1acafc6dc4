// `npm run bench:lighthouse`: Lighthouse (mobile, simulated throttling, its default settings) on
// the home page, /movies, a title page and /cart of the production build, with the Chromium the
// browser tests use (CHROMIUM_PATH, default /usr/bin/chromium). Each page is measured --runs times
// (default 5); prints every run's performance score with Lighthouse's benchmarkIndex (how fast
// this machine's CPU was to Lighthouse at that moment: the simulation slows every task it saw
// down 4 times whatever the machine, so the same page scores lower while the CPU is slow; below
// 1,000 Lighthouse warns that it is slower than expected), and per page the median of the four
// scores, FCP, LCP, TBT, CLS and the JavaScript bytes it loads, and its
// first-load JavaScript as decision 006 budgets it: gzip in all and the shop's own code's share
// (scripts/first-load.ts). Writes bench/lighthouse.md.
//
//   npm run bench:lighthouse [-- --runs 5] [--reports <folder>]
//
// It starts its own shop with the demo catalogue (embedded PostgreSQL in a temporary folder).
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { buildIfStale } from "#server/build-stamp.ts";
import { chromiumFlags, launchChromium } from "./chromium.ts";
import { startDemoShop } from "#tests/support/server-process.ts";
import { describeFirstLoad, firstLoad, type FirstLoad } from "#scripts/first-load.ts";

const { values: args } = parseArgs({
  options: {
    /** Also keep each page's whole Lighthouse report (JSON) in this folder. */
    reports: { type: "string" },
    runs: { type: "string", default: "5" },
  },
});

const root = path.resolve(import.meta.dirname, "..");
if ((await buildIfStale()) !== 0) process.exit(1);

const server = await startDemoShop("lighthouse");
const base = server.url;

const pages = [
  { name: "home", path: "/" },
  { name: "/movies", path: "/movies" },
  { name: "title page", path: "/movies/1" },
  { name: "/cart", path: "/cart" },
];

const CHROME_FLAGS = chromiumFlags();
const chrome = await launchChromium(CHROME_FLAGS);

const runs = Math.max(1, Number(args.runs) || 5);
/** Chromium's major version, read from the first report's host user agent. */
let chromiumVersion = "";

type Row = {
  name: string;
  scores: number[];
  benchmarkIndexes: number[];
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  scriptBytes: number;
  firstLoad: FirstLoad;
};
const rows: Row[] = [];
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
try {
  for (const page of pages) {
    // Once to warm the server (and its page cache), then measured.
    await fetch(`${base}${page.path}`);
    const load = await firstLoad(`${base}${page.path}`);
    console.log(`${page.name}: first-load JavaScript ${describeFirstLoad(load)}`);
    const measured: Omit<Row, "name" | "scores" | "benchmarkIndexes" | "firstLoad">[] = [];
    const benchmarkIndexes: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const result = await lighthouse(`${base}${page.path}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
      });
      if (!result) throw new Error(`no Lighthouse result for ${page.path}`);
      const { categories, audits, environment } = result.lhr;
      if (args.reports) {
        fs.mkdirSync(args.reports, { recursive: true });
        const file = `${page.name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "page"}-${run}.json`;
        fs.writeFileSync(path.join(args.reports, file), result.report as string);
      }
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      const numeric = (id: string) => audits[id]?.numericValue ?? NaN;
      const summary = (
        audits["resource-summary"]?.details as
          { items?: { resourceType: string; transferSize: number }[] } | undefined
      )?.items;
      benchmarkIndexes.push(environment.benchmarkIndex);
      chromiumVersion ||= environment.hostUserAgent.match(/Chrome\/(\d+)/)?.[1] ?? "";
      measured.push({
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        fcp: numeric("first-contentful-paint"),
        lcp: numeric("largest-contentful-paint"),
        tbt: numeric("total-blocking-time"),
        cls: numeric("cumulative-layout-shift"),
        scriptBytes: summary?.find((item) => item.resourceType === "script")?.transferSize ?? NaN,
      });
      console.log(
        `${page.name} run ${run}/${runs}: performance ${score("performance")}, LCP ${(numeric("largest-contentful-paint") / 1000).toFixed(2)} s, TBT ${numeric("total-blocking-time").toFixed(0)} ms, benchmarkIndex ${environment.benchmarkIndex.toFixed(0)}`,
      );
    }
    const of = (key: keyof (typeof measured)[number]) => median(measured.map((m) => m[key]));
    rows.push({
      name: page.name,
      scores: measured.map((m) => m.performance),
      benchmarkIndexes,
      performance: of("performance"),
      accessibility: of("accessibility"),
      bestPractices: of("bestPractices"),
      seo: of("seo"),
      fcp: of("fcp"),
      lcp: of("lcp"),
      tbt: of("tbt"),
      cls: of("cls"),
      scriptBytes: of("scriptBytes"),
      firstLoad: load,
    });
  }
} finally {
  chrome.kill();
  await server.stop();
}

const header =
  "| page | performance (median) | every run (its benchmarkIndex) | benchmarkIndex | accessibility | best practices | SEO | FCP s | LCP s | TBT ms | CLS | JS KB (transfer) | first-load JS KB gzip: all, the shop's own |";
const lines = rows.map(
  (row) =>
    `| ${row.name} | ${row.performance} | ${row.scores.map((score, index) => `${score} (${row.benchmarkIndexes[index]!.toFixed(0)})`).join(", ")} | ${Math.min(...row.benchmarkIndexes).toFixed(0)}–${Math.max(...row.benchmarkIndexes).toFixed(0)} | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${(row.fcp / 1000).toFixed(2)} | ${(row.lcp / 1000).toFixed(2)} | ${row.tbt.toFixed(0)} | ${row.cls.toFixed(3)} | ${(row.scriptBytes / 1024).toFixed(1)} | ${(row.firstLoad.gzip / 1000).toFixed(1)}, ${(row.firstLoad.shop / 1000).toFixed(1)} |`,
);
const table = [
  header,
  "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  ...lines,
].join("\n");
console.log(table);
fs.writeFileSync(
  path.join(root, "bench/lighthouse.md"),
  `# npm run bench:lighthouse\n\n${new Date().toISOString().slice(0, 10)}; Lighthouse ${lighthouseVersion()}, mobile (simulated throttling), demo catalogue, production build; ${runs} runs per page, medians (timings and sizes too). Chromium ${chromiumVersion} with ${CHROME_FLAGS.join(" ")} (bench/chromium.ts says why --hide-scrollbars).\n\n${table}\n`,
);
console.log("\nWrote bench/lighthouse.md");

function lighthouseVersion() {
  return JSON.parse(
    fs.readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8"),
  ).version as string;
}
