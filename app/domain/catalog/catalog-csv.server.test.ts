import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { and, eq, gte, like, lt, or, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Transaction } from "#app/db/client.server.ts";
import { adultTitles, catalogueCounts, regularTitles, storeItems } from "#app/db/schema.ts";
import { barcodeOf, setBarcode } from "#app/domain/stock/barcodes.server.ts";
import { stockLedger } from "#app/domain/stock/ledger.server.ts";
import { freshBarcode } from "#tests/support/barcodes.ts";
import { createStaff } from "#tests/support/staff.ts";
import { REGULAR_CSV_HEADER } from "#tests/support/catalogue-fixtures.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { CsvImportError } from "#app/lib/csv.server.ts";
import {
  catalogCsvColumns,
  exportCatalogCsv,
  importCatalogCsv,
  type CatalogKind,
} from "./catalog-csv.server.ts";

const db = testDatabase();

// Every test works inside a transaction that is rolled back, so the titles it imports are never
// seen by the other test files reading the demo catalogue at the same time. The import's own
// transaction becomes a savepoint inside it. Serials from 5,000,000 up, a block per test (the
// identity sequence is not transactional and moves past what a test imported), below the
// highest serial an import accepts.
let nextBlock = 5_000_000 + (Date.now() % 900) * 100_000;
/** Serials of one test's own titles: a block of them, far from the catalogue's own. */
const BLOCK = 10_000;
const serialBlock = () => (nextBlock += BLOCK);
/** Within the block starting at `base`: titles other test files add take the next serial. */
const inBlock = (serial: number, base: number) => serial >= base && serial < base + BLOCK;
const marker = () => `CSVTEST-${randomUUID().slice(0, 8)}`;

