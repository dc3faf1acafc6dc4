import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { createDatabase } from "./client.server.ts";
import { runMigrations } from "./migrate.server.ts";

const adminUrl = inject("databaseUrl");
const database = `migrate_${process.pid}`;
const admin = new pg.Client(adminUrl);

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${database}`);
});

afterAll(async () => {
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
});

it("applies every migration once when several processes start at the same moment", async () => {
  const url = adminUrl.replace(/\/[^/]+$/, `/${database}`);
  // Separate pools, as separate processes would have.
  const handles = Array.from({ length: 4 }, () => createDatabase(url, 2));
  try {
    await Promise.all(handles.map(({ db }) => runMigrations(db)));
    const { rows } = await handles[0]!.pool.query<{ hash: string; count: number }>(
      "select hash, count(*)::int as count from drizzle.__drizzle_migrations group by hash",
    );
    const journal = (await import("../../drizzle/meta/_journal.json", { with: { type: "json" } }))
      .default as { entries: unknown[] };
    expect(rows).toHaveLength(journal.entries.length);
    expect(rows.every((row) => row.count === 1)).toBe(true);
    // And again, with everything applied: nothing to do, nothing fails.
    await Promise.all(handles.map(({ db }) => runMigrations(db)));
  } finally {
    await Promise.all(handles.map(({ pool }) => pool.end()));
  }
});
