import { defineConfig } from "vitest/config";

// `npm run test:cluster`: several shop processes on an external PostgreSQL behind nginx
// (tests/cluster). One worker: the test starts its own servers and loads them.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/cluster/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 1,
    // Hang guards, not speed limits (vitest.config.ts).
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