class RolledBack extends Error {}
async function rolledBack(work: (tx: Transaction) => Promise<void>) {
  await expect(
    db.transaction(async (tx) => {
      // Both catalogues' insert locks (drizzle/0016) for the whole test: a title another test
      // file adds meanwhile would show in one export and not the next, or in the kept counts.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('regular_titles.serial'))`);
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('adult_titles.serial'))`);
      await work(tx);
      throw new RolledBack();
    }),
  ).rejects.toBeInstanceOf(RolledBack);
}

const ADULT_HEADER =
  "AdultSerialNo,ProductID,Condition,Price,Quantity,Title,Production,Release Date,PosterURL,Description";

async function counts(tx: Transaction, catalogue: CatalogKind) {
  const rows = await tx
    .select({ disc: catalogueCounts.disc, total: catalogueCounts.total })
    .from(catalogueCounts)
    .where(eq(catalogueCounts.catalogue, catalogue));
  return Object.fromEntries(rows.map((row) => [row.disc, row.total]));
}

/**
 * A test's own regular titles: those in its block of serials, and those whose title starts with
 * its tag (a title imported without a serial takes the catalogue's next one, past every block).
 */
async function regularRowsFrom(tx: Transaction, serial: number, tag?: string) {
  const inBlock = and(
    gte(regularTitles.regSerialNo, serial),
    lt(regularTitles.regSerialNo, serial + BLOCK),
  );
  return tx
    .select()
    .from(regularTitles)
    .where(tag ? or(inBlock, like(regularTitles.title, `${tag} %`)) : inBlock)
    .orderBy(regularTitles.regSerialNo);
}

async function collect(chunks: AsyncIterable<string>) {
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return parts;
}

describe("catalogue CSV import: reading the file", () => {
  it("reads quoted commas, new lines in fields, a byte order mark and $ prices", async () => {
    const base = serialBlock();
    const tag = marker();
    const csv =
      "\uFEFF" +
      [
        REGULAR_CSV_HEADER,
        `${base + 1},P-1,3,"${tag} Crouching, Hidden",2000,DVD,Movie,$12.99,"First line\nsecond line, with a comma","Action, Drama",Ang Lee,"Chow Yun-fat, Michelle Yeoh",`,
        `${base + 2},P-2,0,"${tag} ""Quoted"" Title",,Blu-ray,,"$1,299.00",,,,,/uploads/posters/x.webp`,
        `,P-3,1,${tag} Amélie,2001,4K/Blu-ray,,7,,,,,https://images.example.com/amelie.jpg`,
      ].join("\r\n") +
      "\r\n";
    await rolledBack(async (tx) => {
      const report = await importCatalogCsv(tx, "regular", csv, { dryRun: false });
      expect(report).toEqual({
        kind: "regular",
        dryRun: false,
        written: true,
        total: 3,
        added: 3,
        updated: 0,
        rejected: [],
      });
      const rows = await tx
        .select()
        .from(regularTitles)
        .where(sql`${regularTitles.title} like ${tag + "%"}`)
        .orderBy(regularTitles.regSerialNo);
      expect(rows.map((row) => row.title)).toEqual([
        `${tag} Crouching, Hidden`,
        `${tag} "Quoted" Title`,
        `${tag} Amélie`,
      ]);
      expect(rows[0]).toMatchObject({
        regSerialNo: base + 1,
        productId: "P-1",
        qtyToList: 3,
        releaseYear: 2000,
        disc: "DVD",
        type: "Movie",
        currentPriceCents: 1299,
        description: "First line\nsecond line, with a comma",
        genres: "Action, Drama",
        director: "Ang Lee",
        cast: "Chow Yun-fat, Michelle Yeoh",
        posterUrl: null,
      });
      expect(rows[1]).toMatchObject({
        regSerialNo: base + 2,
        currentPriceCents: 129_900,
        releaseYear: null,
        type: null,
        posterUrl: "/uploads/posters/x.webp",
      });
      // The title without a serial got one from the database, past the imported ones.
      expect(rows[2]!.regSerialNo).toBeGreaterThan(base + 2);
      expect(rows[2]).toMatchObject({
        currentPriceCents: 700,
        posterUrl: "https://images.example.com/amelie.jpg",
      });
    });
  });

  it("reads a stream whose chunks split a quoted field and a multi-byte character", async () => {
    const base = serialBlock();
    const bytes = Buffer.from(
      `${REGULAR_CSV_HEADER}\n${base},P-1,1,"Ça, c'est Paris",1999,DVD,,5.00,"a\nb",,,,\n`,
    );
    const cut = bytes.indexOf(Buffer.from("Ç")) + 1; // between the two bytes of Ç
    const input = Readable.from([
      bytes.subarray(0, cut),
      bytes.subarray(cut, cut + 30),
      bytes.subarray(cut + 30),
    ]);
    await rolledBack(async (tx) => {
      const report = await importCatalogCsv(tx, "regular", input, { dryRun: false });
      expect(report.rejected).toEqual([]);
      const [row] = await regularRowsFrom(tx, base);
      expect(row).toMatchObject({ title: "Ça, c'est Paris", description: "a\nb" });
    });
  });

  it("fails, instead of waiting, when the input stream fails", async () => {
    const input = new Readable({ read() {} });
    input.push(`${REGULAR_CSV_HEADER}\n,P,1,T,,DVD,,1,,,,,\n`);
    const attempt = importCatalogCsv(db, "regular", input, { dryRun: true });
    input.destroy(new Error("connection reset while uploading"));
    await expect(attempt).rejects.toThrow("connection reset while uploading");
  });

  it("matches column names ignoring case and surrounding spaces, in any order", async () => {
    const csv =
      " title , DISC,currentprice,qtytolist, productid ,release   year\n" +
      "Header Case Test,dvd,$3.50,2,HC-1,1987\n";
    await rolledBack(async (tx) => {
      const report = await importCatalogCsv(tx, "regular", csv, { dryRun: true });
      expect(report).toMatchObject({ added: 1, updated: 0, rejected: [], written: false });
    });
  });

  it("refuses a file with an unknown column, listing the expected names", async () => {
    const csv = `${REGULAR_CSV_HEADER},Rating\n,P,1,T,,DVD,,1,,,,,,PG\n`;
    const attempt = importCatalogCsv(db, "regular", csv, { dryRun: true });
    await expect(attempt).rejects.toBeInstanceOf(CsvImportError);
    await expect(attempt).rejects.toThrow(
      'Unknown column "Rating". The columns are: RegSerialNo, ProductID, QtyToList, Title, Release Year, Disc, Type, CurrentPrice, Description, Genres, Director, Cast, PosterURL, Barcode.',
    );
    await expect(
      importCatalogCsv(db, "regular", `${ADULT_HEADER}\n`, { dryRun: true }),
    ).rejects.toThrow(/adult catalogue's file/);
  });

  it("refuses a file without a required column, an empty file and a repeated column", async () => {
    await expect(
      importCatalogCsv(db, "regular", "RegSerialNo,ProductID,QtyToList,Disc\n1,P,1,DVD\n", {
        dryRun: true,
      }),
    ).rejects.toThrow("Missing columns Title, CurrentPrice.");
    await expect(importCatalogCsv(db, "adult", "", { dryRun: true })).rejects.toThrow(
      /The file is empty\. The first row must name the columns: AdultSerialNo, ProductID/,
    );
    await expect(
      importCatalogCsv(db, "adult", `${ADULT_HEADER},title\n`, { dryRun: true }),
    ).rejects.toThrow("The column Title appears more than once.");
  });

  it("refuses broken quoting with the line it is on", async () => {
    const csv = `${REGULAR_CSV_HEADER}\n,P,1,T,,DVD,,1,,,,,\n,P,1,"unclosed,,DVD,,1,,,,,\n`;
    await expect(importCatalogCsv(db, "regular", csv, { dryRun: true })).rejects.toThrow(
      /^The file is not valid CSV near line \d+: /,
    );
  });

  it("refuses more than 200,000 rows before writing anything", async () => {
    const row = ",P,1,T,,DVD,,1,,,,,\n";
    const csv = REGULAR_CSV_HEADER + "\n" + row.repeat(200_001);
    await expect(importCatalogCsv(db, "regular", csv, { dryRun: false })).rejects.toThrow(
      "The file has more than 200,000 rows. Split it into smaller files.",
    );
  });
});

