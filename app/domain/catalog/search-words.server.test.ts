import { eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import { regularTitles } from "#app/db/schema.ts";
import { rolledBack as rolledBackIn } from "#tests/support/rolled-back.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import {
  closestRegularTitle,
  searchRegularTitles,
  suggestRegularTitles,
} from "./regular-titles.server.ts";

const db = testDatabase();

const rolledBack = (work: (tx: Database) => Promise<void>) => rolledBackIn(db, work);

/**
 * The kept words that differ from the same counted again from every title, in one statement:
 * other test files add and delete titles meanwhile, and one snapshot sees both consistent.
 */
async function keptUnlikeCounted(tx: Database) {
  const { rows } = await tx.execute(sql`
    with counted as (
      select w.word, (count(*) filter (where w.in_title))::int as titles, count(*)::int as total
      from regular_titles r, lateral title_words(r.title, r.director, r."cast") w
      group by w.word)
    select word, k.titles as kept_titles, c.titles, k.total as kept_total, c.total
    from search_words k full join counted c using (word)
    where (k.titles, k.total) is distinct from (c.titles, c.total)`);
  return rows;
}

/** The search's copy of the titles (regular_title_search) where it differs from the titles. */
async function copyUnlikeTitles(tx: Database) {
  const { rows } = await tx.execute(sql`
    select coalesce(r.reg_serial_no, c.reg_serial_no) as serial, r.title, c.title as copied
    from regular_titles r full join regular_title_search c using (reg_serial_no)
    where (r.title, r.director, r."cast") is distinct from (c.title, c.director, c."cast")`);
  return rows;
}

const title = (name: string, director: string | null = null, cast: string | null = null) => ({
  productId: "P-words",
  title: name,
  director,
  cast,
  disc: "DVD" as const,
  currentPriceCents: 900,
});

describe("the catalogue's words and the search's copy of the titles", () => {
  it("stay exactly the titles' through any adds, edits, renumbering, imports and deletes", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({
              op: fc.constant("add" as const),
              names: fc.array(fc.constantFrom("Zorb Quix", "zorb-fen", "Hal Zorb 2"), {
                minLength: 1,
                maxLength: 3,
              }),
            }),
            fc.record({
              op: fc.constant("edit" as const),
              pick: fc.nat(),
              field: fc.constantFrom("title" as const, "director" as const, "cast" as const),
              text: fc.constantFrom("Quix Fen", "ZORB", "Wemberly Fax, Quix", ""),
            }),
            fc.record({ op: fc.constant("stock" as const), pick: fc.nat() }),
            // Several titles rewritten by one statement, as an import updates them.
            fc.record({
              op: fc.constant("import" as const),
              picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
              text: fc.constantFrom("Quix Fen", "Zorb Zorb", "Hal Quix 2"),
            }),
            // Two titles' names swapped in one statement: the words are the same, their titles
            // are not.
            fc.record({ op: fc.constant("swap" as const), a: fc.nat(), b: fc.nat() }),
            fc.record({ op: fc.constant("renumber" as const), pick: fc.nat() }),
            fc.record({ op: fc.constant("delete" as const), pick: fc.nat() }),
          ),
          { maxLength: 12 },
        ),
        async (steps) =>
          rolledBack(async (tx) => {
            const added: number[] = [];
            const pick = (n: number) => added[n % added.length]!;
            for (const step of steps) {
              if (step.op === "add") {
                // One statement for several titles, as an import writes them.
                const rows = await tx
                  .insert(regularTitles)
                  .values(step.names.map((name) => title(name, "Ada Quix", "Fen Lowe")))
                  .returning({ serial: regularTitles.regSerialNo });
                added.push(...rows.map((row) => row.serial));
              } else if (added.length === 0) {
                continue;
              } else if (step.op === "edit") {
                const text = step.field === "title" ? step.text || "Untitled" : step.text || null;
                await tx
                  .update(regularTitles)
                  .set({ [step.field]: text })
                  .where(eq(regularTitles.regSerialNo, pick(step.pick)));
              } else if (step.op === "stock") {
                await tx
                  .update(regularTitles)
                  .set({ qtyToList: sql`${regularTitles.qtyToList} + 1` })
                  .where(eq(regularTitles.regSerialNo, pick(step.pick)));
              } else if (step.op === "import") {
                const serials = [...new Set(step.picks.map(pick))];
                await tx
                  .insert(regularTitles)
                  .values(
                    serials.map((serial, i) => ({
                      ...title(`${step.text} ${i}`, null, "Fen Lowe"),
                      regSerialNo: serial,
                    })),
                  )
                  .onConflictDoUpdate({
                    target: regularTitles.regSerialNo,
                    set: {
                      title: sql`excluded.title`,
                      director: sql`excluded.director`,
                      cast: sql`excluded."cast"`,
                    },
                  });
              } else if (step.op === "swap") {
                const [a, b] = [pick(step.a), pick(step.b)];
                await tx.execute(sql`
                  update regular_titles as r
                     set title = o.title, director = o.director, "cast" = o."cast"
                    from regular_titles as o
                   where (r.reg_serial_no, o.reg_serial_no) in ((${a}::int, ${b}::int), (${b}::int, ${a}::int))`);
              } else if (step.op === "renumber") {
                const serial = pick(step.pick);
                const [moved] = await tx
                  .update(regularTitles)
                  .set({ regSerialNo: sql`-${regularTitles.regSerialNo}` })
                  .where(eq(regularTitles.regSerialNo, serial))
                  .returning({ serial: regularTitles.regSerialNo });
                added.splice(added.indexOf(serial), 1, moved!.serial);
              } else {
                const gone = pick(step.pick);
                await tx.delete(regularTitles).where(eq(regularTitles.regSerialNo, gone));
                added.splice(added.indexOf(gone), 1);
              }
            }
            expect(await keptUnlikeCounted(tx)).toEqual([]);
            expect(await copyUnlikeTitles(tx)).toEqual([]);
          }),
      ),
      { numRuns: 25 },
    ));
});

