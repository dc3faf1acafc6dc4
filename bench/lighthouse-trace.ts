// `node bench/lighthouse-trace.ts`: why a Lighthouse run of one page scored what it did, from
// the run's own trace. Runs Lighthouse (mobile, performance only) --runs times on --page of the
// demo shop, with the Chromium of `npm run bench:lighthouse`, and prints per run:
// - the score, benchmarkIndex, TBT, and the first paint as the browser observed it;
// - how often Chromium's display compositor held the page's frames back to one a second
//   ("ThrottleUndrawnFrames") before that first paint: bench/chromium.ts says why that happened,
//   and --show-scrollbars brings it back;
// - the page's main thread over the first 3 s: the time its tasks took (wall) against the time
//   they ran on the CPU, and its long tasks (over 12.5 ms, which Lighthouse's 4-times slowdown
//   makes 50 ms). A long task that used little CPU was waiting: on the browser process, or for a
//   core.
//
//   node bench/lighthouse-trace.ts [--page /movies] [--runs 6] [--show-scrollbars]
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { buildIfStale } from "#server/build-stamp.ts";
import { startDemoShop } from "#tests/support/server-process.ts";
import { chromiumFlags, launchChromium } from "./chromium.ts";
import { mainThread, type TraceEvent } from "./main-thread.ts";
import { warm } from "./warm.ts";

const { values: args } = parseArgs({
  options: {
    page: { type: "string", default: "/movies" },
    runs: { type: "string", default: "6" },
    "show-scrollbars": { type: "boolean", default: false },
  },
});

/** The main-thread window looked at, from the navigation's start. */
const WINDOW_MS = 3000;
/** A task this long (wall) is a long task once Lighthouse slows it down 4 times. */
const LONG_TASK_MS = 12.5;

type RunFigures = {
  score: number;
  benchmarkIndex: number;
  tbt: number;
  firstPaint: number;
  throttled: number;
  wall: number;
  cpu: number;
  longTasks: number;
  longWall: number;
  longCpu: number;
};

/** The figures of one run, from its trace (times in ms). */
function analyse(events: TraceEvent[], firstPaint: number) {
  const { since, wall, cpu, longTasks, longWall, longCpu } = mainThread(events, {
    windowMs: WINDOW_MS,
    longTaskMs: LONG_TASK_MS,
  });
  const throttled = events.filter(
    (event) =>
      event.name === "SendBeginFrameDecision" &&
      event.args?.reason === "ThrottleUndrawnFrames" &&
      since(event) >= 0 &&
      since(event) <= firstPaint,
  ).length;
  return { throttled, wall, cpu, longTasks, longWall, longCpu };
}

if ((await buildIfStale()) !== 0) process.exit(1);
const server = await startDemoShop("lighthouse-trace");
const chrome = await launchChromium(chromiumFlags({ scrollbars: args["show-scrollbars"] }));
const url = new URL(args.page, server.url).toString();
const runs = Math.max(1, Number(args.runs) || 6);
const figures: RunFigures[] = [];
try {
  await warm(url); // the server's page cache and the images, as bench:lighthouse does
  for (let run = 1; run <= runs; run++) {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: "json", logLevel: "error" },
      {
        extends: "lighthouse:default",
        settings: { onlyCategories: ["performance"], additionalTraceCategories: "viz" },
      },
    );
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const { lhr, artifacts } = result;
    const metrics = (
      lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined
    )?.items?.[0];
    const firstPaint = metrics?.observedFirstContentfulPaint ?? NaN;
    const row: RunFigures = {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      tbt: lhr.audits["total-blocking-time"]?.numericValue ?? NaN,
      firstPaint,
      ...analyse(artifacts.Trace.traceEvents as unknown as TraceEvent[], firstPaint),
    };
    figures.push(row);
    console.log(
      `run ${run}/${runs}: performance ${row.score} (benchmarkIndex ${row.benchmarkIndex.toFixed(0)}), TBT ${row.tbt.toFixed(0)} ms; ` +
        `first paint ${row.firstPaint.toFixed(0)} ms, frame signals withheld before it (ThrottleUndrawnFrames) ${row.throttled}; ` +
        `main thread ${row.wall.toFixed(0)} ms wall, ${row.cpu.toFixed(0)} ms CPU; ` +
        `${row.longTasks} long tasks, ${row.longWall.toFixed(0)} ms wall, ${row.longCpu.toFixed(0)} ms CPU`,
    );
  }
} finally {
  chrome.kill();
  await server.stop();
}

const late = figures.filter((row) => row.throttled > 0).length;
const share = (part: number, whole: number) => `${Math.round((100 * part) / whole)} %`;
const sum = (key: keyof RunFigures) => figures.reduce((total, row) => total + row[key], 0);
console.log(
  `\n${args.page}, ${runs} runs${args["show-scrollbars"] ? ", scrollbars shown" : ""}: ` +
    `${late} with frame signals withheld before the first paint; the main thread ran on the CPU ` +
    `${share(sum("cpu"), sum("wall"))} of its tasks' time, ${share(sum("longCpu"), sum("longWall"))} of its long tasks' time.`,
);
