// `npm run bench:all`: every benchmark of the shop, one after another, into one Markdown report
// with the machine, the date and every figure: bench/report.md, and bench/soak.png (latency and
// memory over the mixed-load soak).
//
//   npm run bench:all [-- --soak-minutes 10] [--quick] [--lighthouse] [--only <word>…]
//
// --only soak (or checkout, pages…; repeatable): runs only the benchmarks whose title holds the
// word, and replaces only their sections in the report, noting the rerun in its header. The
// catalogue at 100,000 and 1,000,000 titles (bench/sizes.ts, some twenty minutes with its seeds)
// runs only when asked for: --only sizes.
// --quick: shorter runs of each (a minute-long soak, fewer repeats), to try the command out.
// --lighthouse: also Lighthouse on the pages DESIGN.md §4 budgets (about fifteen more minutes).
// Each benchmark starts its own embedded PostgreSQL and production server; nothing else should
// run on the machine meanwhile. A benchmark that fails is reported as failed and the others go on;
// the command then exits 1.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { drawChart } from "./chart.ts";
import { writeMarkdown } from "./markdown.ts";
import type { SoakResult } from "./soak-result.ts";

const { values: args } = parseArgs({
  options: {
    "soak-minutes": { type: "string" },
    quick: { type: "boolean", default: false },
    lighthouse: { type: "boolean", default: false },
    only: { type: "string", multiple: true },
  },
});
const quick = args.quick;
const soakMinutes = Number(args["soak-minutes"] ?? (quick ? 1 : 10));
const root = path.resolve(import.meta.dirname, "..");
const reportFile = path.join(root, "bench/report.md");
const chartFile = path.join(root, "bench/soak.png");
const soakJson = path.join(os.tmpdir(), `shop-soak-${process.pid}.json`);
const snapshotsDir = path.join(os.tmpdir(), `shop-soak-heap-${process.pid}`);
const memoryChartFile = path.join(root, "bench/soak-memory.png");

/** `askedFor`: run only when --only names it, not in a whole run. */
type Step = { title: string; script: string; args: string[]; about: string; askedFor?: boolean };

const steps: Step[] = [
  {
    title: "Pages, cached and missed",
    script: "bench/pages.ts",
    args: ["--quick"],
    about:
      "100,000 regular and 20,000 adult titles; each page at 32 connections for 3 s, from the page cache and from a process without it, beside a static file of the same size (the ceiling).",
  },
  {
    title: "Checkout",
    script: "bench/checkout.ts",
    args: quick ? ["--runs", "1", "--seconds", "5"] : ["--runs", "3", "--seconds", "10"],
    about: "Orders placed per second through the cart's payment button; oversold must be 0.",
  },
  {
    title: "Mail",
    script: "bench/mail.ts",
    args: [quick ? "500" : "2000"],
    about: "Messages per second through the outbox to a local SMTP server, and its crash safety.",
  },
  {
    title: "Faults",
    script: "bench/faults.ts",
    args: [],
    about:
      "The database paused 10 s under load and stopped, the payment provider failing and slow: how soon 503s come, and normal answers after.",
  },
  {
    title: "Back-office catalogue tables at 100,000 titles",
    script: "bench/admin-search.ts",
    args: ["--repeat", quick ? "5" : "30"],
    about: "p50 / p95 per query.",
  },
  {
    title: "Back-office order list at 100,000 orders",
    script: "bench/admin-orders.ts",
    args: ["--repeat", quick ? "5" : "30"],
    about: "p50 / p95 per query, and the whole orders CSV export.",
  },
  {
    title: "Catalogue CSV import and export",
    script: "bench/catalog-import.ts",
    args: ["--rows", quick ? "20000" : "100000"],
    about: "Rows per second for each step, and the process's peak memory.",
  },
  {
    title: `Mixed-load soak (${soakMinutes} min)`,
    script: "bench/mixed.ts",
    args: ["--minutes", String(soakMinutes), "--json", soakJson, "--snapshots", snapshotsDir],
    about:
      "80 % browsing, 10 % suggestions, 5 % checkouts with the test card (the popular titles stocked deep, so the buyers pay all along), 5 % admin pages, and a clerk selling at the counter (a store item scanned and paid in cash each round), all at once, at the highest rate that kept errors at 0; the server's heap read every minute and two heap snapshots compared.",
  },
  {
    title: "Sizes, 100,000 and 1,000,000 titles side by side",
    script: "bench/sizes.ts",
    args: quick ? ["--seconds", "3", "--repeat", "5"] : [],
    about:
      "Both sizes side by side: seed time, database size, each page cached and missed at 32 connections, deep pages, suggestions, the back office's catalogue tables, the CSV export and the servers' memory, and whether the goals hold; also written to bench/sizes.md.",
    askedFor: true,
  },
];
if (args.lighthouse) {
  steps.push({
    title: "Lighthouse (mobile)",
    script: "bench/lighthouse.ts",
    args: [],
    about:
      "Scores at Lighthouse's defaults (the budget: median >= 98) and at a calibrated slowdown, first paint and JavaScript per page.",
  });
}
const only = args.only?.map((word) => word.toLowerCase());
const chosen = only
  ? steps.filter((step) => only.some((word) => step.title.toLowerCase().includes(word)))
  : steps.filter((step) => !step.askedFor);
