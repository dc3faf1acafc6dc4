import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/support/database-setup.ts"],
    pool: "forks",
    // One test file per core (each starts its shop and database work), at most four.
    maxWorkers: Math.min(4, Math.max(1, os.availableParallelism())),
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
