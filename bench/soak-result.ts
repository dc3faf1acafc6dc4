// What `bench/mixed.ts --json <file>` writes, for `npm run bench:all`'s report and chart.

/** Latency of one kind of request over one interval of the run, in milliseconds. */
export type SoakSample = {
  /** Seconds since the start, at the end of the interval. */
  second: number;
  p50: Record<string, number>;
  p99: Record<string, number>;
  perSecond: Record<string, number>;
};

export type SoakResult = {
  seconds: number;
  intervalSeconds: number;
  kinds: string[];
  samples: SoakSample[];
  /** Each --sample-every (a minute in long runs): memory, connections and the cache's hit rate. */
  periods: {
    second: number;
    rssMb: number;
    heapUsedMb: number;
    heapTotalMb: number;
    externalMb: number;
    connections: number;
    cacheHitRate: number;
    /** Orders paid since the start. */
    paid: number;
  }[];
  totals: { kind: string; perSecond: number; p50: number; p99: number; errors: number }[];
  rssMb: { start: number; end: number; peak: number };
  paidPerSecond: number;
  /** Two heap snapshots compared (--snapshots): live objects in all, and what changed most. */
  heapGrowth?: {
    totalBeforeMb: number;
    totalAfterMb: number;
    rows: {
      kind: string;
      countBefore: number;
      countAfter: number;
      bytesBefore: number;
      bytesAfter: number;
      growth: number;
    }[];
  };
  cacheHitRate: number;
};
