import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      "app/**/*.test.ts",
      "server/**/*.test.ts",
      "scripts/**/*.test.ts",
      "tests/support/**/*.test.ts",
    ],
    globalSetup: ["tests/support/database-setup.ts"],
    pool: "forks",
    // A test file's process is used again for the next file, with the modules it has loaded: on
    // two cores the stage took 192 s and 359 CPU-seconds with a new process for every file, and
    // 158 s and 291 CPU-seconds without (each new process loaded drizzle-orm, better-auth, Stripe
    // and the app again, half a second to a second each). So a test file leaves the process as
    // it found it: the environment is the run's own (tests/support/database-setup.ts, no
    // `vi.stubEnv`), and what it starts (pools, shops, mail servers) it stops.
    isolate: false,
    // One test file more than the cores, at most four: most files spend much of their time
    // waiting on the shops, databases and mail servers they start (on two cores: 210 s with two
    // at once, 176 s with three).
    maxWorkers: Math.min(4, os.availableParallelism() + 1),
    // Hang guards, not speed limits: with other work on the machine (a load of 10 and more on
    // two cores) a test that starts a shop has taken 85 s and a file's start-up over a minute.
    // Tests wait for conditions; how fast things are is for the benchmarks (bench/).
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