describe("catalogue CSV import: rejected rows", () => {
  it("lists every bad row with its spreadsheet row number and reasons, and writes nothing", async () => {
    const base = serialBlock();
    const tag = marker();
    const csv = [
      REGULAR_CSV_HEADER,
      /* 2 */ `${base + 1},P-1,1,${tag} Good,1999,DVD,,9.99,,,,,`,
      /* 3 */ `${base + 2},P-2,1,${tag} Bad Year,99,DVD,,9.99,,,,,`,
      /* 4 */ `${base + 3},P-3,1,${tag} Bad Price,1999,DVD,,twelve,,,,,`,
      /* 5 */ `${base + 4},P-4,1,,1999,DVD,,9.99,"two\nlines",,,,`,
      /* 6 */ `${base + 1},P-5,1,${tag} Same Serial,1999,DVD,,9.99,,,,,`,
      /* 7 */ ``,
      /* 8 */ `${base + 5},P-6,-1,${tag} Many,1850,VHS,,-3,,,,,javascript:alert(1)`,
      /* 9 */ `abc,P-7,1,${tag} Odd Serial,1999,DVD,,9.99,,,,,//elsewhere.example/x.png`,
      /* 10 */ `${base + 6},P-8,1,${tag} Extra Cell,1999,DVD,,9.99,,,,,,surprise`,
      /* 11 */ `,P-9,1,${tag} Also Good,,Collections,,$0.99,,,,,`,
    ].join("\n");
    await rolledBack(async (tx) => {
      const before = await counts(tx, "regular");
      const dryRun = await importCatalogCsv(tx, "regular", csv, { dryRun: true });
      const real = await importCatalogCsv(tx, "regular", csv, { dryRun: false });
      expect(real).toEqual({ ...dryRun, dryRun: false });
      expect(real.written).toBe(false);
      expect(real.total).toBe(9);
      expect(real.added).toBe(2);
      expect(real.updated).toBe(0);
      expect(real.rejected).toEqual([
        { row: 3, reasons: ["Release Year: Year must be in YYYY format"] },
        { row: 4, reasons: ["CurrentPrice must be a number of dollars, e.g. 12.99."] },
        { row: 5, reasons: ["Title is required."] },
        { row: 6, reasons: [`RegSerialNo ${base + 1} is already used by row 2.`] },
        {
          row: 8,
          reasons: [
            "PosterURL must be empty, an http(s) address or a path on this site starting with /.",
            "QtyToList must be a whole number, 0 or more.",
            "Release Year: Year must be between 1900 and 2100",
            "Disc: Choose DVD, Blu-ray, 4K/Blu-ray or Collections.",
            "CurrentPrice must be a number of dollars, e.g. 12.99.",
          ],
        },
        {
          row: 9,
          reasons: [
            "RegSerialNo must be a whole number from 1 to 99,999,999, or empty for a new title.",
            "PosterURL must be empty, an http(s) address or a path on this site starting with /.",
          ],
        },
        { row: 10, reasons: ["The row has 14 cells but the header has 13."] },
      ]);
      const written = await tx
        .select()
        .from(regularTitles)
        .where(sql`${regularTitles.title} like ${tag + "%"}`);
      expect(written).toEqual([]);
      expect(await counts(tx, "regular")).toEqual(before);
    });
  });

  it("rejects adult rows by the adult rules", async () => {
    const csv = [
      ADULT_HEADER,
      `,12x,New,$19.99,1,Bad Product,,2001-02-03,,`,
      `,12,New,19.99,1,Bad Date,,2001-02-30,,`,
      `,12,New,,1,No Price,,,,`,
      `,12,New,1,1,Spaced Poster,,,https://example.com/a poster.jpg,`,
      `,12,New,1,1,Relative Poster,,,posters/a.jpg,`,
      `,12,New,1,1,Regular Upload,,,upload:${"a".repeat(32)},`,
      `,12,New,1,1,Adult Upload,,,upload:adult-${"b".repeat(32)},`,
      `,12,New,1,1,Bad Upload,,,upload:../../etc/passwd,`,
    ].join("\n");
    const report = await importCatalogCsv(db, "adult", csv, { dryRun: true });
    expect(report.rejected).toEqual([
      { row: 2, reasons: ["ProductID must be a number."] },
      { row: 3, reasons: ["Release Date: Date must be in YYYY-MM-DD format"] },
      { row: 4, reasons: ["Price is required."] },
      {
        row: 5,
        reasons: [
          "PosterURL must be empty, an http(s) address or a path on this site starting with /.",
        ],
      },
      {
        row: 6,
        reasons: [
          "PosterURL must be empty, an http(s) address or a path on this site starting with /.",
        ],
      },
      { row: 7, reasons: ["PosterURL: that uploaded poster belongs to the regular catalogue."] },
      // Well-formed, but an uploaded poster stays with the title that has it, and none has this.
      {
        row: 8,
        reasons: [
          `PosterURL: no title has the poster upload:adult-${"b".repeat(32)}; upload the poster in this title's form instead.`,
        ],
      },
      { row: 9, reasons: ["PosterURL: not a poster uploaded to this shop."] },
    ]);
    expect(report.added).toBe(0);
  });
});

