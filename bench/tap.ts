// `npm run bench:tap`: how soon a tap on the header's menu button and on Cart shows its sheet on
// a phone on slow 4G with a CPU four times slower (as Lighthouse plays a mobile), the sheets'
// code not yet loaded: the first tap of a visit. Each tap is a fresh visit to /about at 390 px
// in the browser tests' Chromium (CHROMIUM_PATH, default /usr/bin/chromium-headless-shell).
//
// Measured in the page by the browser's Event Timing API, as Interaction to Next Paint counts
// it: from the click's own time stamp (the finger lifted) to the frame painted after its
// handlers ran, in 8 ms steps. Also printed: frames drawn between the tap and the sheet (0 is the goal) and when the
// sheet was filled. Prints the median, p90 and the slowest of --taps taps each (default 15).
//
//   npm run bench:tap [-- --taps 15]
//
// It starts its own shop with the demo catalogue (embedded PostgreSQL in a temporary folder).
import os from "node:os";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { buildIfStale } from "#server/build-stamp.ts";
import { slowPhone } from "#tests/e2e/support/slow-phone.ts";
import { startDemoShop } from "#tests/support/server-process.ts";

const { values: args } = parseArgs({ options: { taps: { type: "string", default: "15" } } });
const taps = Math.max(1, Number(args.taps) || 15);

if ((await buildIfStale()) !== 0) process.exit(1);
const server = await startDemoShop("tap");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox", "--disable-gpu"],
});

type Tap = {
  inp: number;
  /** Of `inp`: waiting for the page, then its handlers; the rest is drawing. */
  delay: number;
  handlers: number;
  framesWithout: number;
  filled: number;
};

async function tapOnce(button: string, filled: string): Promise<Tap> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/about`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await slowPhone(page);
    await page.evaluate((filledSelector) => {
      const times = { framesWithout: 0 } as Record<string, number>;
      (window as unknown as { tap: typeof times }).tap = times;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.name === "click") {
            const timing = entry as PerformanceEventTiming;
            times.inp ??= timing.duration;
            times.delay ??= timing.processingStart - timing.startTime;
            times.handlers ??= timing.processingEnd - timing.processingStart;
          }
        }
      }).observe({
        type: "event",
        durationThreshold: 16,
        buffered: false,
      } as PerformanceObserverInit);
      document.addEventListener("click", () => (times.click ??= performance.now()), {
        capture: true,
        once: true,
      });
      const sheet = () => document.querySelector('[role="dialog"], dialog[open]');
      const everyFrame = () => {
        const open = sheet();
        if (times.click !== undefined && !open)
          times.framesWithout = (times.framesWithout ?? 0) + 1;
        if (open?.querySelector(filledSelector)) times.filled ??= performance.now() - times.click!;
        if (times.filled === undefined) requestAnimationFrame(everyFrame);
      };
      requestAnimationFrame(everyFrame);
    }, filled);
    // A finger's tap: down, about 80 ms, up (Playwright's own tap sends both at once, which piles
    // the press's handlers and the click into one moment no finger makes).
    const box = (await page.getByRole("button", { name: button }).boundingBox())!;
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
    await new Promise((resolve) => setTimeout(resolve, 80));
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    const handle = await page.waitForFunction(
      () => {
        const times = (window as unknown as { tap: Record<string, number> }).tap;
        // A click answered within 16 ms has no Event Timing entry: it counts as 16.
        const answered = times.inp !== undefined || performance.now() - times.click! > 2_000;
        return times.filled !== undefined && answered && times;
      },
      undefined,
      { timeout: 30_000 },
    );
    const times = (await handle.jsonValue()) as Record<string, number>;
    return {
      inp: times.inp ?? 16,
      delay: times.delay ?? 0,
      handlers: times.handlers ?? 0,
      framesWithout: times.framesWithout!,
      filled: times.filled!,
    };
  } finally {
    await context.close();
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

try {
  console.log(
    `Taps on slow 4G with a 4× slower CPU, ${taps} first taps each, ${os.cpus().length} cores`,
  );
  console.log(
    "| sheet | tap to its frame, median | p90 | slowest | frames without it | filled, median |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const [name, button, filled] of [
    ["side menu", "Open menu", "a[href='/other-services']"],
    ["cart drawer", "Cart (0)", "a[href='/movies']"],
  ] as const) {
    const results: Tap[] = [];
    for (let i = 0; i < taps; i++) results.push(await tapOnce(button, filled));
    const inp = results.map((result) => result.inp);
    const middle = [...results].sort((a, b) => a.inp - b.inp)[Math.floor(results.length / 2)]!;
    const parts = [middle.delay, middle.handlers, middle.inp - middle.delay - middle.handlers];
    const without = Math.max(...results.map((result) => result.framesWithout));
    const filledAt = percentile(
      results.map((result) => result.filled),
      50,
    );
    console.log(
      `| ${name} | ${percentile(inp, 50)} ms | ${percentile(inp, 90)} ms | ${Math.max(...inp)} ms | ${parts.map((part) => `${Math.round(part)} ms`).join(", ")} | ${without} at most | ${Math.round(filledAt)} ms |`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
