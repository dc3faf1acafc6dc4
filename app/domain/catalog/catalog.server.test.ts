import { count, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { adultTitles, comingSoon, regularTitles, staffPicks } from "#app/db/schema.ts";
import { currentCartProducts } from "#app/domain/cart/current-products.server.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { ADULT_PAGE_SIZE, getAdultTitle, listAdultTitles } from "./adult-titles.server.ts";
import { listComingSoon } from "./coming-soon.server.ts";
import {
  getRegularTitle,
  keptCount,
  listRegularTitles,
  listStaffPicks,
  newArrivals,
  REGULAR_PAGE_SIZE,
  searchRegularTitles,
  suggestRegularTitles,
} from "./regular-titles.server.ts";

const db = testDatabase();

async function regularCount(disc?: string) {
  const [row] = await db
    .select({ total: count() })
    .from(regularTitles)
    .where(disc ? eq(regularTitles.disc, disc as never) : undefined);
  return row!.total;
}

const inCodePointOrder = (titles: string[]) =>
  titles.every(
    (title, index) =>
      index === 0 || Buffer.compare(Buffer.from(titles[index - 1]!), Buffer.from(title)) <= 0,
  );

describe("regular catalogue listing", () => {
  it("pages 24 titles at a time in serial order", async () => {
    const total = await regularCount();
    expect(total).toBeGreaterThanOrEqual(300);
    const first = await listRegularTitles(db, { page: 1, sort: "none" });
    expect(first.items).toHaveLength(REGULAR_PAGE_SIZE);
    expect(first.total).toBe(total);
    expect(first.pageCount).toBe(Math.ceil(total / REGULAR_PAGE_SIZE));
    const serials = first.items.map((item) => item.regSerialNo);
    expect(serials).toEqual([...serials].sort((a, b) => a - b));
    const second = await listRegularTitles(db, { page: 2, sort: "none" });
    expect(second.items[0]!.regSerialNo).toBeGreaterThan(serials.at(-1)!);
  });

  it("clamps a page past the end to the last page", async () => {
    const result = await listRegularTitles(db, { page: 100_000, sort: "none" });
    expect(result.page).toBe(result.pageCount);
    expect(result.items.length).toBeGreaterThan(0);
    expect(result.items.length).toBeLessThanOrEqual(REGULAR_PAGE_SIZE);
  });

  it("filters by disc in the database", async () => {
    for (const disc of ["DVD", "Blu-ray", "4K/Blu-ray", "Collections"] as const) {
      const result = await listRegularTitles(db, { page: 1, disc, sort: "none" });
      expect(result.total).toBe(await regularCount(disc));
      expect(result.total).toBeGreaterThan(0);
      expect(result.items.every((item) => item.disc === disc)).toBe(true);
    }
  });

  it("sorts by title A→Z and Z→A across pages", async () => {
    const az = await listRegularTitles(db, { page: 1, sort: "az" });
    const azNext = await listRegularTitles(db, { page: 2, sort: "az" });
    const titles = [...az.items, ...azNext.items].map((item) => item.title);
    expect(inCodePointOrder(titles)).toBe(true);
    const za = await listRegularTitles(db, { page: 1, sort: "za" });
    expect(inCodePointOrder(za.items.map((item) => item.title).reverse())).toBe(true);
    expect(za.items[0]!.title >= az.items.at(-1)!.title).toBe(true);
  });

  it("gives each card its poster, falling back to the drawn one", async () => {
    const [card] = (await listRegularTitles(db, { page: 1, sort: "none" })).items;
    expect(card!.poster).toBe(`/posters/regular/${card!.regSerialNo}.svg`);
  });
});

describe("kept catalogue counts", () => {
  async function expectCountsExact() {
    for (const disc of [undefined, "DVD", "Blu-ray", "4K/Blu-ray", "Collections"]) {
      expect(await keptCount(db, "regular", disc ?? "")).toBe(await regularCount(disc));
    }
    const [adult] = await db.select({ total: count() }).from(adultTitles);
    expect(await keptCount(db, "adult")).toBe(adult!.total);
  }

  it("match a real count through inserts, disc changes and deletes", async () => {
    await expectCountsExact();
    const inserted = await db
      .insert(regularTitles)
      .values([
        { productId: "C-1", title: "Count Me In", disc: "DVD", currentPriceCents: 500 },
        { productId: "C-2", title: "Count Me Twice", disc: "Collections", currentPriceCents: 500 },
      ])
      .returning({ regSerialNo: regularTitles.regSerialNo });
    await expectCountsExact();
    await db
      .update(regularTitles)
      .set({ disc: "4K/Blu-ray" })
      .where(eq(regularTitles.regSerialNo, inserted[0]!.regSerialNo));
    await expectCountsExact();
    await db.delete(regularTitles).where(
      inArray(
        regularTitles.regSerialNo,
        inserted.map((row) => row.regSerialNo),
      ),
    );
    const [adult] = await db
      .insert(adultTitles)
      .values({ productId: 1, title: "Counted", priceCents: 100 })
      .returning({ id: adultTitles.adultSerialNo });
    await expectCountsExact();
    await db.delete(adultTitles).where(eq(adultTitles.adultSerialNo, adult!.id));
    await expectCountsExact();
  });
});

describe("search", () => {
  it("matches any part of the title, ignoring case, and treats % and _ literally", async () => {
    const [row] = await db
      .insert(regularTitles)
      .values({
        productId: "T-1",
        title: "Zyzzyva Quest: 50% Off_Edition",
        disc: "DVD",
        currentPriceCents: 1000,
      })
      .returning({ regSerialNo: regularTitles.regSerialNo });
    const hits = await searchRegularTitles(db, { query: "zYZZyva", page: 1, sort: "none" });
    expect(hits.items.map((item) => item.regSerialNo)).toEqual([row!.regSerialNo]);
    const percent = await searchRegularTitles(db, { query: "50% off_", page: 1, sort: "none" });
    expect(percent.items.map((item) => item.regSerialNo)).toEqual([row!.regSerialNo]);
    const wildcard = await searchRegularTitles(db, { query: "%", page: 1, sort: "none" });
    expect(wildcard.items.every((item) => item.title.includes("%"))).toBe(true);
    await db.delete(regularTitles).where(eq(regularTitles.regSerialNo, row!.regSerialNo));
  });

  it("suggests at most ten regular titles that contain the text", async () => {
    const suggestions = await suggestRegularTitles(db, "the");
    expect(suggestions).toHaveLength(10);
    expect(suggestions.every((item) => item.title.toLowerCase().includes("the"))).toBe(true);
    expect(await suggestRegularTitles(db, "no title has this text")).toEqual([]);
  });

  it("pages full results sorted by title, either way, and clamps past the end", async () => {
    const results = await searchRegularTitles(db, { query: "the", page: 1, sort: "none" });
    const [matching] = await db
      .select({ total: count() })
      .from(regularTitles)
      .where(sql`${regularTitles.title} ilike '%the%'`);
    expect(results.total).toBe(matching!.total);
    expect(results.items).toHaveLength(24);
    const second = await searchRegularTitles(db, { query: "the", page: 2, sort: "none" });
    const titles = [...results.items, ...second.items].map((item) => item.title);
    expect(inCodePointOrder(titles)).toBe(true);
    expect(new Set([...results.items, ...second.items].map((item) => item.regSerialNo)).size).toBe(
      48,
    );

    const reversed = await searchRegularTitles(db, { query: "the", page: 1, sort: "za" });
    expect(inCodePointOrder(reversed.items.map((item) => item.title).reverse())).toBe(true);

    const past = await searchRegularTitles(db, { query: "the", page: 9999, sort: "none" });
    expect(past.page).toBe(past.pageCount);
    expect(past.items.length).toBeGreaterThan(0);

    const none = await searchRegularTitles(db, {
      query: "no title has this",
      page: 1,
      sort: "none",
    });
    expect(none).toEqual({ items: [], total: 0, page: 1, pageCount: 1 });
  });
});

describe("title pages", () => {
  it("returns the full detail of a title, or nothing", async () => {
    const [first] = (await listRegularTitles(db, { page: 1, sort: "none" })).items;
    const detail = await getRegularTitle(db, first!.regSerialNo);
    expect(detail).toMatchObject({ regSerialNo: first!.regSerialNo, title: first!.title });
    expect(detail!.director).toBeTruthy();
    expect(await getRegularTitle(db, 999_999_999)).toBeUndefined();
  });
});

describe("home rows", () => {
  it("lists the 12 newest arrivals, newest first", async () => {
    const arrivals = await newArrivals(db);
    expect(arrivals).toHaveLength(12);
    const [max] = await db
      .select({ max: sql<number>`max(${regularTitles.regSerialNo})` })
      .from(regularTitles);
    expect(arrivals[0]!.regSerialNo).toBe(max!.max);
  });

  it("lists up to 12 upcoming titles, soonest first, never past ones", async () => {
    const [past] = await db
      .insert(comingSoon)
      .values({ title: "Already Out", releaseDate: "2001-01-01", posterUrl: "/x.svg" })
      .returning({ id: comingSoon.id });
    const upcoming = await listComingSoon(db);
    expect(upcoming.length).toBe(12);
    expect(upcoming.map((entry) => entry.id)).not.toContain(past!.id);
    const dates = upcoming.map((entry) => entry.releaseDate);
    expect(dates).toEqual([...dates].sort());
    expect(dates[0]! >= new Date().toISOString().slice(0, 10)).toBe(true);
    await db.delete(comingSoon).where(eq(comingSoon.id, past!.id));
  });

  it("lists the five staff picks, newest pick first", async () => {
    const picks = await listStaffPicks(db);
    expect(picks).toHaveLength(5);
    const rows = await db
      .select()
      .from(staffPicks)
      .orderBy(sql`${staffPicks.createdAt} desc`);
    expect(picks.map((pick) => pick.regSerialNo)).toEqual(rows.map((row) => row.regSerialNo));
  });
});

describe("adult catalogue", () => {
  it("pages 21 at a time and searches production case-insensitively", async () => {
    const page = await listAdultTitles(db, { page: 1, sort: "none" });
    expect(page.items).toHaveLength(ADULT_PAGE_SIZE);
    expect(page.total).toBeGreaterThanOrEqual(60);
    const found = await listAdultTitles(db, { page: 1, sort: "az", production: "demo REEL" });
    expect(found.total).toBeGreaterThan(0);
    expect(found.items.every((item) => item.production === "Demo Reel Films")).toBe(true);
    expect(inCodePointOrder(found.items.map((item) => item.title))).toBe(true);
  });

  it("shows a title's detail with its year from the release date", async () => {
    const [row] = await db.select().from(adultTitles).limit(1);
    const detail = await getAdultTitle(db, row!.adultSerialNo);
    expect(detail!.year).toBe(Number(row!.releaseDate!.slice(0, 4)));
    expect(await getAdultTitle(db, 999_999_999)).toBeUndefined();
  });
});

describe("re-pricing a stored cart", () => {
  it("answers with catalogue prices, leaves out missing titles, and keeps adult lines for the gate", async () => {
    const [title] = (await listRegularTitles(db, { page: 1, sort: "none" })).items;
    const result = await currentCartProducts(
      db,
      [
        { kind: "regular", serialNo: title!.regSerialNo },
        { kind: "regular", serialNo: 999_999_999 },
        { kind: "adult", serialNo: 1 },
      ],
      { includeAdult: false },
    );
    expect(result.products).toEqual([
      expect.objectContaining({
        kind: "regular",
        serialNo: title!.regSerialNo,
        priceCents: title!.priceCents,
      }),
    ]);
    expect(result.unknown).toEqual(["adult:1"]);
    const verified = await currentCartProducts(db, [{ kind: "adult", serialNo: 1 }], {
      includeAdult: true,
    });
    expect(verified.products).toEqual([expect.objectContaining({ kind: "adult", serialNo: 1 })]);
  });
});