describe("catalogue CSV import: writing", () => {
  it("a dry run reports what would change and writes nothing", async () => {
    const base = serialBlock();
    await rolledBack(async (tx) => {
      await tx.insert(regularTitles).values({
        regSerialNo: base + 1,
        productId: "OLD",
        title: "Existing",
        disc: "DVD",
        currentPriceCents: 100,
      });
      const before = await regularRowsFrom(tx, base);
      const countsBefore = await counts(tx, "regular");
      const csv = [
        REGULAR_CSV_HEADER,
        `${base + 1},NEW,1,Changed,2000,Blu-ray,,2.00,,,,,`,
        `${base + 2},NEW,1,Added With Serial,2000,DVD,,2.00,,,,,`,
        `,NEW,1,Added Without Serial,2000,DVD,,2.00,,,,,`,
      ].join("\n");
      const report = await importCatalogCsv(tx, "regular", csv, { dryRun: true });
      expect(report).toEqual({
        kind: "regular",
        dryRun: true,
        written: false,
        total: 3,
        added: 2,
        updated: 1,
        rejected: [],
      });
      expect(await regularRowsFrom(tx, base)).toEqual(before);
      expect(await counts(tx, "regular")).toEqual(countsBefore);
    });
  });

  it("adds and updates regular titles in one go and keeps the counts exact", async () => {
    const base = serialBlock();
    const tag = marker();
    const longAgo = new Date("2020-01-01T00:00:00Z");
    await rolledBack(async (tx) => {
      await tx.insert(regularTitles).values([
        {
          regSerialNo: base + 1,
          productId: "OLD-1",
          title: `${tag} Old One`,
          disc: "DVD",
          currentPriceCents: 100,
          director: "Kept Director",
          posterUrl: "/uploads/kept.webp",
          updatedAt: longAgo,
        },
        {
          regSerialNo: base + 2,
          productId: "OLD-2",
          title: `${tag} Old Two`,
          disc: "Blu-ray",
          currentPriceCents: 200,
          updatedAt: longAgo,
        },
        {
          regSerialNo: base + 3,
          productId: "SAME",
          qtyToList: 9,
          title: `${tag} Same`,
          disc: "DVD",
          currentPriceCents: 900,
          updatedAt: longAgo,
        },
      ]);
      const before = await counts(tx, "regular");
      // A file with only some of the columns: the others keep their values on updated titles.
      const csv = [
        "RegSerialNo,ProductID,QtyToList,Title,Disc,CurrentPrice",
        `${base + 1},NEW-1,5,${tag} New One,4K/Blu-ray,$15.00`,
        `${base + 2},NEW-2,6,${tag} New Two,Blu-ray,16`,
        `${base + 3},SAME,9,${tag} Same,DVD,9.00`,
        `${base + 500},NEW-3,7,${tag} Given Serial,DVD,17.5`,
        `,NEW-4,8,${tag} No Serial,Collections,18.25`,
      ].join("\n");
      const report = await importCatalogCsv(tx, "regular", csv, { dryRun: false });
      expect(report).toMatchObject({ written: true, total: 5, added: 2, updated: 3, rejected: [] });

      const rows = await regularRowsFrom(tx, base, tag);
      expect(rows.map((row) => [row.regSerialNo - base, row.productId, row.qtyToList])).toEqual([
        [1, "NEW-1", 5],
        [2, "NEW-2", 6],
        [3, "SAME", 9],
        [500, "NEW-3", 7],
        [rows[4]!.regSerialNo - base, "NEW-4", 8],
      ]);
      expect(rows[4]!.regSerialNo).toBeGreaterThan(base + 500);
      expect(rows[0]).toMatchObject({
        title: `${tag} New One`,
        disc: "4K/Blu-ray",
        currentPriceCents: 1500,
        director: "Kept Director",
        posterUrl: "/uploads/kept.webp",
      });
      expect(rows[3]).toMatchObject({ currentPriceCents: 1750, director: null, posterUrl: null });
      // A changed title says so; one whose cells were all the same is left as it was.
      expect(rows[0]!.updatedAt.getTime()).toBeGreaterThan(longAgo.getTime());
      expect(rows[2]!.updatedAt).toEqual(longAgo);

      const after = await counts(tx, "regular");
      expect(after[""]).toBe(before[""]! + 2);
      expect(after["DVD"]).toBe(before["DVD"]! - 1 + 1);
      expect(after["4K/Blu-ray"]).toBe(before["4K/Blu-ray"]! + 1);
      expect(after["Blu-ray"]).toBe(before["Blu-ray"]!);
      expect(after["Collections"]).toBe(before["Collections"]! + 1);
      const [real] = await tx
        .execute<{ total: string }>(sql`select count(*) as total from regular_titles`)
        .then((result) => result.rows);
      expect(Number(real!.total)).toBe(after[""]);

      // The identity sequence moved past the imported serials: the admin's next title is free.
      const [next] = await tx
        .insert(regularTitles)
        .values({ productId: "NEXT", title: `${tag} Next`, disc: "DVD", currentPriceCents: 1 })
        .returning({ serial: regularTitles.regSerialNo });
      expect(next!.serial).toBeGreaterThan(rows[4]!.regSerialNo);
    });
  });

  it("adds and updates adult titles and keeps the count exact", async () => {
    const base = serialBlock();
    const tag = marker();
    await rolledBack(async (tx) => {
      await tx.insert(adultTitles).values({
        adultSerialNo: base + 1,
        productId: 1,
        title: `${tag} Old`,
        priceCents: 100,
        genre: "Kept Genre",
      });
      const before = await counts(tx, "adult");
      const csv = [
        ADULT_HEADER,
        `${base + 1},77,Used,$24.99,3,${tag} Updated,Studio A,2003-04-05,,"Line one\nline two"`,
        `,78,New,"1,000.00",0,${tag} Added,,,https://example.com/p.jpg,`,
      ].join("\n");
      const report = await importCatalogCsv(tx, "adult", csv, { dryRun: false });
      expect(report).toMatchObject({ written: true, total: 2, added: 1, updated: 1, rejected: [] });
      const rows = await tx
        .select()
        .from(adultTitles)
        .where(
          and(gte(adultTitles.adultSerialNo, base), lt(adultTitles.adultSerialNo, base + BLOCK)),
        )
        .orderBy(adultTitles.adultSerialNo);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({
        adultSerialNo: base + 1,
        productId: 77,
        condition: "Used",
        priceCents: 2499,
        quantity: 3,
        production: "Studio A",
        releaseDate: "2003-04-05",
        description: "Line one\nline two",
        genre: "Kept Genre",
      });
      expect(rows[1]).toMatchObject({
        productId: 78,
        priceCents: 100_000,
        releaseDate: null,
        posterUrl: "https://example.com/p.jpg",
      });
      expect((await counts(tx, "adult"))[""]).toBe(before[""]! + 1);
    });
  });
});

