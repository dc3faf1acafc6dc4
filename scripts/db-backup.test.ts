import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { regularTitles } from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { placeOrder } from "#app/domain/orders/place-order.server.ts";
import {
  createAdultTitle,
  createCustomer,
  createRegularTitle,
  orderInput,
  TEXAS_PRICING,
} from "#tests/support/order-fixtures.ts";
import { bookingSchema } from "#app/domain/repairs/booking-input.ts";
import { bookAppointment } from "#app/domain/repairs/bookings.server.ts";
import { DEFAULT_BOOKING_RULES } from "#app/domain/repairs/slots.ts";
import { startSystemPostgres, type SystemPostgres } from "#tests/support/system-postgres.ts";
import { findTool, MissingToolError } from "./postgres-tools.ts";

// Backups are taken and restored by the real `npm run db:backup` / `db:restore` against a
// PostgreSQL server of the machine's own installation, with its own client programs.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const config = TEXAS_PRICING;
const CUSTOMER_EMAIL = "backup-customer@example.test";

let server: SystemPostgres;
let folder: string;
const pools: { end: () => Promise<void> }[] = [];

beforeAll(async () => {
  server = await startSystemPostgres();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-test-"));
  // When run as root the embedded server runs as a separate user, which must reach the folder.
  fs.chmodSync(folder, 0o755);
});

afterAll(async () => {
  for (const pool of pools) await pool.end();
  // A pool's end() resolves before the server has seen its connections go: wait for them, or
  // stopping the server interrupts them and the pools report it as an error.
  if (server) {
    const admin = new pg.Client(server.url);
    await admin.connect();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { rows } = await admin.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname like 'backup\\_%'",
      );
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await admin.end();
  }
  await server?.stop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

function urlOf(database: string): string {
  return server.url.replace(/\/[^/?]+(\?|$)/, `/${database}$1`);
}

async function createEmptyDatabase(name: string): Promise<string> {
  const admin = new pg.Client(server.url);
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return urlOf(name);
}

function drizzleOn(url: string) {
  const handle = createDatabase(url, 4);
  pools.push(handle.pool);
  return handle.db;
}

type Run = { code: number; stdout: string; stderr: string };

/** Runs `npm run <script> -- <args>` as an operator would, with the server's client programs. */
function npmRun(
  script: "db:backup" | "db:restore",
  args: string[],
  env: Record<string, string | undefined>,
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", script, "--", ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          PATH: `${server.binDir}${path.delimiter}${process.env.PATH}`,
          ...env,
        },
        // Stops a hung run, never a slow one (the test itself waits up to vitest.config.ts).
        timeout: 240_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        // Node's own note that the optional .env file is absent says nothing about the script.
        resolve({ code, stdout, stderr: stderr.replace(/^\.env not found.*\n/m, "") });
      },
    );
  });
}

