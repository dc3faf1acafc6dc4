import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { regularTitles } from "#app/db/schema.ts";
import { placeOrder } from "#app/domain/orders/place-order.server.ts";
import {
  createCustomer,
  createRegularTitle,
  orderInput,
  TEXAS_PRICING,
} from "#tests/support/order-fixtures.ts";
import { CLUSTERS_HOME } from "#server/embedded-postgres-reach.ts";
import {
  clusterDirOf,
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from "#server/embedded-postgres.ts";
import {
  ownerOnlyFolder,
  removeDataDir,
  serverRunsAsAnotherUser,
} from "#tests/support/data-dir.ts";

// The default set-up, a laptop with the embedded database and no PostgreSQL client programs:
// `npm run db:backup` copies the running cluster while orders are placed, and `db:restore`
// brings that copy up in a fresh shop's DATA_DIR, consistent to the last order it holds.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const config = TEXAS_PRICING;
const STOCK = 10_000;

let folder: string;
let source: EmbeddedDatabase | undefined;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-embedded-backup-"));
  // When run as root the embedded server runs as a separate user, which must reach the folder.
  fs.chmodSync(folder, 0o755);
});

afterAll(async () => {
  await source?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

type Run = { code: number; stdout: string; stderr: string };

/** `npm run <script> -- <args>` as an operator runs it, with no client programs on PATH. */
function npmRun(script: "db:backup" | "db:restore", args: string[], dataDir: string) {
  return new Promise<Run>((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", script, "--", ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          PATH: [path.join(root, "node_modules", ".bin"), "/usr/bin", "/bin"].join(path.delimiter),
          DATABASE_URL: "",
          DATA_DIR: dataDir,
        },
        // Stops a hung run, never a slow one (the test itself waits up to vitest.config.ts).
        timeout: 240_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: stderr.replace(/^\.env not found.*\n/m, "") });
      },
    );
  });
}