describe("catalogue CSV export", () => {
  it("streams the spec's columns in keyset pages, prices in dollars", async () => {
    const base = serialBlock();
    await rolledBack(async (tx) => {
      // Enough titles for several pages of 2,000.
      await tx.execute(sql`
        insert into regular_titles (reg_serial_no, product_id, title, disc, current_price_cents, release_year)
        select ${base} + g, 'EXP-' || g, 'Export, "Title" ' || g, 'DVD', 100 * g + 5, 1990
          from generate_series(1, 4500) as g`);
      // A barcode on a title of a later page: each page joins the barcodes of its own titles.
      const barcode = freshBarcode();
      await setBarcode(tx, { type: "regular", id: base + 4321 }, barcode);
      const [{ total }] = (
        await tx.execute<{ total: string }>(sql`select count(*) as total from regular_titles`)
      ).rows as [{ total: string }];
      const chunks = await collect(exportCatalogCsv(tx, "regular"));
      expect(chunks.length).toBeGreaterThanOrEqual(4); // header + at least 3 pages
      const text = chunks.join("");
      // The spec's columns, and the barcode after them.
      expect(text.startsWith(`\uFEFF${REGULAR_CSV_HEADER},Barcode\n`)).toBe(true);
      const records = parse(text, { bom: true, columns: true }) as Record<string, string>[];
      expect(records).toHaveLength(Number(total));
      const serials = records.map((record) => Number(record.RegSerialNo));
      expect(serials).toEqual([...serials].sort((a, b) => a - b));
      expect(new Set(serials).size).toBe(serials.length);
      expect(records.find((record) => record.RegSerialNo === String(base + 7))).toEqual({
        RegSerialNo: String(base + 7),
        ProductID: "EXP-7",
        QtyToList: "0",
        Title: 'Export, "Title" 7',
        "Release Year": "1990",
        Disc: "DVD",
        Type: "",
        CurrentPrice: "7.05",
        Description: "",
        Genres: "",
        Director: "",
        Cast: "",
        PosterURL: "",
        Barcode: "",
      });
      expect(records.find((record) => record.RegSerialNo === String(base + 4321))?.Barcode).toBe(
        barcode,
      );
    });
  });

  it("writes the adult columns, and no byte order mark when asked", async () => {
    const text = (await collect(exportCatalogCsv(db, "adult", { bom: false }))).join("");
    expect(text.split("\n")[0]).toBe(`${ADULT_HEADER},Barcode`);
    expect(catalogCsvColumns("adult").join(",")).toBe(`${ADULT_HEADER},Barcode`);
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => /^\d+\.\d\d$/.test(record.Price!))).toBe(true);
  });

  it("neutralises cells a spreadsheet would run as formulas, and the import restores them exactly", async () => {
    const base = serialBlock();
    const typed = [
      '=HYPERLINK("http://evil.test")',
      "+1+2",
      "-2+3",
      "@SUM(A1)",
      "'=kept",
      "''+two",
    ];
    await rolledBack(async (tx) => {
      await tx.insert(regularTitles).values(
        typed.map((text, i) => ({
          regSerialNo: base + i,
          productId: text,
          title: `Title ${text}`,
          disc: "DVD" as const,
          currentPriceCents: 100,
          director: text,
          cast: "it's fine",
        })),
      );
      const before = await regularRowsFrom(tx, base);
      const exported = (await collect(exportCatalogCsv(tx, "regular"))).join("");
      const records = (
        parse(exported, { bom: true, columns: true }) as Record<string, string>[]
      ).filter((record) => inBlock(Number(record.RegSerialNo), base));
      expect(records.map((record) => record.ProductID)).toEqual(typed.map((text) => `'${text}`));
      expect(records.map((record) => record.Director)).toEqual(typed.map((text) => `'${text}`));
      // Cells that do not start like a formula are left as they are.
      expect(records.map((record) => record.Title)).toEqual(typed.map((text) => `Title ${text}`));
      expect(records.every((record) => record.Cast === "it's fine")).toBe(true);

      const report = await importCatalogCsv(tx, "regular", exported, { dryRun: false });
      expect(report.rejected).toEqual([]);
      expect(await regularRowsFrom(tx, base)).toEqual(before);
    });
  });

  it.each(["regular", "adult"] as const)(
    "round trip of the %s catalogue: 0 added, every row updated, 0 rejected, nothing changed",
    async (kind) => {
      await rolledBack(async (tx) => {
        // One title with a poster uploaded here, which the export writes as stored, and one with
        // a barcode.
        const upload = `upload:${kind === "adult" ? "adult-" : ""}${"c".repeat(32)}`;
        const barcode = freshBarcode();
        await setBarcode(tx, { type: kind, id: 2 }, barcode);
        if (kind === "adult") {
          await tx
            .update(adultTitles)
            .set({ posterUrl: upload })
            .where(eq(adultTitles.adultSerialNo, 1));
        } else {
          await tx
            .update(regularTitles)
            .set({ posterUrl: upload })
            .where(eq(regularTitles.regSerialNo, 1));
        }
        const exported = (await collect(exportCatalogCsv(tx, kind))).join("");
        expect(exported).toContain(`,${upload}`);
        expect(exported).toContain(`,${barcode}\n`);
        const rows = (parse(exported, { bom: true }) as string[][]).length - 1;
        expect(rows).toBeGreaterThan(0);
        const dryRun = await importCatalogCsv(tx, kind, exported, { dryRun: true });
        expect(dryRun).toMatchObject({ added: 0, updated: rows, rejected: [], total: rows });
        const real = await importCatalogCsv(tx, kind, Readable.from([exported]), {
          dryRun: false,
        });
        expect(real).toMatchObject({ added: 0, updated: rows, rejected: [], written: true });
        expect((await collect(exportCatalogCsv(tx, kind))).join("")).toBe(exported);
        expect(await barcodeOf(tx, { type: kind, id: 2 })).toBe(barcode);
      });
    },
  );
});

