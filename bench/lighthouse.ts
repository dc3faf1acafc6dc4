// `npm run bench:lighthouse`: Lighthouse (mobile, simulated throttling) on the home page, /movies,
// a title page and /cart of the production build, with the Chromium the browser tests use
// (CHROMIUM_PATH, default /usr/bin/chromium). Each page is loaded --runs times (default 5), and
// each load is scored twice from the same trace (decision 013):
// - with its CPU slowdown calibrated to the run's benchmarkIndex (how fast this machine's CPU was
//   to Lighthouse at that moment), so that every run emulates the same phone however fast the
//   machine is just then. The budget (decision 006) is read on these scores.
// - with Lighthouse's default slowdown of 4 times, which emulates a slower phone while the
//   machine is slow (below a benchmarkIndex of 1,000 Lighthouse warns about it) and a faster one
//   while it is fast.
// Prints every run's scores with its benchmarkIndex, its slowdown and how much of its tasks' time
// the page's main thread ran on the CPU (bench/main-thread.ts), and per page the medians of the
// scores, FCP, LCP, TBT, CLS and the JavaScript bytes it loads, and its first-load JavaScript as
// decision 006 budgets it: gzip in all and the shop's own code's share (scripts/first-load.ts).
// Writes bench/lighthouse.md.
//
//   npm run bench:lighthouse [-- --runs 5] [--reports <folder>]
//
// It starts its own shop with the demo catalogue (embedded PostgreSQL in a temporary folder).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import lighthouse, { type Flags, type RunnerResult } from "lighthouse";
import { buildIfStale } from "#server/build-stamp.ts";
import { chromiumFlags, launchChromium } from "./chromium.ts";
import { mainThread, type TraceEvent } from "./main-thread.ts";
import { warm } from "./warm.ts";
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

/**
 * The CPU slowdown that makes a machine of this benchmarkIndex emulate Lighthouse's mid-tier phone:
 * the multipliers of Lighthouse's CPU throttling calculator (its docs, "Calibrating the CPU
 * slowdown"), 2 at 800, 3 at 1,300, 4 at about 1,533 and 6 at 2,000, straight lines between and
 * beyond.
 */
function calibratedSlowdown(benchmarkIndex: number): number {
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  return Math.max(1, 1 + (benchmarkIndex - 150) / 650);
}

/**
 * Loads the page once, and scores that load twice: at Lighthouse's default slowdown and at the
 * one calibrated to the run's benchmarkIndex. With simulated throttling the page loads at full
 * speed and the slowdown is only applied to the trace afterwards, so both scores describe the same
 * load. Lighthouse refuses to audit saved artifacts with settings other than those they were
 * gathered with, so the saved settings are changed to the calibrated slowdown first.
 */
