// Shared by the back-office benchmarks: each query run once to warm up, then `repeat` times,
// printed as a Markdown table of p50 / p95 milliseconds.

export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function printQueryTimings(
  cases: [label: string, run: () => Promise<{ total: number }>][],
  repeat: number,
) {
  console.log("\n| query | matches | p50 ms | p95 ms |");
  console.log("|---|---:|---:|---:|");
  for (const [label, run] of cases) {
    const { total } = await run();
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `| ${label} | ${total} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} |`,
    );
  }
}