describe("catalogue CSV import: barcodes", () => {
  it("imports the owner's old files, without a Barcode column, and leaves barcodes as they are", async () => {
    const base = serialBlock();
    await rolledBack(async (tx) => {
      await tx.insert(regularTitles).values({
        regSerialNo: base + 1,
        productId: "OLD",
        title: "Barcoded",
        disc: "DVD",
        currentPriceCents: 100,
      });
      const barcode = freshBarcode();
      await setBarcode(tx, { type: "regular", id: base + 1 }, barcode);
      const csv = `${REGULAR_CSV_HEADER}\n${base + 1},OLD,2,Barcoded Again,,DVD,,1.00,,,,,\n`;
      const report = await importCatalogCsv(tx, "regular", csv, { dryRun: false });
      expect(report).toMatchObject({ written: true, updated: 1, rejected: [] });
      expect(await barcodeOf(tx, { type: "regular", id: base + 1 })).toBe(barcode);
    });
  });

  it("gives new and updated titles their barcodes, takes away an emptied one, and lets titles trade them", async () => {
    const base = serialBlock();
    const tag = marker();
    const [kept, replaced, emptied, traded, fresh, newer] = Array.from({ length: 6 }, () =>
      freshBarcode(),
    );
    await rolledBack(async (tx) => {
      await tx.insert(adultTitles).values(
        [1, 2, 3, 4].map((n) => ({
          adultSerialNo: base + n,
          productId: n,
          title: `${tag} Old ${n}`,
          priceCents: 100,
        })),
      );
      const before: [number, string][] = [
        [1, kept!],
        [2, replaced!],
        [3, emptied!],
        [4, traded!],
      ];
      for (const [n, code] of before) await setBarcode(tx, { type: "adult", id: base + n }, code);
      const row = (serial: number | "", title: string, barcode: string) =>
        `${serial},7,New,1.00,1,${tag} ${title},,,,,${barcode}`;
      const csv = [
        `${ADULT_HEADER},Barcode`,
        row(base + 1, "Kept", kept!),
        row(base + 2, "Replaced", fresh!),
        // Title 3 gives its code up, title 4 takes it and gives its own to a new title.
        row(base + 3, "Emptied", ""),
        row(base + 4, "Traded", emptied!),
        row("", "New With Traded", traded!),
        // Spaces as a scanner's label prints them.
        row(
          base + 500,
          "New With Serial",
          `${newer!.slice(0, 1)} ${newer!.slice(1, 7)} ${newer!.slice(7)}`,
        ),
        row("", "New Without", ""),
      ].join("\n");
      const dryRun = await importCatalogCsv(tx, "adult", csv, { dryRun: true });
      expect(dryRun).toMatchObject({ added: 3, updated: 4, rejected: [] });
      const report = await importCatalogCsv(tx, "adult", csv, { dryRun: false });
      expect(report).toMatchObject({ written: true, added: 3, updated: 4, rejected: [] });

      const titles = await tx
        .select({ serial: adultTitles.adultSerialNo, title: adultTitles.title })
        .from(adultTitles)
        .where(like(adultTitles.title, `${tag} %`))
        .orderBy(adultTitles.adultSerialNo);
      // One after the other: a transaction is one connection, which answers one query at a time.
      const codes: [string, string][] = [];
      for (const title of titles) {
        codes.push([
          title.title.slice(tag.length + 1),
          await barcodeOf(tx, { type: "adult", id: title.serial }),
        ]);
      }
      expect(codes).toEqual([
        ["Kept", kept],
        ["Replaced", fresh],
        ["Emptied", ""],
        ["Traded", emptied],
        ["New With Serial", newer],
        // The new titles without a serial took the next serials, in the file's order.
        ["New With Traded", traded],
        ["New Without", ""],
      ]);
      expect(titles[5]!.serial).toBeGreaterThan(base + 500);
      expect(titles[6]!.serial).toBe(titles[5]!.serial + 1);

      // The export writes each title's barcode last, and reads back changing nothing.
      const exported = (await collect(exportCatalogCsv(tx, "adult"))).join("");
      const records = parse(exported, { bom: true, columns: true }) as Record<string, string>[];
      expect(records.find((record) => record.Title === `${tag} Traded`)?.Barcode).toBe(emptied);
      const again = await importCatalogCsv(tx, "adult", exported, { dryRun: false });
      expect(again).toMatchObject({ added: 0, rejected: [] });
      expect((await collect(exportCatalogCsv(tx, "adult"))).join("")).toBe(exported);
    });
  });

  it("rejects a misread barcode, one twice in the file and one another product has, and writes nothing", async () => {
    const base = serialBlock();
    const tag = marker();
    const [onItem, onAdult, twice, good] = Array.from({ length: 4 }, () => freshBarcode(12));
    const misread = good!.slice(0, -1) + String((Number(good!.at(-1)) + 1) % 10);
    await rolledBack(async (tx) => {
      const [item] = await tx
        .insert(storeItems)
        .values({ sku: `${tag}-POSTER`, name: "Poster", priceCents: 1000 })
        .returning({ id: storeItems.id });
      await setBarcode(tx, { type: "item", id: item!.id }, onItem!);
      await tx
        .insert(adultTitles)
        .values({ adultSerialNo: base + 1, productId: 1, title: "Adult", priceCents: 100 });
      await setBarcode(tx, { type: "adult", id: base + 1 }, onAdult!);

      const row = (serial: number, barcode: string) =>
        `${serial},P-${serial},1,${tag} ${serial},,DVD,,1.00,,,,,,${barcode}`;
      const csv = [
        `${REGULAR_CSV_HEADER},Barcode`,
        /* 2 */ row(base + 2, twice!),
        /* 3 */ row(base + 3, misread),
        /* 4 */ row(base + 4, onItem!),
        /* 5 */ row(base + 5, twice!),
        /* 6 */ row(base + 6, onAdult!),
        /* 7 */ row(base + 7, "12345"),
        /* 8 */ row(base + 8, good!),
      ].join("\n");
      const dryRun = await importCatalogCsv(tx, "regular", csv, { dryRun: true });
      const real = await importCatalogCsv(tx, "regular", csv, { dryRun: false });
      expect(real).toEqual({ ...dryRun, dryRun: false });
      expect(real).toMatchObject({ written: false, total: 7, added: 2 });
      expect(real.rejected).toEqual([
        {
          row: 3,
          reasons: ["Barcode: This barcode's last digit does not match: check it or scan again."],
        },
        {
          row: 4,
          reasons: [`Barcode ${onItem} is on another product (store item ${tag}-POSTER).`],
        },
        { row: 5, reasons: [`Barcode ${twice} is already used by row 2.`] },
        {
          row: 6,
          reasons: [`Barcode ${onAdult} is on another product (adult title ${base + 1}).`],
        },
        { row: 7, reasons: ["Barcode: A barcode has 8, 12, 13 or 14 digits."] },
      ]);
      expect(await regularRowsFrom(tx, base)).toEqual([]);
      expect(await barcodeOf(tx, { type: "item", id: item!.id })).toBe(onItem);
    });
  });

  it("names the new titles' stock an import by the staff member in the ledger, under the serials they were given", async () => {
    const tag = marker();
    const staff = await createStaff(db, "Ingrid Import");
    await rolledBack(async (tx) => {
      const csv = `${REGULAR_CSV_HEADER},Barcode\n,P-1,3,${tag} Ledger,,DVD,,1.00,,,,,,${freshBarcode()}\n`;
      await importCatalogCsv(tx, "regular", csv, { dryRun: false, staff });
      const [title] = await tx
        .select({ serial: regularTitles.regSerialNo })
        .from(regularTitles)
        .where(like(regularTitles.title, `${tag} %`));
      const moves = await stockLedger(tx, { type: "regular", id: title!.serial });
      expect(
        moves.map((move) => [move.reason, move.change, move.reference, move.actorName]),
      ).toEqual([["import", 3, "CSV import", "Ingrid Import"]]);
    });
  });
});

describe("catalogue CSV counts", () => {
  it("kept counts match the real ones after an import of mixed discs", async () => {
    const base = serialBlock();
    await rolledBack(async (tx) => {
      const csv = [
        REGULAR_CSV_HEADER,
        ...Array.from(
          { length: 40 },
          (_, i) =>
            `${i % 2 ? base + i : ""},C-${i},1,Count ${i},,${["DVD", "Blu-ray", "4K/Blu-ray", "Collections"][i % 4]},,1,,,,,`,
        ),
      ].join("\n");
      await importCatalogCsv(tx, "regular", csv, { dryRun: false });
      const kept = await counts(tx, "regular");
      const real = await tx.execute<{ disc: string; total: string }>(sql`
        select disc, count(*) as total from regular_titles group by disc
        union all select '', count(*) from regular_titles`);
      for (const row of real.rows) expect(kept[row.disc]).toBe(Number(row.total));
      const [probe] = await tx
        .select({ total: catalogueCounts.total })
        .from(catalogueCounts)
        .where(and(eq(catalogueCounts.catalogue, "regular"), eq(catalogueCounts.disc, "")));
      expect(probe!.total).toBe(kept[""]);
    });
  });
});
