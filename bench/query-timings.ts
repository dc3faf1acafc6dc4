// Shared by the back-office benchmarks: each query run once to warm up, then `repeat` times,
// printed as a Markdown table of p50 / p95 milliseconds.

export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export type QueryCase = [label: string, run: () => Promise<{ total: number }>];
export type QueryTiming = { label: string; total: number; p50: number; p95: number };

/** Each query once to warm up (its match count kept), then timed `repeat` times. */
export async function timeQueries(
  cases: QueryCase[],
  repeat: number,
  onEach: (timing: QueryTiming) => void = () => {},
): Promise<QueryTiming[]> {
  const timings: QueryTiming[] = [];
  for (const [label, run] of cases) {
    const { total } = await run();
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const timing = { label, total, p50: percentile(times, 50), p95: percentile(times, 95) };
    timings.push(timing);
    onEach(timing);
  }
  return timings;
}

export async function printQueryTimings(cases: QueryCase[], repeat: number) {
  console.log("\n| query | matches | p50 ms | p95 ms |");
  console.log("|---|---:|---:|---:|");
  await timeQueries(cases, repeat, ({ label, total, p50, p95 }) =>
    console.log(`| ${label} | ${total} | ${p50.toFixed(1)} | ${p95.toFixed(1)} |`),
  );
}
