import { SidewaysScroll } from "#app/components/ui/sideways-scroll.tsx";
import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import { formatUsd } from "#app/lib/money.ts";

export type SalesDay = { day: string; orders: number; revenueCents: number };

/** The chart's whole height, legend included, so nothing moves when it is drawn. */
const HEIGHT = 288;

const shortDay = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});
const longDay = new Intl.DateTimeFormat("en-US", {
  weekday: "short",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** A calendar date (YYYY-MM-DD) as "Mar 2"; the date is already the shop's, so no zone applies. */
function dayLabel(day: string, format = shortDay) {
  return format.format(new Date(`${day}T00:00:00Z`));
}

function summary(days: SalesDay[]) {
  const orders = days.reduce((sum, day) => sum + day.orders, 0);
  const revenue = days.reduce((sum, day) => sum + day.revenueCents, 0);
  if (orders === 0) return `Sales chart: no sales in the last ${days.length} days.`;
  const best = days.reduce((top, day) => (day.revenueCents > top.revenueCents ? day : top));
  return (
    `Sales chart for the last ${days.length} days: ${orders} ${orders === 1 ? "order" : "orders"}, ` +
    `${formatUsd(revenue)} in all. Best day ${dayLabel(best.day)} with ${formatUsd(best.revenueCents)}.`
  );
}

/** The theme's colours, read from its CSS variables when the chart is drawn. */
function themeColour(element: HTMLElement, name: string, fallback: string) {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

/**
 * Revenue (bars) and orders (line) per shop-local day. The charting library is loaded only
 * here, after the page is on screen, so no other page pays for it; the same figures are in a
 * table below for anyone who cannot see the chart.
 */
export function SalesChart({ days }: { days: SalesDay[] }) {
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;

    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      chart = new UPlot(
        chartOptions(UPlot, element, days),
        [
          days.map((_, index) => index),
          days.map((day) => day.revenueCents / 100),
          days.map((day) => day.orders),
        ],
        element,
      );
      const fit = () => {
        if (!chart) return;
        const legend = chart.root.querySelector<HTMLElement>(".u-legend");
        chart.setSize({
          width: element.clientWidth,
          height: HEIGHT - (legend?.offsetHeight ?? 40),
        });
      };
      fit();
      observer = new ResizeObserver(fit);
      observer.observe(element);
    });

    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [days]);

  return (
    <div>
      <div
        ref={holder}
        role="img"
        aria-label={summary(days)}
        className="overflow-hidden text-xs"
        style={{ height: HEIGHT }}
      />
      <SalesTable days={days} />
    </div>
  );
}

/** The chart's options: revenue as bars on the left axis, orders as a line on the right. */
function chartOptions(UPlot: typeof uPlot, element: HTMLElement, days: SalesDay[]): uPlot.Options {
  const primary = themeColour(element, "--primary", "#b5382c");
  const foreground = themeColour(element, "--foreground", "#1c2233");
  const muted = themeColour(element, "--muted-foreground", "#5f6577");
  const border = themeColour(element, "--border", "#e2ded6");
  const axis = (scale: string, side: 1 | 3, format: (value: number) => string) => ({
    scale,
    side,
    stroke: muted,
    grid: { show: side === 3, stroke: border, width: 1 },
    ticks: { stroke: border, width: 1 },
    values: (_chart: uPlot, ticks: number[]) => ticks.map(format),
    size: 64,
  });
  // From zero, and never so flat that an empty month shows cents or fractions of an order.
  const upTo =
    (least: number) =>
    (_chart: uPlot, _min: number, max: number): uPlot.Range.MinMax =>
      UPlot.rangeNum(0, Math.max(max, least), 0.1, true);

  return {
    width: element.clientWidth,
    height: HEIGHT - 40,
    scales: {
      x: { time: false },
      usd: { range: upTo(10) },
      orders: { range: upTo(1) },
    },
    axes: [
      {
        stroke: muted,
        grid: { show: false },
        ticks: { stroke: border, width: 1 },
        space: 56,
        values: (_chart, ticks) =>
          ticks.map((tick) => (days[tick] ? dayLabel(days[tick].day) : "")),
      },
      axis("usd", 3, (dollars) => `$${dollars.toLocaleString("en-US")}`),
      {
        ...axis("orders", 1, (count) => (Number.isInteger(count) ? String(count) : "")),
        size: 40,
      },
    ],
    series: [
      {
        label: "Day",
        value: (_chart, index) => (days[index] ? dayLabel(days[index].day) : ""),
      },
      {
        label: "Revenue",
        scale: "usd",
        stroke: primary,
        fill: primary,
        width: 0,
        paths: UPlot.paths.bars?.({ size: [0.6, 32] }),
        points: { show: false },
        value: (_chart, dollars) => (dollars == null ? "" : formatUsd(dollars * 100)),
      },
      {
        label: "Orders",
        scale: "orders",
        stroke: foreground,
        width: 2,
        points: { show: true, size: 5, fill: foreground },
        value: (_chart, count) => (count == null ? "" : String(count)),
      },
    ],
    cursor: { drag: { x: false, y: false } },
  };
}

/** The chart's figures as a table, for whoever cannot see it or wants the numbers. */
function SalesTable({ days }: { days: SalesDay[] }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium">Sales by day as a table</summary>
      <SidewaysScroll
        label={`Sales by day, last ${days.length} days`}
        className="mt-2 rounded-xl border"
      >
        <table className="w-full text-sm">
          <caption className="sr-only">Sales by day, last {days.length} days</caption>
          <thead>
            <tr className="border-b text-left">
              <th scope="col" className="px-3 py-2 font-medium">
                Day
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Orders
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Revenue
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day} className="border-b last:border-0">
                <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap">
                  {dayLabel(day.day, longDay)}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums">{day.orders}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">
                  {formatUsd(day.revenueCents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </SidewaysScroll>
    </details>
  );
}
