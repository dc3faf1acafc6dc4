import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import {
  REGULAR_CSV_HEADER,
  regularCsvRow,
  regularTitleForm,
} from "#tests/support/catalogue-fixtures.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import {
  addAdultTitle,
  addRegularTitle,
  deleteAdultTitle,
  deleteRegularTitle,
} from "./admin-titles.server.ts";
import { importCatalogCsv } from "./catalog-csv.server.ts";
import { adultTitleSchema } from "./title-input.ts";

// Serials are catalogue-wide (and pushed far ahead here): this file has a database of its own.
const scratch = scratchDatabase();
let db: Database;
beforeAll(() => {
  db = scratch.db();
});

const regularRow = (serial: number | "", title: string) => regularCsvRow("SR-1", serial, title);
const regular = (title: string) => regularTitleForm("SR-1", title);

const adult = (title: string) =>
  adultTitleSchema.parse({
    productId: "7",
    condition: "",
    priceCents: "4.99",
    quantity: "1",
    title,
    production: "",
    releaseDate: "",
    description: "",
  });

async function titleOf(serial: number): Promise<string | undefined> {
  const { rows } = await db.execute<{ title: string }>(
    sql`select title from regular_titles where reg_serial_no = ${serial}`,
  );
  return rows[0]?.title;
}

describe("serials", () => {
  it("are never given again after their title is deleted, by the form or by an import", async () => {
    const first = await addRegularTitle(db, regular("Ghost of a Serial"));
    expect(await deleteRegularTitle(db, first)).toBe(true);
    const second = await addRegularTitle(db, regular("Next After Ghost"));
    expect(second).toBeGreaterThan(first);

    expect(await deleteRegularTitle(db, second)).toBe(true);
    const report = await importCatalogCsv(
      db,
      "regular",
      [REGULAR_CSV_HEADER, regularRow("", "Imported After Ghost")].join("\n"),
      { dryRun: false },
    );
    expect(report).toMatchObject({ added: 1, written: true });
    const { rows } = await db.execute<{ serial: number }>(
      sql`select reg_serial_no as serial from regular_titles where title = 'Imported After Ghost'`,
    );
    expect(rows[0]!.serial).toBeGreaterThan(second);

    const adultFirst = await addAdultTitle(db, adult("Ghost Reel"));
    expect(await deleteAdultTitle(db, adultFirst)).toBe(true);
    expect(await addAdultTitle(db, adult("Next Reel"))).toBeGreaterThan(adultFirst);
  });

  it("an import and a title added in the form at the same time both succeed, on different serials", async () => {
    const { rows } = await db.execute<{ top: number }>(
      sql`select max(reg_serial_no)::int as top from regular_titles`,
    );
    const top = rows[0]!.top;
    const csv = [
      REGULAR_CSV_HEADER,
      ...Array.from({ length: 50 }, (_, i) => regularRow(top + 1 + i, `Concurrent Import ${i}`)),
      ...Array.from({ length: 50 }, (_, i) => regularRow("", `Concurrent New ${i}`)),
    ].join("\n");

    let added: Promise<number> | undefined;
    await db.transaction(async (tx) => {
      // The import's rows are written but not yet committed when the admin saves the form.
      const report = await importCatalogCsv(tx, "regular", csv, { dryRun: false });
      expect(report).toMatchObject({ added: 100, written: true });
      added = addRegularTitle(db, regular("Added During Import"));
      added.catch(() => {});
      await waitForALockWaiter(db);
    });
    const serial = await added!;
    expect(await titleOf(serial)).toBe("Added During Import");
    const count = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from regular_titles where title like 'Concurrent %'`,
    );
    expect(count.rows[0]!.n).toBe(100);

    // And truly at once, several of each.
    const results = await Promise.allSettled([
      ...Array.from({ length: 3 }, (_, i) =>
        importCatalogCsv(
          db,
          "regular",
          [
            REGULAR_CSV_HEADER,
            ...Array.from({ length: 200 }, () => regularRow("", `Race ${i}`)),
          ].join("\n"),
          { dryRun: false },
        ),
      ),
      ...Array.from({ length: 6 }, (_, i) => addRegularTitle(db, regular(`Race Form ${i}`))),
    ]);
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
  });

  // Last: it moves the sequence to 100,000,000.
  it("are bounded: the dry run refuses each row beyond 99,999,999 and the next serial still fits", async () => {
    const csv = [
      REGULAR_CSV_HEADER,
      regularRow(2_147_483_647, "Overflow"),
      regularRow(100_000_000, "Just Over"),
      regularRow(99_999_999, "Highest Allowed"),
    ].join("\n");
    const dryRun = await importCatalogCsv(db, "regular", csv, { dryRun: true });
    const message =
      "RegSerialNo must be a whole number from 1 to 99,999,999, or empty for a new title.";
    expect(dryRun.rejected).toEqual([
      { row: 2, reasons: [message] },
      { row: 3, reasons: [message] },
    ]);

    const written = await importCatalogCsv(
      db,
      "regular",
      [REGULAR_CSV_HEADER, regularRow(99_999_999, "Highest Allowed")].join("\n"),
      { dryRun: false },
    );
    expect(written).toMatchObject({ added: 1, written: true });
    const next = await addRegularTitle(db, regular("After The Highest"));
    expect(next).toBe(100_000_000);
    expect(await titleOf(next)).toBe("After The Highest");
  });
});

/** Until some other session of this database waits for a lock (the add behind the import). */
async function waitForALockWaiter(db: Database) {
  // Looked for every 25 ms for a minute at least: longer is a hang, not a slow machine.
  for (let i = 0; i < 2400; i++) {
    const { rows } = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`);
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("The title added in the form never waited for the import.");
}