describe("backup of the embedded database while the shop runs", () => {
  const sourceDir = () => path.join(folder, "shop");
  const restoredDir = () => path.join(folder, "restored");
  const backupFile = () => path.join(folder, "shop-backup.tar.gz");
  let serialNo: number;
  let ordersBefore: number;
  let ordersAfter: number;
  let backup: Run;

  beforeAll(async () => {
    source = await startEmbeddedPostgres(sourceDir());
    const handle = createDatabase(source.url, 6);
    const { db } = handle;
    await runMigrations(db);
    const film = await createRegularTitle(db, { qty: STOCK, priceCents: 1999 });
    serialNo = film.serialNo;
    const orderCount = async () =>
      (await db.execute<{ n: number }>(sql`select count(*)::int as n from orders`)).rows[0]!.n;

    // Four buyers place orders, each taking one copy, for as long as the backup runs.
    let buying = true;
    const buyer = async () => {
      while (buying) {
        const customer = await createCustomer(db);
        const placed = await placeOrder(
          db,
          orderInput(customer, [{ productType: "regular", serialNo: film.serialNo, quantity: 1 }]),
          config,
        );
        if (!placed.ok) throw new Error(`order not placed: ${JSON.stringify(placed)}`);
      }
    };
    const buyers = [buyer(), buyer(), buyer(), buyer()];
    // Orders are being written before the copy starts, and while it runs.
    while ((await orderCount()) < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    ordersBefore = await orderCount();
    backup = await npmRun("db:backup", [backupFile()], sourceDir());
    ordersAfter = await orderCount();
    buying = false;
    await Promise.all(buyers);
    await handle.pool.end();
  });

  it("is written while orders are placed, without client programs, readable by its owner only", () => {
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/Wrote .*shop-backup\.tar\.gz \([\d.]+ [KM]B, \d+ tables/);
    expect(fs.statSync(backupFile()).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${backupFile()}.partial`)).toBe(false);
    expect(ordersAfter).toBeGreaterThan(ordersBefore);
  });

  it("restores into a fresh shop's DATA_DIR, consistent: every copy sold is in an order", async () => {
    const run = await npmRun("db:restore", [backupFile()], restoredDir());
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Restored \d+ tables in/);

    const restored = await startEmbeddedPostgres(restoredDir());
    const handle = createDatabase(restored.url, 2);
    try {
      const { rows } = await handle.db.execute<{ orders: number; sold: number }>(
        sql`select (select count(*)::int from orders) as orders,
                   (select coalesce(sum(quantity), 0)::int from order_items) as sold`,
      );
      const [title] = await handle.db
        .select({ qty: regularTitles.qtyToList })
        .from(regularTitles)
        .where(eq(regularTitles.regSerialNo, serialNo));
      // Everything committed before the copy began is there, nothing after it ended, and the
      // stock and the orders agree to the copy: one transaction is never half in it.
      expect(rows[0]!.orders).toBeGreaterThanOrEqual(ordersBefore);
      expect(rows[0]!.orders).toBeLessThanOrEqual(ordersAfter);
      expect(rows[0]!.sold).toBe(rows[0]!.orders);
      expect(title!.qty + rows[0]!.sold).toBe(STOCK);
      // The restored shop keeps working: a new order on top of the copy.
      const customer = await createCustomer(handle.db);
      const placed = await placeOrder(
        handle.db,
        orderInput(customer, [{ productType: "regular", serialNo, quantity: 2 }]),
        config,
      );
      expect(placed.ok).toBe(true);
    } finally {
      await handle.pool.end();
      await restored.stop();
    }
  });

  it("refuses to restore over a database, or into a running one; --force keeps the one replaced", async () => {
    const refused = await npmRun("db:restore", [backupFile()], restoredDir());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("already holds a database");
    expect(refused.stderr).toContain("--force");

    const running = await npmRun("db:restore", [backupFile(), "--force"], sourceDir());
    expect(running.code).toBe(2);
    expect(running.stderr).toContain("is running. Stop the shop");

    const forced = await npmRun("db:restore", [backupFile(), "--force"], restoredDir());
    expect(forced.stderr).toBe("");
    expect(forced.code).toBe(0);
    const kept = forced.stdout.match(/The database it replaced is kept in (\S+)\./)?.[1];
    expect(kept && fs.existsSync(path.join(kept, "PG_VERSION"))).toBe(true);
  });

  it("refuses a copy of the embedded database for an external one", async () => {
    const run = await new Promise<Run>((resolve) => {
      execFile(
        "npm",
        ["run", "--silent", "db:restore", "--", backupFile()],
        {
          cwd: root,
          env: { ...process.env, DATABASE_URL: "postgresql://shop@127.0.0.1:1/shop" },
          // Stops a hung run, never a slow one (the test itself waits up to vitest.config.ts).
          timeout: 240_000,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("restores only into the embedded");
  });
});

describe("backup of a database kept out of DATA_DIR (root, from a folder closed to others)", () => {
  it("is taken and restored with --force where the database is, DATA_DIR/postgres still leading there", async () => {
    const closed = ownerOnlyFolder("shop-closed-backup-");
    const dataDir = path.join(closed, ".data");
    const backup = path.join(folder, "closed-backup.tar.gz");
    let shop: EmbeddedDatabase | undefined = await startEmbeddedPostgres(dataDir);
    try {
      const clusterDir = clusterDirOf(dataDir);
      const kept = fs.realpathSync(clusterDir);
      expect(path.dirname(path.dirname(kept))).toBe(
        serverRunsAsAnotherUser ? CLUSTERS_HOME : closed,
      );
      const note = async (url: string, word: string) => {
        const handle = createDatabase(url, 1);
        try {
          await handle.db.execute(sql`create table if not exists notes (word text)`);
          await handle.db.execute(sql`insert into notes values (${word})`);
        } finally {
          await handle.pool.end();
        }
      };
      await note(shop.url, "before");
      const taken = await npmRun("db:backup", [backup], dataDir);
      expect(taken.stderr).toBe("");
      expect(taken.code).toBe(0);
      await note(shop.url, "after");
      await shop.stop();
      shop = undefined;

      const restored = await npmRun("db:restore", [backup, "--force"], dataDir);
      expect(restored.stderr).toBe("");
      expect(restored.code).toBe(0);
      // The replaced database is kept beside the one restored, where the server reaches both.
      const replaced = restored.stdout.match(/The database it replaced is kept in (\S+)\./)?.[1];
      expect(replaced && path.dirname(replaced)).toBe(path.dirname(kept));
      expect(fs.realpathSync(clusterDir)).toBe(kept);

      shop = await startEmbeddedPostgres(dataDir);
      const handle = createDatabase(shop.url, 1);
      try {
        const { rows } = await handle.db.execute<{ word: string }>(sql`select word from notes`);
        expect(rows.map((row) => row.word)).toEqual(["before"]);
      } finally {
        await handle.pool.end();
      }
    } finally {
      await shop?.stop();
      removeDataDir(dataDir);
      fs.rmSync(closed, { recursive: true, force: true });
    }
  }, 120_000);
});
