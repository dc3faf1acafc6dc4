import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export type RunningServer = {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number>;
  stop: () => Promise<number>;
};

/**
 * Starts the real server entry (`server/index.ts`, the production build must exist) as its own
 * process and resolves once it says it is ready.
 */
export function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, ["server/index.ts"], {
    cwd: root,
    env: { ...process.env, APP_ENV: "local", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = output.match(/Shop ready at (http:\/\/[^"\s]+)/);
      if (ready) {
        resolve({
          child,
          url: ready[1]!,
          output: () => output,
          exited,
          stop: () => {
            child.kill("SIGTERM");
            return exited;
          },
        });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}