/** Every row of every table (and every sequence's position), for comparing two databases. */
async function contents(url: string): Promise<Record<string, unknown>> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ schema: string; name: string }>(
      `select schemaname as schema, tablename as name from pg_tables
        where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`,
    );
    const result: Record<string, unknown> = {};
    for (const { schema, name } of tables) {
      const table = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`;
      const { rows } = await client.query(
        `select coalesce(jsonb_agg(to_jsonb(t) order by to_jsonb(t)::text), '[]') as rows
           from ${table} t`,
      );
      result[`${schema}.${name}`] = rows[0].rows;
    }
    const { rows: sequences } = await client.query(
      `select schemaname, sequencename, last_value from pg_sequences order by 1, 2`,
    );
    result["(sequences)"] = sequences;
    return result;
  } finally {
    await client.end();
  }
}

async function scalar<T>(url: string, query: string, params: unknown[] = []): Promise<T> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query(query, params);
    return Object.values(rows[0] as object)[0] as T;
  } finally {
    await client.end();
  }
}

describe("db:backup and db:restore", () => {
  let sourceUrl: string;
  let restoredUrl: string;
  let backupFile: string;
  let orderId: number;

  beforeAll(async () => {
    sourceUrl = await createEmptyDatabase("backup_source");
    const db = drizzleOn(sourceUrl);
    await runMigrations(db);

    const customer = await createCustomer(db);
    await db.execute(sql`update customers set email = ${CUSTOMER_EMAIL} where id = ${customer}`);
    const film = await createRegularTitle(db, { qty: 5, priceCents: 1999 });
    const adult = await createAdultTitle(db, { qty: 2, priceCents: 2500 });
    const placed = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: film.serialNo, quantity: 2 },
        { productType: "adult", serialNo: adult.serialNo, quantity: 1 },
      ]),
      config,
    );
    if (!placed.ok) throw new Error(`order not placed: ${JSON.stringify(placed)}`);
    orderId = placed.order.id;

    // The booking queues its two e-mails in pg-boss's job table, in its own transaction.
    const boss = await startOutbox(sourceUrl, { onError() {} });
    try {
      const booked = await bookAppointment(
        db,
        bookingSchema.parse({
          name: "Rosa Reader",
          email: "rosa@example.test",
          phone: "(817) 555-0199",
          serviceType: "Game Console Repair",
          issue: "The disc drive clicks and will not read discs.",
          preferredDate: "2026-11-24",
          preferredTime: "10:00",
        }),
        {
          rules: DEFAULT_BOOKING_RULES,
          now: new Date("2026-11-23T16:20:00Z"),
          clientIp: "198.51.100.7",
          shopEmail: "shop-inbox@example.test",
          publicUrl: "https://shop.example.test",
          secret: "test-secret-for-repair-links",
          // A signed-in customer's confirmed address: booked at once, with both e-mails.
          provenEmail: "rosa@example.test",
        },
      );
      if (!booked.ok) throw new Error(`booking refused: ${booked.message}`);
    } finally {
      await stopOutbox(boss);
    }
    backupFile = path.join(folder, "shop.dump");
  });

  it("backs up a database with the shop's data, readable by its owner only", async () => {
    const run = await npmRun("db:backup", [backupFile], { DATABASE_URL: sourceUrl });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Wrote");
    const password = decodeURIComponent(new URL(sourceUrl).password);
    expect(run.stdout + run.stderr).not.toContain(password);
    expect(fs.readFileSync(backupFile).subarray(0, 5).toString("latin1")).toBe("PGDMP");
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${backupFile}.partial`)).toBe(false);
  });

  it("restores the backup into an empty database, every row as it was", async () => {
    restoredUrl = await createEmptyDatabase("backup_restored");
    const run = await npmRun("db:restore", [backupFile], { DATABASE_URL: restoredUrl });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);

    const before = await contents(sourceUrl);
    const after = await contents(restoredUrl);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(after).toEqual(before);

    // Not an empty match: the shop's data is there.
    expect(
      await scalar<number>(
        restoredUrl,
        "select count(*)::int from order_items where order_id = $1",
        [orderId],
      ),
    ).toBe(2);
    expect(
      await scalar<string>(
        restoredUrl,
        "select c.email from orders o join customers c on c.id = o.user_id where o.id = $1",
        [orderId],
      ),
    ).toBe(CUSTOMER_EMAIL);
    expect(
      await scalar<number>(
        restoredUrl,
        "select count(*)::int from service_requests where email = 'rosa@example.test'",
      ),
    ).toBe(1);
    expect(
      await scalar<string[]>(
        restoredUrl,
        "select array_agg(data->>'to' order by data->>'to') from pgboss.job where name = 'mail-send' and state = 'created'",
      ),
    ).toEqual(["rosa@example.test", "shop-inbox@example.test"]);
  });

  it("leaves a restored database the shop can run on: migrations done, sequences and triggers working", async () => {
    const db = drizzleOn(restoredUrl);
    await runMigrations(db);
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 1, priceCents: 999 });
    const placed = await placeOrder(
      db,
      orderInput(customer, [{ productType: "regular", serialNo: film.serialNo, quantity: 1 }]),
      config,
    );
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    expect(placed.order.id).toBeGreaterThan(orderId);
    expect(
      await scalar<number>(
        restoredUrl,
        "select count(*)::int from order_events where order_id = $1",
        [placed.order.id],
      ),
    ).toBe(1);
  });

  it("refuses to restore over a database that has tables, unless --force", async () => {
    const db = drizzleOn(restoredUrl);
    await db.update(regularTitles).set({ title: "Changed after the backup" });
    const changed = await contents(restoredUrl);

    const refused = await npmRun("db:restore", [backupFile], { DATABASE_URL: restoredUrl });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("already has");
    expect(refused.stderr).toContain("--force");
    expect(await contents(restoredUrl)).toEqual(changed);

    const forced = await npmRun("db:restore", [backupFile, "--force"], {
      DATABASE_URL: restoredUrl,
    });
    expect(forced.stderr).toBe("");
    expect(forced.code).toBe(0);
    expect(await contents(restoredUrl)).toEqual(await contents(sourceUrl));
  });

  it("refuses a file that is not a custom-format backup", async () => {
    const plain = path.join(folder, "plain.sql");
    fs.writeFileSync(plain, "-- PostgreSQL database dump\nselect 1;\n");
    const run = await npmRun("db:restore", [plain], { DATABASE_URL: sourceUrl });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not a backup in pg_dump's custom format");
  });

  it("fails without writing anything or showing the password when the database refuses", async () => {
    const wrong = new URL(sourceUrl);
    wrong.password = "not-the-password-3f9c";
    const target = path.join(folder, "refused.dump");
    const run = await npmRun("db:backup", [target], { DATABASE_URL: wrong.toString() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("password authentication failed");
    expect(run.stderr).toContain("No backup was written.");
    expect(run.stdout + run.stderr).not.toContain("not-the-password-3f9c");
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(`${target}.partial`)).toBe(false);
  });

  it("keeps an earlier backup when a new one fails", async () => {
    const before = fs.readFileSync(backupFile);
    const run = await npmRun("db:backup", [backupFile], { DATABASE_URL: urlOf("no_such_db") });
    expect(run.code).toBe(1);
    expect(fs.readFileSync(backupFile).equals(before)).toBe(true);
  });
});

describe("client programs older than the server", () => {
  it("are refused with the version to install named", () => {
    let error: unknown;
    try {
      findTool("pg_dump", { major: 99, version: "99.0", database: "shop", tables: [] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MissingToolError);
    const message = (error as Error).message;
    expect(message).toContain("pg_dump from PostgreSQL 99 or newer is needed");
    expect(message).toContain("postgresql-client-99");
  });
});
