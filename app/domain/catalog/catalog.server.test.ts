import { count, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { describe, expect, it } from "vitest";
import {
  adultTitles,
  comingSoon,
  regularGenreList,
  regularTitles,
  staffPicks,
} from "#app/db/schema.ts";
import { currentCartProducts } from "#app/domain/cart/current-products.server.ts";
import { shopCalendarDate } from "#app/lib/shop-time.ts";
import { rolledBack as rolledBackIn } from "#tests/support/rolled-back.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { ADULT_PAGE_SIZE, getAdultTitle, listAdultTitles } from "./adult-titles.server.ts";
import {
  catalogueChanged,
  stopWatchingCatalogueChanges,
  watchingCatalogueChanges,
} from "./catalogue-changes.server.ts";
import { listComingSoon } from "./coming-soon.server.ts";
import { SITEMAP_STATIC_PATHS, sitemapFile, sitemapPlan } from "./sitemap.server.ts";
import {
  closestRegularTitle,
  getRegularTitle,
  keptCount,
  keptGenreCount,
  listRegularGenres,
  listRegularTitles,
  listStaffPicks,
  newArrivals,
  otherEditions,
  REGULAR_PAGE_SIZE,
  relatedRegularTitles,
  RELATED_TITLES_LIMIT,
  searchRegularTitles,
  suggestRegularTitles,
} from "./regular-titles.server.ts";

const db = testDatabase();

async function regularCount(disc?: string, from: Database = db) {
  const [row] = await from
    .select({ total: count() })
    .from(regularTitles)
    .where(disc ? eq(regularTitles.disc, disc as never) : undefined);
  return row!.total;
}

const genreListOf = regularGenreList(regularTitles.genres);

const inCodePointOrder = (titles: string[]) =>
  titles.every(
    (title, index) =>
      index === 0 || Buffer.compare(Buffer.from(titles[index - 1]!), Buffer.from(title)) <= 0,
  );

describe("regular catalogue listing", () => {
  it("pages 24 titles at a time in serial order", () =>
    // One snapshot: other test files add and delete titles between the list and the count.
    rolledBackIn(db, (tx) => pagesInSerialOrder(tx), { snapshot: true }));

  async function pagesInSerialOrder(db: Database) {
    const total = await regularCount(undefined, db);
    expect(total).toBeGreaterThanOrEqual(300);
    const first = await listRegularTitles(db, { page: 1, sort: "none" });
    expect(first.items).toHaveLength(REGULAR_PAGE_SIZE);
    expect(first.total).toBe(total);
    expect(first.pageCount).toBe(Math.ceil(total / REGULAR_PAGE_SIZE));
    const serials = first.items.map((item) => item.regSerialNo);
    expect(serials).toEqual([...serials].sort((a, b) => a - b));
    const second = await listRegularTitles(db, { page: 2, sort: "none" });
    expect(second.items[0]!.regSerialNo).toBeGreaterThan(serials.at(-1)!);
  }

  it("clamps a page past the end to the last page", async () => {
    const result = await listRegularTitles(db, { page: 100_000, sort: "none" });
    expect(result.page).toBe(result.pageCount);
    expect(result.items.length).toBeGreaterThan(0);
    expect(result.items.length).toBeLessThanOrEqual(REGULAR_PAGE_SIZE);
  });

  it("filters by disc in the database", () =>
    // One snapshot: other test files add and delete titles between the list and the count.
    rolledBackIn(
      db,
      async (tx) => {
        for (const disc of ["DVD", "Blu-ray", "4K/Blu-ray", "Collections"] as const) {
          const result = await listRegularTitles(tx, { page: 1, disc, sort: "none" });
          expect(result.total).toBe(await regularCount(disc, tx));
          expect(result.total).toBeGreaterThan(0);
          expect(result.items.every((item) => item.disc === disc)).toBe(true);
        }
      },
      { snapshot: true },
    ));

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
    expect(card!.poster).toBe(`/posters/regular/${card!.regSerialNo}-320.webp`);
  });
});

