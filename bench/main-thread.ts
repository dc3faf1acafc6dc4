// How a page's main thread spent a Lighthouse load, from the load's trace: the time its tasks
// took against the time they ran on the CPU. On a shared machine a task that used little CPU was
// waiting (for a core, or for the browser), and Lighthouse's simulation counts the wait as the
// page's own work.

export type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; reason?: string; data?: { documentLoaderURL?: string } };
};

export type MainThread = {
  /** ms from the navigation's start to each of these. */
  since: (event: TraceEvent) => number;
  /** The tasks' time, and their time on the CPU (ms). */
  wall: number;
  cpu: number;
  /** The tasks longer than `longTaskMs` (wall), their time and their time on the CPU. */
  longTasks: number;
  longWall: number;
  longCpu: number;
};

/**
 * The renderer's main thread over the first `windowMs` of the page's navigation: its outermost
 * tasks (a task can run inside another).
 */
export function mainThread(
  events: TraceEvent[],
  { windowMs, longTaskMs }: { windowMs: number; longTaskMs: number },
): MainThread {
  const threadNames = new Map<string, string>();
  for (const event of events) {
    if (event.ph === "M" && event.name === "thread_name") {
      threadNames.set(`${event.pid}:${event.tid}`, event.args?.name ?? "");
    }
  }
  const navigation = events.find(
    (event) =>
      event.name === "navigationStart" && event.args?.data?.documentLoaderURL?.startsWith("http"),
  );
  if (!navigation) throw new Error("the trace has no navigation of the page");
  const since = (event: TraceEvent) => (event.ts - navigation.ts) / 1000;
  const tasks = events
    .filter(
      (event) =>
        event.pid === navigation.pid &&
        threadNames.get(`${event.pid}:${event.tid}`) === "CrRendererMain" &&
        event.ph === "X" &&
        event.name === "RunTask" &&
        since(event) >= 0 &&
        since(event) < windowMs,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const outermost: TraceEvent[] = [];
  let end = 0;
  for (const task of tasks) {
    if (task.ts >= end) {
      outermost.push(task);
      end = task.ts + (task.dur ?? 0);
    }
  }
  const wall = (list: TraceEvent[]) => list.reduce((sum, task) => sum + (task.dur ?? 0), 0) / 1000;
  const cpu = (list: TraceEvent[]) => list.reduce((sum, task) => sum + (task.tdur ?? 0), 0) / 1000;
  const long = outermost.filter((task) => (task.dur ?? 0) / 1000 > longTaskMs);
  return {
    since,
    wall: wall(outermost),
    cpu: cpu(outermost),
    longTasks: long.length,
    longWall: wall(long),
    longCpu: cpu(long),
  };
}
