import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "#server/free-port.ts";

export type SystemPostgres = {
  /** The `shop` database, as DATABASE_URL would name it (password included). */
  url: string;
  /** The folder holding this server's own programs (pg_dump, pg_restore, psql …). */
  binDir: string;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
};

const DATABASE_NAME = "shop";
const PACKAGES_ROOT = "/usr/lib/postgresql";

/** Debian's PostgreSQL server programs of the newest installed version, if any. */
function findBinDir(): string | undefined {
  if (!fs.existsSync(PACKAGES_ROOT)) return undefined;
  return fs
    .readdirSync(PACKAGES_ROOT)
    .filter((version) => /^\d+(\.\d+)?$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(PACKAGES_ROOT, version, "bin"))
    .find((bin) => ["initdb", "postgres"].every((name) => fs.existsSync(path.join(bin, name))));
}

const isRoot = () => process.getuid?.() === 0;

function installPostgres(): string {
  if (!isRoot() || spawnSync("apt-get", ["--version"]).status !== 0) {
    throw new Error(
      `PostgreSQL's server programs were not found under ${PACKAGES_ROOT}/<version>/bin. ` +
        "Install them (Debian/Ubuntu: sudo apt-get install postgresql) and run the tests again.",
    );
  }
  console.log("Installing PostgreSQL for the tests (apt-get)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  // Waits for another apt-get to finish instead of failing on its lock.
  const wait = ["-o", "DPkg::Lock::Timeout=300"];
  for (const args of [
    ["update", "-qq", ...wait],
    ["install", "-y", "-qq", ...wait, "postgresql"],
  ]) {
    const result = spawnSync("apt-get", args, { env, encoding: "utf8" });
    if (result.status !== 0) {
      throw new Error(`apt-get ${args[0]} failed:\n${result.stderr || result.stdout}`);
    }
  }
  const bin = findBinDir();
  if (!bin) throw new Error(`apt-get installed postgresql, but ${PACKAGES_ROOT} has no server.`);
  return bin;
}

/**
 * Who runs the server: PostgreSQL refuses to run as root, so as root it runs as the `postgres`
 * user the Debian package creates (or `nobody`); otherwise as whoever runs the tests.
 */
function serverUser(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  for (const name of ["postgres", "nobody"]) {
    const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (uid.status === 0 && gid.status === 0) {
      return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
    }
  }
  throw new Error("Running as root, but there is neither a postgres nor a nobody user.");
}

/** Starts `postgres` and resolves once it accepts connections; rejects if it exits first. */
function startServer(
  bin: string,
  dataDir: string,
  port: number,
  user: { uid: number; gid: number } | undefined,
): Promise<ChildProcess> {
  const child = spawn(
    path.join(bin, "postgres"),
    [
      "-D",
      dataDir,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${path.dirname(dataDir)}`,
      "-c",
      "max_connections=200",
      // A scratch server for tests: durability buys nothing here.
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
    ],
    { ...user, cwd: path.dirname(dataDir), stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready to accept connections")) {
        child.stdout!.removeListener("data", onData);
        child.stderr!.removeListener("data", onData);
        child.stdout!.resume();
        child.stderr!.resume();
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`postgres exited with ${code}:\n${output}`)));
  });
}

/**
 * A PostgreSQL server of the machine's own installation (the shop's "external" database), in a
 * fresh cluster of its own in a temporary folder, on a free loopback port, with an empty `shop`
 * database. When the server programs are missing they are installed through apt-get as root.
 */
export async function startSystemPostgres(): Promise<SystemPostgres> {
  const binDir = findBinDir() ?? installPostgres();
  const user = serverUser();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-system-pg-"));
  const dataDir = path.join(folder, "data");
  const password = randomBytes(18).toString("base64url");
  const passwordFile = path.join(folder, "password");
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (user) {
    fs.chownSync(folder, user.uid, user.gid);
    fs.chownSync(passwordFile, user.uid, user.gid);
  }

  let server: ChildProcess | undefined;
  const killOnExit = () => server?.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stop = async () => {
    process.removeListener("exit", killOnExit);
    const running = server;
    server = undefined;
    if (running && running.exitCode === null && running.signalCode === null) {
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGINT"); // fast shutdown: disconnects clients, then stops
      await exited;
    }
    fs.rmSync(folder, { recursive: true, force: true });
  };

  try {
    const initdb = spawnSync(
      path.join(binDir, "initdb"),
      [
        `--pgdata=${dataDir}`,
        "--username=postgres",
        `--pwfile=${passwordFile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C.UTF-8",
        "--no-sync",
      ],
      { ...user, cwd: folder, encoding: "utf8" },
    );
    if (initdb.status !== 0) {
      throw new Error(`initdb failed:\n${initdb.stderr || initdb.stdout}`);
    }
    // Another program may take the free port between probing and binding: try a few.
    let port = 0;
    for (let attempt = 1; !server; attempt++) {
      port = await freePort();
      try {
        server = await startServer(binDir, dataDir, port, user);
      } catch (error) {
        if (attempt >= 3 || !String(error).includes("could not bind")) throw error;
      }
    }
    const base = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    const admin = new pg.Client(`${base}/postgres`);
    await admin.connect();
    try {
      await admin.query(`create database ${DATABASE_NAME}`);
    } finally {
      await admin.end();
    }
    return { url: `${base}/${DATABASE_NAME}`, binDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