describe("kept catalogue counts", () => {
  /** In one snapshot: other test files add and delete titles between the reads. */
  const expectCountsExact = () =>
    rolledBackIn(db, (tx) => expectCountsExactIn(tx), { snapshot: true });

  async function expectCountsExactIn(db: Database) {
    for (const disc of [undefined, "DVD", "Blu-ray", "4K/Blu-ray", "Collections"]) {
      expect(await keptCount(db, "regular", disc ?? "")).toBe(await regularCount(disc, db));
    }
    const [adult] = await db.select({ total: count() }).from(adultTitles);
    expect(await keptCount(db, "adult")).toBe(adult!.total);
    const genres = await db.execute<{ genre: string; disc: string; total: number }>(sql`
      select genre, d as disc, count(distinct reg_serial_no)::int as total
        from regular_titles,
             unnest(regexp_split_to_array(btrim(genres), '[[:space:]]*,[[:space:]]*')) as genre,
             lateral (values (disc), ('')) as v(d)
       where genre <> '' group by genre, d`);
    const kept = await db.execute<{ genre: string; disc: string; total: number }>(
      sql`select genre, disc, total::int as total from genre_counts where total <> 0`,
    );
    const byKey = (rows: { genre: string; disc: string; total: number }[]) =>
      Object.fromEntries(rows.map((row) => [`${row.genre}|${row.disc}`, row.total]));
    expect(byKey(kept.rows)).toEqual(byKey(genres.rows));
  }

  it("keep each genre's count through genre, disc, price and stock changes", async () => {
    await expectCountsExact();
    const inserted = await db
      .insert(regularTitles)
      .values([
        {
          productId: "G-1",
          title: "Genre One",
          disc: "DVD",
          currentPriceCents: 500,
          genres: "Zz Counted, Drama",
        },
        {
          productId: "G-2",
          title: "Genre Two",
          disc: "Blu-ray",
          currentPriceCents: 500,
          genres: " Zz Counted ,Zz Counted",
        },
        {
          productId: "G-3",
          title: "Genre Three",
          disc: "DVD",
          currentPriceCents: 500,
          genres: null,
        },
      ])
      .returning({ regSerialNo: regularTitles.regSerialNo });
    const ids = inserted.map((row) => row.regSerialNo);
    expect(await keptGenreCount(db, "Zz Counted")).toBe(2);
    expect(await keptGenreCount(db, "Zz Counted", "Blu-ray")).toBe(1);
    await expectCountsExact();
    await db
      .update(regularTitles)
      .set({ qtyToList: 7, currentPriceCents: 900 })
      .where(inArray(regularTitles.regSerialNo, ids));
    await expectCountsExact();
    await db
      .update(regularTitles)
      .set({ genres: "Zz Counted" })
      .where(eq(regularTitles.regSerialNo, ids[2]!));
    await db
      .update(regularTitles)
      .set({ disc: "Collections", genres: "Zz Other" })
      .where(eq(regularTitles.regSerialNo, ids[0]!));
    expect(await keptGenreCount(db, "Zz Counted", "DVD")).toBe(1);
    expect(await keptGenreCount(db, "Zz Other", "Collections")).toBe(1);
    await expectCountsExact();
    await db.delete(regularTitles).where(inArray(regularTitles.regSerialNo, ids));
    expect(await keptGenreCount(db, "Zz Counted")).toBe(0);
    await expectCountsExact();
  });

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

  it("remembers text without a suggestion until the catalogue changes", async () => {
    watchingCatalogueChanges();
    try {
      expect(await suggestRegularTitles(db, "qwxvbnk")).toEqual([]);
      // Added without announcing it (no listener here): the remembered answer still stands.
      const [row] = await db
        .insert(regularTitles)
        .values({ productId: "T-2", title: "Qwxvbnk", disc: "DVD", currentPriceCents: 900 })
        .returning({ regSerialNo: regularTitles.regSerialNo });
      try {
        expect(await suggestRegularTitles(db, "qwxvbnk")).toEqual([]);
        catalogueChanged();
        const found = await suggestRegularTitles(db, "qwxvbnk");
        expect(found.map((item) => item.regSerialNo)).toEqual([row!.regSerialNo]);
      } finally {
        await db.delete(regularTitles).where(eq(regularTitles.regSerialNo, row!.regSerialNo));
      }
    } finally {
      stopWatchingCatalogueChanges();
    }
  });

  it("remembers nothing while no one listens for catalogue changes", async () => {
    expect(await suggestRegularTitles(db, "zqjvwpx")).toEqual([]);
    const [row] = await db
      .insert(regularTitles)
      .values({ productId: "T-3", title: "Zqjvwpx", disc: "DVD", currentPriceCents: 900 })
      .returning({ regSerialNo: regularTitles.regSerialNo });
    try {
      const found = await suggestRegularTitles(db, "zqjvwpx");
      expect(found.map((item) => item.regSerialNo)).toEqual([row!.regSerialNo]);
    } finally {
      await db.delete(regularTitles).where(eq(regularTitles.regSerialNo, row!.regSerialNo));
    }
  });

  it("gives the same result pages from remembered matches, until the catalogue changes", async () => {
    const cases = [
      { query: "the", page: 1, sort: "none" },
      { query: "the", page: 3, sort: "az" },
      { query: "the", page: 2, sort: "za" },
      { query: "the", page: 999, sort: "za" },
      { query: "man", page: 2, sort: "az" },
      { query: "godfathr", page: 1, sort: "none" },
      { query: "no title has this", page: 1, sort: "az" },
    ] as const;
    const looked = [];
    for (const options of cases) looked.push(await searchRegularTitles(db, options));
    watchingCatalogueChanges();
    try {
      for (const [index, options] of cases.entries()) {
        for (const attempt of ["first", "remembered"]) {
          expect(
            await searchRegularTitles(db, options),
            `${attempt} ${JSON.stringify(options)}`,
          ).toEqual(looked[index]);
        }
      }
      const [row] = await db
        .insert(regularTitles)
        .values({ productId: "T-4", title: "!!! The First", disc: "DVD", currentPriceCents: 900 })
        .returning({ regSerialNo: regularTitles.regSerialNo });
      try {
        const before = looked[0]!;
        expect(await searchRegularTitles(db, cases[0])).toEqual(before);
        catalogueChanged();
        const after = await searchRegularTitles(db, cases[0]);
        expect(after.total).toBe(before.total + 1);
        expect(after.items[0]!.regSerialNo).toBe(row!.regSerialNo);
      } finally {
        await db.delete(regularTitles).where(eq(regularTitles.regSerialNo, row!.regSerialNo));
      }
    } finally {
      stopWatchingCatalogueChanges();
    }
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
    expect(none).toEqual({ items: [], total: 0, page: 1, pageCount: 1, match: "contains" });
  });
});