if (chosen.length === 0) {
  console.error(`No benchmark's title holds ${only!.join(" or ")}.`);
  process.exit(2);
}

/** Runs one benchmark as its own process, its output shown as it comes and kept. */
function run(step: Step): Promise<{ code: number; output: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [step.script, ...step.args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        process.stdout.write(chunk);
      });
    }
    child.on("close", (code) =>
      resolve({ code: code ?? 1, output, seconds: (performance.now() - started) / 1000 }),
    );
  });
}

function machine(): string[] {
  const cpus = os.cpus();
  let git = "unknown";
  try {
    git = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root }).toString().trim();
  } catch {
    // Not a clone: the report says so.
  }
  return [
    `- Date: ${new Date().toISOString().replace("T", " ").slice(0, 16)} UTC`,
    `- Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB memory, ${os.type()} ${os.release()}`,
    `- Load average at the start: ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(", ")}`,
    `- Node ${process.version}; PostgreSQL 18 (embedded); commit ${git}`,
  ];
}

const header = machine();
const sections: string[] = [];
let failed = 0;
const began = performance.now();
for (const step of chosen) {
  console.log(`\n== ${step.title} ==`);
  const result = await run(step);
  if (result.code !== 0) failed++;
  sections.push(
    [
      `## ${step.title}`,
      "",
      `${step.about} \`node ${step.script} ${step.args.map((arg) => (arg === soakJson ? "<file>" : arg === snapshotsDir ? "<folder>" : arg)).join(" ")}\`, ${result.seconds.toFixed(0)} s${result.code === 0 ? "" : `, **failed (exit code ${result.code})**`}.`,
      "",
      "```text",
      result.output.trim(),
      "```",
    ].join("\n"),
  );
}