async function loadAndScore(
  url: string,
): Promise<{ standard: RunnerResult; calibrated: RunnerResult; slowdown: number }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "lighthouse-run-"));
  try {
    const flags: Flags = { port: chrome.port, output: "json", logLevel: "error" };
    const standard = await lighthouse(url, { ...flags, gatherMode: folder, auditMode: folder });
    if (!standard) throw new Error(`no Lighthouse result for ${url}`);
    const slowdown = calibratedSlowdown(standard.lhr.environment.benchmarkIndex);
    const artifactsFile = path.join(folder, "artifacts.json");
    const artifacts = JSON.parse(fs.readFileSync(artifactsFile, "utf8"));
    const throttling = { ...artifacts.settings.throttling, cpuSlowdownMultiplier: slowdown };
    artifacts.settings.throttling = throttling;
    fs.writeFileSync(artifactsFile, JSON.stringify(artifacts));
    const calibrated = await lighthouse(
      undefined,
      { output: "json", logLevel: "error", auditMode: folder },
      { extends: "lighthouse:default", settings: { throttling } },
    );
    if (!calibrated) throw new Error(`no calibrated Lighthouse result for ${url}`);
    return { standard, calibrated, slowdown };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

type Row = {
  name: string;
  scores: number[];
  standardScores: number[];
  benchmarkIndexes: number[];
  slowdowns: number[];
  cpuShares: number[];
  performance: number;
  standardPerformance: number;
  standardTbt: number;
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
    await warm(`${base}${page.path}`);
    const load = await firstLoad(`${base}${page.path}`);
    console.log(`${page.name}: first-load JavaScript ${describeFirstLoad(load)}`);
    const measured: (Omit<
      Row,
      | "name"
      | "scores"
      | "standardScores"
      | "benchmarkIndexes"
      | "slowdowns"
      | "cpuShares"
      | "firstLoad"
    > & { slowdown: number; benchmarkIndex: number; cpuShare: number })[] = [];
    for (let run = 1; run <= runs; run++) {
      const { standard, calibrated, slowdown } = await loadAndScore(`${base}${page.path}`);
      const { audits, environment } = calibrated.lhr;
      if (args.reports) {
        fs.mkdirSync(args.reports, { recursive: true });
        const file = `${page.name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "page"}-${run}`;
        fs.writeFileSync(path.join(args.reports, `${file}.json`), calibrated.report as string);
        fs.writeFileSync(path.join(args.reports, `${file}-4x.json`), standard.report as string);
      }
      const score = (id: string, lhr = calibrated.lhr) =>
        Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const numeric = (id: string, lhr = calibrated.lhr) => lhr.audits[id]?.numericValue ?? NaN;
      const summary = (
        audits["resource-summary"]?.details as
          { items?: { resourceType: string; transferSize: number }[] } | undefined
      )?.items;
      chromiumVersion ||= environment.hostUserAgent.match(/Chrome\/(\d+)/)?.[1] ?? "";
      // How much of its tasks' time the page's main thread ran on the CPU: the rest it waited,
      // and the simulation counts the wait as the page's work (decision 013).
      const thread = mainThread(standard.artifacts.Trace.traceEvents as unknown as TraceEvent[], {
        windowMs: 3000,
        longTaskMs: 12.5,
      });
      const cpuShare = thread.cpu / thread.wall;
      measured.push({
        cpuShare,
        benchmarkIndex: environment.benchmarkIndex,
        slowdown,
        performance: score("performance"),
        standardPerformance: score("performance", standard.lhr),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        fcp: numeric("first-contentful-paint"),
        lcp: numeric("largest-contentful-paint"),
        tbt: numeric("total-blocking-time"),
        standardTbt: numeric("total-blocking-time", standard.lhr),
        cls: numeric("cumulative-layout-shift"),
        scriptBytes: summary?.find((item) => item.resourceType === "script")?.transferSize ?? NaN,
      });
      console.log(
        `${page.name} run ${run}/${runs}: benchmarkIndex ${environment.benchmarkIndex.toFixed(0)}, slowdown ${slowdown.toFixed(1)}×: performance ${score("performance")} (main thread on the CPU ${Math.round(100 * cpuShare)} % of its tasks' time), LCP ${(numeric("largest-contentful-paint") / 1000).toFixed(2)} s, TBT ${numeric("total-blocking-time").toFixed(0)} ms; at 4×: performance ${score("performance", standard.lhr)}, TBT ${numeric("total-blocking-time", standard.lhr).toFixed(0)} ms`,
      );
    }
    const of = (key: keyof (typeof measured)[number]) => median(measured.map((m) => m[key]));
    rows.push({
      name: page.name,
      scores: measured.map((m) => m.performance),
      standardScores: measured.map((m) => m.standardPerformance),
      benchmarkIndexes: measured.map((m) => m.benchmarkIndex),
      slowdowns: measured.map((m) => m.slowdown),
      cpuShares: measured.map((m) => m.cpuShare),
      performance: of("performance"),
      standardPerformance: of("standardPerformance"),
      accessibility: of("accessibility"),
      bestPractices: of("bestPractices"),
      seo: of("seo"),
      fcp: of("fcp"),
      lcp: of("lcp"),
      tbt: of("tbt"),
      standardTbt: of("standardTbt"),
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
  "| page | performance (median) | every run (benchmarkIndex, slowdown, main thread on the CPU) | at 4× (median) | every run at 4× | accessibility | best practices | SEO | FCP s | LCP s | TBT ms (at 4×) | CLS | JS KB (transfer) | first-load JS KB gzip: all, the shop's own |";
const lines = rows.map(
  (row) =>
    `| ${row.name} | ${row.performance} | ${row.scores.map((score, index) => `${score} (${row.benchmarkIndexes[index]!.toFixed(0)}, ${row.slowdowns[index]!.toFixed(1)}×, ${Math.round(100 * row.cpuShares[index]!)} %)`).join(", ")} | ${row.standardPerformance} | ${row.standardScores.join(", ")} | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${(row.fcp / 1000).toFixed(2)} | ${(row.lcp / 1000).toFixed(2)} | ${row.tbt.toFixed(0)} (${row.standardTbt.toFixed(0)}) | ${row.cls.toFixed(3)} | ${(row.scriptBytes / 1024).toFixed(1)} | ${(row.firstLoad.gzip / 1000).toFixed(1)}, ${(row.firstLoad.shop / 1000).toFixed(1)} |`,
);
const table = [
  header,
  "|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  ...lines,
].join("\n");
console.log(table);
fs.writeFileSync(
  path.join(root, "bench/lighthouse.md"),
  `# npm run bench:lighthouse

${new Date().toISOString().slice(0, 10)}; Lighthouse ${lighthouseVersion()}, mobile (simulated throttling), demo catalogue, production build; ${runs} runs per page, medians (timings and sizes too). Chromium ${chromiumVersion} with ${CHROME_FLAGS.join(" ")} (bench/chromium.ts says why --hide-scrollbars).

Each load is scored twice from the same trace (decision 013). "Performance" and the timings use a CPU slowdown calibrated to the run's benchmarkIndex, so that every run emulates the same phone: 2× at 800, 3× at 1,300, 4× at about 1,533, 6× at 2,000. "At 4×" is Lighthouse's default slowdown, whatever the machine's speed at that moment. "Main thread on the CPU" is the share of its tasks' time (first 3 s of the load) the page's main thread ran rather than waited for a core: the simulation counts the wait as the page's own work.

${table}
`,
);
console.log("\nWrote bench/lighthouse.md");

function lighthouseVersion() {
  return JSON.parse(
    fs.readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8"),
  ).version as string;
}
