/**
 * Work that holds much memory while it runs (a brotli encoder keeps megabytes), done a few at a
 * time, with a short line of work waiting its turn; what comes while the line is full is refused
 * at once, so a burst of it cannot pile up without bound while the machine is busy.
 */
export function boundedWork({ atOnce, waiting }: { atOnce: number; waiting: number }) {
  let running = 0;
  const line: (() => void)[] = [];

  const release = () => {
    const next = line.shift();
    if (next) next();
    else running--;
  };

  return {
    /** Runs `task` now or once its turn comes; undefined, without running it, when the line is full. */
    run<T>(task: () => Promise<T>): Promise<T> | undefined {
      if (running < atOnce) {
        running++;
        return task().finally(release);
      }
      if (line.length >= waiting) return undefined;
      return new Promise<void>((resolve) => line.push(resolve)).then(() => task().finally(release));
    },
    /** Tasks running and waiting, for tests and metrics. */
    get load() {
      return { running, waiting: line.length };
    },
  };
}