if (fs.existsSync(soakJson)) {
  const soak = JSON.parse(fs.readFileSync(soakJson, "utf8")) as SoakResult;
  fs.rmSync(soakJson);
  const colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];
  await drawChart(
    {
      title: `p99 latency per kind, every ${soak.intervalSeconds} s`,
      seconds: soak.samples.map((sample) => sample.second),
      yLabel: "p99 ms",
      series: soak.kinds.map((kind, index) => ({
        label: kind,
        values: soak.samples.map((sample) => sample.p99[kind] ?? null),
        color: colors[index % colors.length]!,
      })),
    },
    chartFile,
  );
  const total = soak.totals.reduce((sum, row) => sum + row.perSecond, 0);
  const errors = soak.totals.reduce((sum, row) => sum + row.errors, 0);
  fs.rmSync(snapshotsDir, { recursive: true, force: true });
  await drawChart(
    {
      title: "server memory each minute, MB",
      seconds: soak.periods.map((period) => period.second),
      yLabel: "MB",
      series: [
        {
          label: "RSS",
          values: soak.periods.map((period) => period.rssMb),
          color: colors[0]!,
        },
        {
          label: "heap total",
          values: soak.periods.map((period) => period.heapTotalMb),
          color: colors[2]!,
        },
        {
          label: "heap used",
          values: soak.periods.map((period) => period.heapUsedMb),
          color: colors[1]!,
        },
      ],
    },
    memoryChartFile,
  );
  // Growth is read from the samples taken under load: the end figure comes after the heap
  // snapshots' garbage collections, lower than any moment of the run.
  const rssAt = (second: number) => soak.periods.find((period) => period.second >= second)?.rssMb;
  const lastUnderLoad = soak.periods.at(-1);
  const percent = (from: number, to: number) => `${(((to - from) / from) * 100).toFixed(1)} %`;
  const afterFirstMinute = rssAt(60);
  const atHalfTime = rssAt(soak.seconds / 2);
  const growth =
    afterFirstMinute !== undefined && atHalfTime !== undefined && lastUnderLoad
      ? `${percent(afterFirstMinute, lastUnderLoad.rssMb)} from the first minute to the last sample under load, ${percent(atHalfTime, lastUnderLoad.rssMb)} over the second half`
      : "run shorter than two samples";
  sections.push(
    [
      "## Soak summary",
      "",
      `${total.toFixed(0)} requests/s in all, ${errors} errors; ${soak.paidPerSecond.toFixed(1)} orders paid a second; page-cache hit rate ${(soak.cacheHitRate * 100).toFixed(1)} %.`,
      `Server memory (RSS): ${soak.rssMb.start.toFixed(0)} MB after warm-up, ${soak.rssMb.peak.toFixed(0)} MB at its peak, ${soak.rssMb.end.toFixed(0)} MB at the end after the heap snapshots' collections (growth ${growth}).`,
      "",
      "| kind | req/s | p50 ms | p99 ms | errors |",
      "|---|---:|---:|---:|---:|",
      ...soak.totals.map(
        (row) =>
          `| ${row.kind} | ${row.perSecond.toFixed(1)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.errors} |`,
      ),
      "",
      "![p99 latency per kind over the soak](soak.png)",
      "",
      "![server memory over the soak](soak-memory.png)",
      "",
      "| second | server RSS MB | heap used MB | heap total MB | external MB | PostgreSQL connections | page-cache hit rate | orders paid so far |",
      "|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...soak.periods.map(
        (period) =>
          `| ${period.second} | ${period.rssMb.toFixed(0)} | ${period.heapUsedMb.toFixed(0)} | ${period.heapTotalMb.toFixed(0)} | ${period.externalMb.toFixed(0)} | ${period.connections} | ${(period.cacheHitRate * 100).toFixed(1)} % | ${period.paid} |`,
      ),
      ...(soak.heapGrowth
        ? [
            "",
            `Heap snapshots: ${soak.heapGrowth.totalBeforeMb.toFixed(1)} MB of live objects after the first minute, ${soak.heapGrowth.totalAfterMb.toFixed(1)} MB at the end. What changed most:`,
            "",
            "| kind | count after warm-up | at the end | KB after warm-up | at the end | change KB |",
            "|---|---:|---:|---:|---:|---:|",
            ...soak.heapGrowth.rows.map(
              (row) =>
                `| ${row.kind.replaceAll("|", "\\|").slice(0, 60) || "(no name)"} | ${row.countBefore} | ${row.countAfter} | ${(row.bytesBefore / 1024).toFixed(0)} | ${(row.bytesAfter / 1024).toFixed(0)} | ${(row.growth / 1024).toFixed(0)} |`,
            ),
          ]
        : []),
    ].join("\n"),
  );
}

const wholeRun = `${((performance.now() - began) / 60_000).toFixed(1)} min${failed ? `; ${failed} benchmark(s) failed` : ""}`;
const report =
  only && fs.existsSync(reportFile)
    ? rerun(fs.readFileSync(reportFile, "utf8"))
    : [
        "# Benchmark report",
        "",
        "Written by `npm run bench:all`" + (quick ? " --quick" : "") + ".",
        "",
        ...header,
        `- Whole run: ${wholeRun}`,
        "",
        ...sections.map((section) => `${section}\n`),
      ].join("\n");
await writeMarkdown(reportFile, report);
console.log(
  `\nWrote ${path.relative(root, reportFile)}${fs.existsSync(chartFile) ? " and bench/soak.png" : ""}.`,
);
process.exit(failed ? 1 : 0);

/**
 * The report with this run's sections in place of the ones of the same name (the heading without
 * what is in brackets), new ones at the end, and a line in the header saying what was rerun.
 */
function rerun(report: string): string {
  const name = (section: string) => section.split("\n", 1)[0]!.replace(/\s*\(.*\)\s*$/, "");
  const [head, ...old] = report.split(/^(?=## )/m);
  const fresh = new Map(sections.map((section) => [name(section), `${section}\n`]));
  const kept = old.map((section) => {
    const replacement = fresh.get(name(section));
    fresh.delete(name(section));
    return replacement ? `${replacement}\n` : section;
  });
  const note = `- Rerun: ${chosen.map((step) => step.title).join(", ")}, ${header[0]!.slice("- Date: ".length)}, commit ${header[3]!.split("commit ")[1]}, load average at its start ${header[2]!.split(": ")[1]}; ${wholeRun}`;
  return [
    head!.trimEnd() + "\n" + note + "\n\n",
    ...kept,
    ...[...fresh.values()].map((s) => `${s}\n`),
  ]
    .join("")
    .replace(/\n{3,}/g, "\n\n");
}