const rolledBack = (work: (tx: Database) => Promise<void>) => rolledBackIn(db, work);

describe("finding films by director, cast and despite typos", () => {
  /** The regular titles whose director or cast contains the text, straight from the table. */
  async function byPerson(column: "director" | "cast", text: string) {
    return db
      .select({ regSerialNo: regularTitles.regSerialNo, title: regularTitles.title })
      .from(regularTitles)
      .where(sql`${regularTitles[column]} ilike ${`%${text}%`}`)
      .orderBy(regularTitles.regSerialNo);
  }

  it("suggests a director's films, in catalogue order, with disc, price and stock", async () => {
    const films = await byPerson("director", "spielberg");
    expect(films.length).toBeGreaterThan(10);
    const suggestions = await suggestRegularTitles(db, "SPIELBERG");
    expect(suggestions.map((item) => item.regSerialNo)).toEqual(
      films.slice(0, 10).map((film) => film.regSerialNo),
    );
    const [jaws] = suggestions;
    const [row] = await db
      .select()
      .from(regularTitles)
      .where(eq(regularTitles.regSerialNo, jaws!.regSerialNo));
    expect(jaws).toEqual({
      regSerialNo: row!.regSerialNo,
      title: row!.title,
      disc: row!.disc,
      priceCents: row!.currentPriceCents,
      inStock: row!.qtyToList > 0,
    });
  });

  it("lists titles containing the text before titles whose people contain it", () =>
    rolledBack(async (db) => {
      // "Lincoln" is a film title; this title holds it only in its director's name.
      const [row] = await db
        .insert(regularTitles)
        .values({
          productId: "P-1",
          title: "A Quiet Portrait",
          director: "Abraham Lincolnshire",
          disc: "DVD",
          currentPriceCents: 900,
        })
        .returning({ regSerialNo: regularTitles.regSerialNo });
      const suggestions = await suggestRegularTitles(db, "lincoln");
      const titled = suggestions.filter((item) => item.title.toLowerCase().includes("lincoln"));
      expect(titled.length).toBeGreaterThan(0);
      expect(suggestions.slice(0, titled.length)).toEqual(titled);
      expect(suggestions.at(-1)!.regSerialNo).toBe(row!.regSerialNo);
    }));

  it("finds every film of a director and of an actor on the results page", async () => {
    const films = await byPerson("director", "spielberg");
    const results = await searchRegularTitles(db, { query: "spielberg", page: 1, sort: "az" });
    expect(results.match).toBe("contains");
    expect(results.total).toBe(films.length);
    expect(results.items.map((item) => item.regSerialNo).sort((a, b) => a - b)).toEqual(
      films.map((film) => film.regSerialNo),
    );

    const hanks = await byPerson("cast", "tom hanks");
    expect(hanks.length).toBeGreaterThan(1);
    const cast = await searchRegularTitles(db, { query: "Tom Hanks", page: 1, sort: "none" });
    expect(cast.total).toBe(hanks.length);
    expect(new Set(cast.items.map((item) => item.title))).toEqual(
      new Set(hanks.map((film) => film.title)),
    );
    const suggested = await suggestRegularTitles(db, "tom hanks");
    expect(suggested.map((item) => item.regSerialNo)).toEqual(
      hanks.slice(0, 10).map((film) => film.regSerialNo),
    );
    // Text this short is a title search only (it is inside too many names).
    const short = await searchRegularTitles(db, { query: "eth", page: 1, sort: "none" });
    expect(short.items.every((item) => item.title.toLowerCase().includes("eth"))).toBe(true);
  });

  it("tolerates small typos in a title or a director's name", async () => {
    const godfather = await suggestRegularTitles(db, "godfathr");
    expect(godfather[0]!.title).toBe("The Godfather");
    expect(godfather.every((item) => item.title.includes("Godfather"))).toBe(true);

    const results = await searchRegularTitles(db, { query: "godfathr", page: 1, sort: "none" });
    expect(results.match).toBe("similar");
    expect(results.items[0]!.title).toBe("The Godfather");
    expect(results.total).toBe(3);

    const director = await searchRegularTitles(db, { query: "spielburg", page: 1, sort: "az" });
    expect(director.match).toBe("similar");
    expect(director.total).toBe((await byPerson("director", "spielberg")).length);
    expect(director.items.map((item) => item.title)).toContain("Jaws");
    const kubrick = await suggestRegularTitles(db, "kubrik");
    expect(kubrick.map((item) => item.title)).toContain("2001: A Space Odyssey");

    // Unrelated text stays unmatched rather than matching anything at all.
    expect(await suggestRegularTitles(db, "xqzvw")).toEqual([]);
  });

  it("offers the closest title as a spelling hint, and none for gibberish", async () => {
    expect(await closestRegularTitle(db, "godfxxhr")).toBe("The Godfather");
    expect(await closestRegularTitle(db, "casablanka")).toBe("Casablanca");
    expect(await closestRegularTitle(db, "casablanca")).toBeUndefined();
    expect(await closestRegularTitle(db, "xqzvw")).toBeUndefined();
    const none = await searchRegularTitles(db, { query: "godfxxhr", page: 1, sort: "none" });
    expect(none.total).toBe(0);
  });

  it("never lists adult titles in the regular search", () =>
    rolledBack(async (db) => {
      await db
        .insert(adultTitles)
        .values({ productId: 2, title: "Quorvex Spielberg Nights", priceCents: 100 });
      expect(await suggestRegularTitles(db, "quorvex")).toEqual([]);
      expect(await suggestRegularTitles(db, "quorvx")).toEqual([]);
      const results = await searchRegularTitles(db, { query: "quorvex", page: 1, sort: "none" });
      expect(results.total).toBe(0);
      const spielberg = await searchRegularTitles(db, { query: "spielberg", page: 1, sort: "az" });
      expect(spielberg.items.map((item) => item.title)).not.toContain("Quorvex Spielberg Nights");
      expect(await closestRegularTitle(db, "quorvex nights")).not.toBe("Quorvex Spielberg Nights");
    }));
});

