import { expect, it } from "vitest";
import { emptyDatabase } from "#tests/support/empty-database.ts";
import { createDatabase } from "./client.server.ts";
import { runMigrations } from "./migrate.server.ts";

const { url } = emptyDatabase("migrate");

it("applies every migration once when several processes start at the same moment", async () => {
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
