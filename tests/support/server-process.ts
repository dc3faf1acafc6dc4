import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export type RunningServer = {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number>;
  stop: () => Promise<number>;
};

export type StartOptions = {
  /** Arguments for Node itself, such as `--cpu-prof`. */
  nodeArgs?: string[];
  /**
   * Keep what the server writes after it is ready (for tests that read its log). A benchmark
   * turns this off, as it would keep a line per request; what the server writes to stderr then
   * goes to this process's stderr.
   */
  keepOutput?: boolean;
  /** Another checkout of the shop to run (its own build), as a benchmark's comparison does. */
  cwd?: string;
};

/**
 * Starts the real server entry (`server/index.ts`, the production build must exist) as its own
 * process and resolves once it says it is ready.
 */
export function startServer(
  env: Record<string, string>,
  { nodeArgs = [], keepOutput = true, cwd = root }: StartOptions = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, [...nodeArgs, "server/index.ts"], {
    cwd,
    env: { ...process.env, APP_ENV: "local", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let ready = false;
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer, fromStderr: boolean) => {
      if (ready && !keepOutput) {
        // Errors still show; the request log is dropped.
        if (fromStderr) process.stderr.write(chunk);
        return;
      }
      output += chunk.toString();
      if (ready) return;
      const readyAt = output.match(/Shop ready at (http:\/\/[^"\s]+)/);
      if (readyAt) {
        ready = true;
        resolve({
          child,
          url: readyAt[1]!,
          output: () => output,
          exited,
          stop: () => {
            child.kill("SIGTERM");
            return exited;
          },
        });
      }
    };
    child.stdout.on("data", (chunk: Buffer) => onData(chunk, false));
    child.stderr.on("data", (chunk: Buffer) => onData(chunk, true));
    exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

/**
 * The built shop with the demo catalogue in an embedded database of its own (a temporary
 * folder, `dataDir`), for a benchmark; stopping it removes the folder.
 */
export async function startDemoShop(label: string): Promise<RunningServer & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-${label}-`));
  // When run as root the database runs as a separate "postgres" user, which must reach it.
  fs.chmodSync(dataDir, 0o755);
  const server = await startServer(
    { PORT: "0", DATA_DIR: dataDir, SEED_DEMO: "true" },
    { keepOutput: false },
  );
  return {
    ...server,
    dataDir,
    stop: async () => {
      const code = await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