describe("catalogue genre filter and sorts", () => {
  it("lists the genres the catalogue holds, A→Z", async () => {
    const genres = await listRegularGenres(db);
    expect(genres).toContain("Science Fiction");
    expect(genres).toContain("Western");
    expect(genres).toEqual([...genres].sort());
    expect(new Set(genres).size).toBe(genres.length);
  });

  it("lists a genre while a title has it, and no longer once none does", () =>
    rolledBack(async (db) => {
      expect(await listRegularGenres(db)).not.toContain("Zzyzx Noir");
      const [title] = await db
        .insert(regularTitles)
        .values({
          productId: "G-2",
          title: "Genre Newcomer",
          genres: "Zzyzx Noir, Western",
          disc: "DVD",
          currentPriceCents: 900,
        })
        .returning({ regSerialNo: regularTitles.regSerialNo });
      expect(await listRegularGenres(db)).toContain("Zzyzx Noir");
      await db.delete(regularTitles).where(eq(regularTitles.regSerialNo, title!.regSerialNo));
      const genres = await listRegularGenres(db);
      expect(genres).not.toContain("Zzyzx Noir");
      expect(genres).toContain("Western");
    }));

  it("filters by a whole genre, with the disc filter, counting exactly", () =>
    rolledBack(async (db) => {
      const [lookalike] = await db
        .insert(regularTitles)
        .values({
          productId: "G-1",
          title: "Genre Lookalike",
          genres: "Docudrama,  Romance",
          disc: "DVD",
          currentPriceCents: 900,
        })
        .returning({ regSerialNo: regularTitles.regSerialNo });
      const everyTitle = await db.select({ genres: regularTitles.genres }).from(regularTitles);
      const dramas = everyTitle.filter((row) =>
        (row.genres ?? "").split(/\s*,\s*/).includes("Drama"),
      ).length;
      const result = await listRegularTitles(db, { page: 1, genre: "Drama", sort: "none" });
      expect(result.total).toBe(dramas);
      expect(result.items).toHaveLength(REGULAR_PAGE_SIZE);
      expect(result.items.every((item) => item.genres!.split(", ").includes("Drama"))).toBe(true);
      const all = await listRegularTitles(db, {
        page: result.pageCount,
        genre: "Drama",
        sort: "none",
      });
      expect(all.items.map((item) => item.regSerialNo)).not.toContain(lookalike!.regSerialNo);

      // Extra spaces around the comma still separate genres; the newest title is on the last page.
      const romance = await listRegularTitles(db, {
        page: 1_000,
        genre: "Romance",
        disc: "DVD",
        sort: "none",
      });
      expect(romance.items.every((item) => item.disc === "DVD")).toBe(true);
      expect(romance.items.at(-1)!.regSerialNo).toBe(lookalike!.regSerialNo);

      const unknown = await listRegularTitles(db, { page: 1, genre: "Dram", sort: "none" });
      expect(unknown.total).toBe(0);
    }));

  it("sorts by price either way and by newest release, across pages", async () => {
    const pages = async (sort: "price-asc" | "price-desc" | "newest") => {
      const first = await listRegularTitles(db, { page: 1, sort });
      const second = await listRegularTitles(db, { page: 2, sort });
      return [...first.items, ...second.items];
    };
    const cheap = (await pages("price-asc")).map((item) => item.priceCents);
    expect(cheap).toEqual([...cheap].sort((a, b) => a - b));
    const dear = (await pages("price-desc")).map((item) => item.priceCents);
    expect(dear).toEqual([...dear].sort((a, b) => b - a));
    expect(dear[0]!).toBeGreaterThan(cheap[0]!);
    const years = (await pages("newest")).map((item) => item.releaseYear ?? 0);
    expect(years).toEqual([...years].sort((a, b) => b - a));
    const [latest] = await db
      .select({ year: sql<number>`max(${regularTitles.releaseYear})` })
      .from(regularTitles);
    expect(years[0]).toBe(latest!.year);
  });
});

