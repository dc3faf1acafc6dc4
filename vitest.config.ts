import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/support/database-setup.ts"],
    pool: "forks",
    // One test file more than the cores, at most four: most files spend much of their time
    // waiting on the shops, databases and mail servers they start (on two cores: 210 s with two
    // at once, 176 s with three).
    maxWorkers: Math.min(4, os.availableParallelism() + 1),
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
