import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { clusterDirOf, startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-postgres.ts";

// A shop beside an embedded server it did not start itself: one left running by a shop that was
// killed, which later stops, or which is still shutting down when the shop starts.

const started: EmbeddedDatabase[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const database of started.splice(0)) await database.stop().catch(() => {});
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-embedded-"));
  // As root the server runs as another user, which must reach the folder.
  fs.chmodSync(dir, 0o755);
  folders.push(dir);
  return dir;
}

const postmasterPid = (dir: string) =>
  Number(fs.readFileSync(path.join(clusterDirOf(dir), "postmaster.pid"), "utf8").split("\n")[0]);

async function answers(url: string) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<{ one: number }>("select 1 as one")).rows[0]!.one;
  } finally {
    await client.end();
  }
}

/** Supervision whose events a test can wait for. */
function supervision() {
  const events: string[] = [];
  let restarted!: () => void;
  let gaveUp!: (error: unknown) => void;
  const outcome = new Promise<void>((resolve, reject) => {
    restarted = resolve;
    gaveUp = reject;
  });
  return {
    events,
    outcome,
    hooks: {
      onStopped: (how: string) => events.push(`stopped: ${how}`),
      onRestarted: () => {
        events.push("restarted");
        restarted();
      },
      onGaveUp: (error: unknown) => gaveUp(error),
    },
  };
}

describe("an embedded server the shop did not start", () => {
  it("when a server the shop shares stops, the shop starts its own on the same port", async () => {
    const dir = dataDir();
    const orphan = await startEmbeddedPostgres(dir);
    started.push(orphan);
    const orphanPid = postmasterPid(dir);
    const watching = supervision();
    const shop = await startEmbeddedPostgres(dir, () => {}, watching.hooks);
    started.push(shop);
    expect(shop.url).toBe(orphan.url);
    expect(await answers(shop.url)).toBe(1);

    // The orphan goes (a fast shutdown, as after the OOM killer took its shop's place).
    await orphan.stop();
    await watching.outcome;
    expect(watching.events).toEqual([
      `stopped: the server this shop shared (pid ${orphanPid}) is gone`,
      "restarted",
    ]);
    expect(postmasterPid(dir)).not.toBe(orphanPid);
    expect(await answers(shop.url)).toBe(1);
  }, 120_000);

  it("a shop started while the server is shutting down waits for it to go, then starts its own", async () => {
    const dir = dataDir();
    const first = await startEmbeddedPostgres(dir);
    const { port } = new URL(first.url);
    await first.stop();
    // A server on its way out: its process alive and its lock file saying "stopping", as
    // PostgreSQL's does during a shutdown (held here by a process the test ends when it likes).
    const going = spawn("sleep", ["600"], { stdio: "ignore" });
    await once(going, "spawn");
    const lockFile = path.join(clusterDirOf(dir), "postmaster.pid");
    fs.writeFileSync(
      lockFile,
      [going.pid, clusterDirOf(dir), "0", port, "/tmp", "127.0.0.1", "0 0", "stopping", ""].join(
        "\n",
      ),
    );
    let sawStopping!: () => void;
    const stopping = new Promise<void>((resolve) => (sawStopping = resolve));
    let settled = false;
    const shop = startEmbeddedPostgres(dir, (line) => {
      if (line.includes("is stopping; waiting")) sawStopping();
    }).then((database) => {
      settled = true;
      started.push(database);
      return database;
    });
    await stopping;
    // Still waiting: it did not take the going server for a running one.
    expect(settled).toBe(false);
    going.kill();
    await once(going, "exit");
    const database = await shop;
    expect(postmasterPid(dir)).not.toBe(going.pid);
    expect(await answers(database.url)).toBe(1);
  }, 120_000);
});