describe("the words of an import", () => {
  it("are written once per statement, however many of its titles share them", () =>
    rolledBack(async (tx) => {
      const names = Array.from({ length: 40 }, (_, i) => `Quix Fen ${i}`);
      const rows = await tx
        .insert(regularTitles)
        .values(names.map((name) => title(name)))
        .returning({ serial: regularTitles.regSerialNo });
      const written = async () => {
        const { rows: counts } = await tx.execute<{ written: number }>(sql`
          select (pg_stat_get_xact_tuples_inserted('search_words'::regclass)
                  + pg_stat_get_xact_tuples_updated('search_words'::regclass))::int as written`);
        return counts[0]!.written;
      };
      const before = await written();
      // Every title gains one word, as a file of changed titles gives it: one statement.
      await tx
        .insert(regularTitles)
        .values(
          rows.map((row, i) => ({ ...title(`Wemberlyx ${names[i]}`), regSerialNo: row.serial })),
        )
        .onConflictDoUpdate({
          target: regularTitles.regSerialNo,
          set: { title: sql`excluded.title` },
        });
      // The one new word's row, written once (counted per title, it was written 40 times, each
      // time at the end of a longer chain of its own versions); the words kept are not written.
      expect((await written()) - before).toBe(1);
      expect(await keptUnlikeCounted(tx)).toEqual([]);
    }));
});

describe("searching with few letters or with typos", () => {
  /** The first ten titles holding the text, in catalogue order, straight from the table. */
  async function holding(tx: Database, text: string) {
    const rows = await tx.execute<{ serial: number }>(sql`
      select reg_serial_no as serial from regular_titles
      where title ilike ${`%${text}%`} order by reg_serial_no limit 10`);
    return rows.rows.map((row) => row.serial);
  }

  it("suggests the titles holding one or two letters, rare or common, in catalogue order", () =>
    rolledBack(async (tx) => {
      // At the end of the catalogue, in a longer word and in a word of their own.
      await tx
        .insert(regularTitles)
        .values([title("Aqvarium Nights"), title("The Big Qv"), title("Deep Aqvarium")]);
      for (const text of ["qv", "QV", "q", "an", "e", "x", "qj"]) {
        const suggested = await suggestRegularTitles(tx, text);
        expect(
          suggested.map((item) => item.regSerialNo),
          text,
        ).toEqual(await holding(tx, text));
      }
      expect((await suggestRegularTitles(tx, "qv")).map((item) => item.title)).toEqual([
        "Aqvarium Nights",
        "The Big Qv",
        "Deep Aqvarium",
      ]);
      // Only through words of titles: a director's word is not a title's.
      await tx.insert(regularTitles).values(title("Plain Story", "Ozqw Lane"));
      expect(await suggestRegularTitles(tx, "zq")).toEqual([]);
    }));

  it("respells each word of a longer text, keeping what is between them", () =>
    rolledBack(async (tx) => {
      await tx
        .insert(regularTitles)
        .values([
          title("Glaverin Harbourne: Part Two"),
          title("Glaverin Harbourne"),
          title("Harbourne"),
        ]);
      const results = await searchRegularTitles(tx, {
        query: "glaverine harbourn: part two",
        page: 1,
        sort: "az",
      });
      expect(results.match).toBe("similar");
      expect(results.items.map((item) => item.title)).toEqual(["Glaverin Harbourne: Part Two"]);
      const suggested = await suggestRegularTitles(tx, "Glaverinn Harbourn");
      expect(suggested.map((item) => item.title)).toEqual([
        "Glaverin Harbourne: Part Two",
        "Glaverin Harbourne",
      ]);
      // A word with nothing close leaves the whole text unmatched.
      expect(await suggestRegularTitles(tx, "glaverinn xqzvwj")).toEqual([]);
      expect(await closestRegularTitle(tx, "glaverinn harbourn")).toBe("Glaverin Harbourne");
    }));

  it("forgets a title's words with the title, so a typo no longer leads to it", () =>
    rolledBack(async (tx) => {
      const [added] = await tx
        .insert(regularTitles)
        .values(title("Glimmerquartz"))
        .returning({ serial: regularTitles.regSerialNo });
      expect((await suggestRegularTitles(tx, "glimerquartz")).map((item) => item.title)).toEqual([
        "Glimmerquartz",
      ]);
      await tx.delete(regularTitles).where(inArray(regularTitles.regSerialNo, [added!.serial]));
      const words = await tx.execute(
        sql`select word from search_words where word = 'glimmerquartz'`,
      );
      expect(words.rows).toEqual([]);
      expect(await suggestRegularTitles(tx, "glimerquartz")).toEqual([]);
    }));
});
