import os from "node:os";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3111);
// Debian's headless shell: the browser engine without the windowing of the full `chromium`,
// about a quarter less CPU for each page on a two-core machine.
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // One browser per core (the shop under test shares them), at most four.
  workers: Math.min(4, Math.max(1, os.availableParallelism())),
  // One retry: a busy two-core machine can push a long journey past its timeout.
  retries: 1,
  forbidOnly: true,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // A trace only when a test is tried again after failing: recording one for every test (its
    // screenshots and DOM snapshots at every step) took a third of the stage's CPU.
    trace: "on-first-retry",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: "node tests/support/e2e-server.ts",
    url: `http://127.0.0.1:${PORT}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: { PORT: String(PORT) },
  },
});