describe("title pages", () => {
  it("lists a film's other editions with their discs and prices", async () => {
    const [pair] = (
      await db.execute<{ first: number; second: number }>(sql`
        select min(reg_serial_no) as first, max(reg_serial_no) as second from ${regularTitles}
        group by title having count(*) = 2 order by title limit 1`)
    ).rows;
    const [second] = await db
      .select()
      .from(regularTitles)
      .where(eq(regularTitles.regSerialNo, pair!.second));
    expect(await otherEditions(db, pair!.first)).toEqual([
      {
        regSerialNo: second!.regSerialNo,
        disc: second!.disc,
        priceCents: second!.currentPriceCents,
      },
    ]);
    const [single] = (
      await db.execute<{ serial: number }>(sql`
        select min(reg_serial_no) as serial from ${regularTitles}
        group by title having count(*) = 1 order by title limit 1`)
    ).rows;
    expect(await otherEditions(db, single!.serial)).toEqual([]);
    expect(await otherEditions(db, 999_999_999)).toEqual([]);
  });

  it("returns the full detail of a title, or nothing", async () => {
    const [first] = (await listRegularTitles(db, { page: 1, sort: "none" })).items;
    const detail = await getRegularTitle(db, first!.regSerialNo);
    expect(detail).toMatchObject({ regSerialNo: first!.regSerialNo, title: first!.title });
    expect(detail!.director).toBeTruthy();
    expect(await getRegularTitle(db, 999_999_999)).toBeUndefined();
  });

  it("relates up to six other films by director, then by shared genres, each film once", async () => {
    await rolledBack(async (tx) => {
      const film = (title: string, extra: Partial<typeof regularTitles.$inferInsert> = {}) => ({
        productId: `R-${title}`,
        title,
        disc: "DVD" as const,
        currentPriceCents: 1200,
        qtyToList: 5,
        ...extra,
      });
      const rows = await tx
        .insert(regularTitles)
        .values([
          film("Quillon Alpha", { director: "Wendeline Quarrix", genres: "Quillpunk, Quillnoir" }),
          film("Quillon Alpha", { disc: "Blu-ray", genres: "Quillpunk, Quillnoir" }),
          film("Quillon Bravo", { director: "Wendeline Quarrix", genres: "Western" }),
          film("Quillon Charlie", { genres: "Quillnoir, Quillpunk" }),
          film("Quillon Charlie", { disc: "4K/Blu-ray", genres: "Quillnoir, Quillpunk" }),
          film("Quillon Delta", { genres: "Quillpunk" }),
          film("Quillon Echo", { director: "Someone Else", genres: "Western" }),
        ])
        .returning({ regSerialNo: regularTitles.regSerialNo, title: regularTitles.title });
      const [alpha, , bravo, charlie, , delta] = rows;
      const detail = (await getRegularTitle(tx, alpha!.regSerialNo))!;
      const related = await relatedRegularTitles(tx, detail);
      const serials = related.map((title) => title.regSerialNo);
      const titles = related.map((title) => title.title);
      // Its own Blu-ray is an edition, not a related film; Charlie shows once, not per disc.
      expect(titles).not.toContain("Quillon Alpha");
      expect(titles.filter((title) => title === "Quillon Charlie")).toHaveLength(1);
      expect(titles).not.toContain("Quillon Echo");
      // Same director first, then all genres shared (Charlie), then any shared (Delta).
      expect(serials.slice(0, 2)).toEqual([bravo!.regSerialNo, charlie!.regSerialNo]);
      expect(serials).toContain(delta!.regSerialNo);
      expect(related.length).toBeLessThanOrEqual(RELATED_TITLES_LIMIT);

      await tx
        .insert(regularTitles)
        .values(
          Array.from({ length: 8 }, (_, i) => film(`Quillon More ${i}`, { genres: "Quillpunk" })),
        );
      const many = await relatedRegularTitles(tx, detail);
      expect(many).toHaveLength(RELATED_TITLES_LIMIT);
      expect(new Set(many.map((title) => title.title)).size).toBe(RELATED_TITLES_LIMIT);

      const loner = (await getRegularTitle(tx, bravo!.regSerialNo))!;
      expect(
        (await relatedRegularTitles(tx, { ...loner, director: null, genres: null })).length,
      ).toBe(0);
    });
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
    const today = shopCalendarDate(new Date(), "America/Chicago");
    const upcoming = await listComingSoon(db, today);
    expect(upcoming.length).toBe(12);
    expect(upcoming.map((entry) => entry.id)).not.toContain(past!.id);
    const dates = upcoming.map((entry) => entry.releaseDate);
    expect(dates).toEqual([...dates].sort());
    expect(dates[0]! >= today).toBe(true);
    await db.delete(comingSoon).where(eq(comingSoon.id, past!.id));
  });

  it("keeps an upcoming title through its release day in the shop's calendar, whatever the database's", async () => {
    const entries = await db
      .insert(comingSoon)
      .values(
        ["2099-06-09", "2099-06-10", "2099-06-11"].map((releaseDate) => ({
          title: `Release ${releaseDate}`,
          releaseDate,
          posterUrl: "/x.svg",
        })),
      )
      .returning({ id: comingSoon.id });
    // The shop's calendar says 10 June; the database's clock (any zone) is years before it.
    const upcoming = await listComingSoon(db, "2099-06-10");
    expect(upcoming.map((entry) => entry.releaseDate)).toEqual(["2099-06-10", "2099-06-11"]);
    await db.delete(comingSoon).where(
      inArray(
        comingSoon.id,
        entries.map((entry) => entry.id),
      ),
    );
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

describe("deep catalogue pages", () => {
  const ORDERS = {
    none: "reg_serial_no",
    az: "title, reg_serial_no",
    za: "title desc, reg_serial_no desc",
    "price-asc": "current_price_cents, reg_serial_no",
    "price-desc": "current_price_cents desc, reg_serial_no desc",
    newest: "release_year desc nulls last, reg_serial_no desc nulls last",
  } as const;

  it("are the same titles as a plain walk from the start, for every sort and filter", async () => {
    await rolledBack(async (tx) => {
      // Enough titles that deep pages are looked up from the end of the list.
      await tx.execute(sql`
        insert into regular_titles (product_id, title, disc, current_price_cents, release_year, genres)
        select 'DEEP-' || n, 'Deep ' || (n * 7919 % 3001), (array['DVD','Blu-ray'])[1 + n % 2],
               100 * (n % 37), case when n % 11 = 0 then null else 1950 + n % 70 end,
               case when n % 3 = 0 then 'Drama, Deep' else 'Comedy' end
        from generate_series(1, 6000) as n`);
      const check = async (label: string) => {
        for (const [sort, order] of Object.entries(ORDERS)) {
          for (const filter of [
            {},
            { disc: "DVD" as const },
            { genre: "Deep" },
            { genre: "Deep", disc: "Blu-ray" as const },
          ]) {
            const where = sql.raw(
              "genre" in filter
                ? `where genres = 'Drama, Deep'${"disc" in filter ? ` and disc = '${filter.disc}'` : ""}`
                : "disc" in filter
                  ? `where disc = '${filter.disc}'`
                  : "",
            );
            const first = await listRegularTitles(tx, { page: 1, sort: sort as never, ...filter });
            // The middle pages start after a remembered anchor where the server listens for
            // changes (more than 2,400 titles from either end), the others from an end.
            for (const share of [1, 0.99, 0.6, 0.5, 0.4]) {
              const page = Math.ceil(first.pageCount * share);
              const listed = await listRegularTitles(tx, { page, sort: sort as never, ...filter });
              const walked = await tx.execute<{ reg_serial_no: number }>(
                sql`select reg_serial_no from regular_titles ${where} order by ${sql.raw(order)}
                    offset ${(page - 1) * REGULAR_PAGE_SIZE} limit ${REGULAR_PAGE_SIZE}`,
              );
              expect(
                listed.items.map((item) => item.regSerialNo),
                `${label}: ${sort} ${JSON.stringify(filter)} page ${page}`,
              ).toEqual(walked.rows.map((row) => row.reg_serial_no));
            }
          }
        }
      };
      await check("walked");
      watchingCatalogueChanges();
      try {
        // A generation of its own: nothing remembered by another test is used here.
        catalogueChanged();
        await check("anchors taken");
        await check("anchors remembered");
      } finally {
        stopWatchingCatalogueChanges();
      }
    });
  });

  it("follow a genre's titles in price order through price, genre, disc changes and deletes", async () => {
    await rolledBack(async (tx) => {
      await tx.execute(sql`
        insert into regular_titles (product_id, title, disc, current_price_cents, genres)
        select 'MOVE-' || n, 'Move ' || n, (array['DVD','Blu-ray'])[1 + n % 2], 100 * (n % 13),
               case when n % 2 = 0 then ' Heist ,Drama,Heist' else 'Comedy' end
        from generate_series(1, 3000) as n`);
      const check = async (label: string) => {
        for (const sort of ["price-asc", "price-desc"] as const) {
          for (const disc of [undefined, "DVD" as const]) {
            const first = await listRegularTitles(tx, { page: 1, sort, genre: "Heist", disc });
            for (const page of [1, 2, Math.ceil(first.pageCount * 0.6), first.pageCount]) {
              const listed = await listRegularTitles(tx, { page, sort, genre: "Heist", disc });
              const walked = await tx.execute<{ reg_serial_no: number }>(sql`
                select reg_serial_no from regular_titles
                where ${genreListOf} @> array['Heist']::text[]
                  and (${disc ?? null}::text is null or disc = ${disc ?? null})
                order by ${sql.raw(ORDERS[sort])}
                offset ${(page - 1) * REGULAR_PAGE_SIZE} limit ${REGULAR_PAGE_SIZE}`);
              expect(
                listed.items.map((item) => item.regSerialNo),
                `${label}: ${sort} ${disc ?? "any disc"} page ${page}`,
              ).toEqual(walked.rows.map((row) => row.reg_serial_no));
            }
          }
        }
      };
      await check("inserted");
      await tx.execute(sql`update regular_titles set current_price_cents = 5000 - current_price_cents
        where product_id like 'MOVE-%' and right(product_id, 1) in ('2', '4')`);
      await check("prices changed");
      await tx.execute(
        sql`update regular_titles set genres = 'Heist' where product_id like 'MOVE-%1'`,
      );
      await tx.execute(
        sql`update regular_titles set genres = 'Drama' where product_id like 'MOVE-%6'`,
      );
      await tx.execute(sql`update regular_titles set disc = 'DVD' where product_id like 'MOVE-%8'`);
      await check("genres and discs changed");
      await tx.execute(sql`update regular_titles set qty_to_list = qty_to_list + 1
        where product_id like 'MOVE-%'`);
      await tx.execute(sql`delete from regular_titles where product_id like 'MOVE-%0'`);
      await check("stock changed and titles deleted");
    });
  });
});

describe("the sitemap", () => {
  it("lists every public page and regular title in one file while they fit", () =>
    // One snapshot: other test files add and delete titles between the plan and the count.
    rolledBackIn(
      db,
      async (tx) => {
        const plan = await sitemapPlan(tx);
        expect(plan.kind).toBe("single");
        const paths = plan.kind === "single" ? plan.paths : [];
        expect(paths.slice(0, SITEMAP_STATIC_PATHS.length)).toEqual(SITEMAP_STATIC_PATHS);
        expect(paths.length - SITEMAP_STATIC_PATHS.length).toBe(await regularCount(undefined, tx));
      },
      { snapshot: true },
    ));

  it("becomes an index of files by serial range past the limit, listing each title once", () =>
    // One snapshot throughout: other test files add and delete titles meanwhile.
    rolledBackIn(
      db,
      async (db) => {
        const perFile = 100;
        const plan = await sitemapPlan(db, perFile);
        expect(plan.kind).toBe("index");
        const files = plan.kind === "index" ? plan.files : [];
        // The first file (the public pages), then only the ranges that hold a title, in order.
        const ranges = await db.execute<{ file: number }>(
          sql`select distinct (reg_serial_no - 1) / ${perFile} + 1 as file from regular_titles
          order by file`,
        );
        expect(files).toEqual([...new Set([1, ...ranges.rows.map((row) => Number(row.file))])]);
        const listed: string[] = [];
        for (const file of files) {
          const paths = await sitemapFile(db, file, perFile);
          const titles = paths.filter((path) => path.startsWith("/movies/"));
          expect(titles.length).toBeLessThanOrEqual(perFile);
          if (file === 1)
            expect(paths.slice(0, SITEMAP_STATIC_PATHS.length)).toEqual(SITEMAP_STATIC_PATHS);
          else {
            expect(paths).toEqual(titles);
            expect(titles.length, `file ${file}`).toBeGreaterThan(0);
          }
          listed.push(...titles);
        }
        const all = await db.execute<{ serial: number }>(
          sql`select reg_serial_no as serial from regular_titles order by reg_serial_no`,
        );
        expect(listed).toEqual(all.rows.map((row) => `/movies/${row.serial}`));
      },
      { snapshot: true },
    ));

  it("skips the empty ranges of a catalogue numbered far apart", () =>
    // Far past every serial: other test files add titles meanwhile, each next to the last.
    rolledBackIn(db, async (tx) => {
      const [{ last }] = (
        await tx.execute<{ last: number }>(
          sql`select coalesce(max(reg_serial_no), 0)::int as last from regular_titles`,
        )
      ).rows as [{ last: number }];
      const far = (Math.floor(last / 100) + 30_000) * 100 + 50;
      await tx.insert(regularTitles).values({
        regSerialNo: far,
        productId: "R-FAR-AWAY",
        title: "Faraway Serial",
        disc: "DVD",
        currentPriceCents: 999,
        qtyToList: 1,
      });
      const perFile = 100;
      const plan = await sitemapPlan(tx, perFile);
      const files = plan.kind === "index" ? plan.files : [];
      // Thirty thousand ranges lie between, none of them listed.
      expect(files.at(-1)).toBe(Math.ceil(far / perFile));
      expect(files.at(-2)).toBeLessThan(Math.ceil(far / perFile) - 1);
      expect(files.length).toBeLessThan(1_000);
      expect(await sitemapFile(tx, Math.ceil(far / perFile), perFile)).toEqual([`/movies/${far}`]);
    }));
});
