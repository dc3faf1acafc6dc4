import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { regularTitles, staffPicks } from "#app/db/schema.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { COUNT_CAP } from "#app/domain/admin/lists.server.ts";
import {
  addRegularTitle,
  adminListParams,
  deleteRegularTitle,
  listRegularTitlesForAdmin,
  REGULAR_SORTS,
  setStaffPick,
} from "./admin-titles.server.ts";
import { regularTitleSchema } from "./title-input.ts";

// Staff picks and serials are shop-wide: this file has a database of its own.
const scratch = scratchDatabase();
const marker = `Quillfeather ${process.pid}`;
const added: number[] = [];
let db: ReturnType<typeof scratch.db>;

beforeAll(async () => {
  db = scratch.db();
  // Some titles already there, so the serial rule and the pages have something to work with.
  await db.insert(regularTitles).values(
    Array.from({ length: 25 }, (_, i) => ({
      productId: `SEED-${i}`,
      title: `Seed Title ${i}`,
      disc: "DVD" as const,
      qtyToList: 1,
      currentPriceCents: 500 + ((i * 37) % 900),
    })),
  );
});

function values(title: string) {
  return regularTitleSchema.parse({
    productId: "QF-1",
    qtyToList: "3",
    title,
    releaseYear: "1987",
    disc: "DVD",
    type: "",
    currentPriceCents: "$9.99",
    description: "",
    genres: "Mystery",
    director: `${marker} Director`,
    cast: "",
  });
}

describe("the back office's catalogue", () => {
  it("gives new titles the current maximum serial plus one, also when added at the same moment", async () => {
    const serials = await Promise.all(
      Array.from({ length: 8 }, (_, i) => addRegularTitle(db, values(`${marker} ${i}`))),
    );
    added.push(...serials);
    expect(new Set(serials).size).toBe(8);
    const [{ max }] = (
      await db.execute(sql`select max(reg_serial_no)::int as max from regular_titles`)
    ).rows as [{ max: number }];
    expect(Math.max(...serials)).toBe(max);
    expect(Math.max(...serials) - Math.min(...serials)).toBe(7);
  });

  it("searches serial, title, genres, director, cast, disc and year, case-insensitively", async () => {
    const [serial] = added;
    const search = (q: string) =>
      listRegularTitlesForAdmin(db, adminListParams(new URLSearchParams({ q }), REGULAR_SORTS));
    expect((await search(marker.toUpperCase())).total).toBe(8);
    expect((await search(`${marker} director`)).total).toBe(8);
    const bySerial = await search(String(serial));
    expect(bySerial.rows.map((row) => row.serialNo)).toContain(serial);
    // A LIKE wildcard typed by a person is searched for literally.
    expect((await search("%")).total).toBe(0);
  });

  it("sorts by a column both ways and pages by 20", async () => {
    const asc = await listRegularTitlesForAdmin(
      db,
      adminListParams(new URLSearchParams({ sort: "price", dir: "asc" }), REGULAR_SORTS),
    );
    const prices = asc.rows.map((row) => row.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(asc.rows).toHaveLength(20);
    const unknown = adminListParams(new URLSearchParams({ sort: "drop table" }), REGULAR_SORTS);
    expect(unknown.sort).toBe("serial");
  });

  it("gives every page of every order as a walk from the start would, the back half read from the end", async () => {
    // More than two pages; some without a year, so the year order's empty cells are placed
    // both ways round too.
    await db.insert(regularTitles).values(
      Array.from({ length: 30 }, (_, i) => ({
        productId: `PAGE-${i}`,
        title: `Page Title ${i % 7}`,
        disc: i % 2 ? ("Blu-ray" as const) : ("DVD" as const),
        releaseYear: i % 5 === 0 ? null : 1960 + (i % 9),
        qtyToList: i % 4,
        currentPriceCents: 700 + (i % 3) * 100,
      })),
    );
    for (const sort of Object.keys(REGULAR_SORTS)) {
      for (const dir of ["asc", "desc"]) {
        const column =
          sort === "qty"
            ? "qty_to_list"
            : sort === "price"
              ? "current_price_cents"
              : sort === "year"
                ? "release_year"
                : sort === "serial"
                  ? "reg_serial_no"
                  : sort;
        const walked = await db.execute<{ serial: number }>(sql`
          select reg_serial_no as serial from regular_titles
          order by ${sql.raw(`${column} ${dir}, reg_serial_no ${dir}`)}`);
        const listed: number[] = [];
        const first = await listRegularTitlesForAdmin(
          db,
          adminListParams(new URLSearchParams({ sort, dir }), REGULAR_SORTS),
        );
        expect(first.pageCount).toBeGreaterThan(2);
        for (let page = 1; page <= first.pageCount; page++) {
          const params = new URLSearchParams({ sort, dir, page: String(page) });
          const { rows } = await listRegularTitlesForAdmin(
            db,
            adminListParams(params, REGULAR_SORTS),
          );
          listed.push(...rows.map((row) => row.serialNo));
        }
        expect(listed, `${sort} ${dir}`).toEqual(walked.rows.map((row) => row.serial));
      }
    }
  });

  it("never lets two admins make a sixth staff pick", async () => {
    const results = await Promise.all(added.map((serial) => setStaffPick(db, serial, true)));
    expect(results.filter((result) => result === "on")).toHaveLength(5);
    expect(results.filter((result) => result === "limit-reached")).toHaveLength(3);
    expect(await db.select().from(staffPicks)).toHaveLength(5);
    // Which five won is up to the race: switch off one of them.
    const picked = added[results.indexOf("on")]!;
    expect(await setStaffPick(db, picked, false)).toBe("off");
    expect(await db.select().from(staffPicks)).toHaveLength(4);
  });

  it("counts a broad search only up to 10,000 and says so", async () => {
    await db.execute(sql`
      insert into regular_titles (product_id, title, disc, qty_to_list, current_price_cents)
      select 'CAP-' || n, 'Capcount ' || n, 'DVD', 1, 999 from generate_series(1, 10050) as n`);
    const broad = await listRegularTitlesForAdmin(
      db,
      adminListParams(new URLSearchParams({ q: "capcount" }), REGULAR_SORTS),
    );
    expect(broad).toMatchObject({ total: COUNT_CAP, capped: true, pageCount: COUNT_CAP / 20 });
    const narrow = await listRegularTitlesForAdmin(
      db,
      adminListParams(new URLSearchParams({ q: "capcount 9999" }), REGULAR_SORTS),
    );
    expect(narrow).toMatchObject({ total: 1, capped: false });
    await db.execute(sql`delete from regular_titles where product_id like 'CAP-%'`);
  });

  it("deletes for good", async () => {
    const serial = added.pop()!;
    expect(await deleteRegularTitle(db, serial)).toBe(true);
    expect(
      await db.select().from(regularTitles).where(eq(regularTitles.regSerialNo, serial)),
    ).toEqual([]);
    expect(await deleteRegularTitle(db, serial)).toBe(false);
  });
});
