// Draws a line chart to a PNG with uPlot (the chart library the back office already uses) in the
// Chromium of the browser tests (CHROMIUM_PATH, default /usr/bin/chromium), for benchmark reports.
import fs from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "@playwright/test";

export type ChartSeries = { label: string; values: (number | null)[]; color: string };

export type Chart = {
  title: string;
  /** Seconds since the start, one per sample. */
  seconds: number[];
  yLabel: string;
  series: ChartSeries[];
};

const require = createRequire(import.meta.url);

export async function drawChart(chart: Chart, file: string, width = 900, height = 380) {
  const script = fs.readFileSync(require.resolve("uplot/dist/uPlot.iife.min.js"), "utf8");
  const css = fs.readFileSync(require.resolve("uplot/dist/uPlot.min.css"), "utf8");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: width + 40, height: height + 120 } });
    await page.setContent(
      `<!doctype html><html><head><style>${css} body{font:14px system-ui,sans-serif;margin:20px;background:#fff}</style></head>` +
        `<body><div id="chart"></div><script>${script}</script></body></html>`,
    );
    await page.evaluate(
      ({ chart, width, height }) => {
        const uPlot = (window as unknown as { uPlot: new (...args: unknown[]) => unknown }).uPlot;
        new uPlot(
          {
            title: chart.title,
            width,
            height,
            scales: { x: { time: false } },
            legend: { live: false },
            axes: [{ label: "seconds since the start" }, { label: chart.yLabel, size: 70 }],
            series: [
              { label: "s" },
              ...chart.series.map((series) => ({
                label: series.label,
                stroke: series.color,
                width: 2,
                spanGaps: true,
              })),
            ],
          },
          [chart.seconds, ...chart.series.map((series) => series.values)],
          document.getElementById("chart"),
        );
      },
      { chart, width, height },
    );
    await page.locator("#chart").screenshot({ path: file });
  } finally {
    await browser.close();
  }
}
