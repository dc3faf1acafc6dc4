import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { stockLedger } from "#app/domain/stock/ledger.server.ts";
import { CsvImportError } from "#app/lib/csv.server.ts";
import { freshBarcode } from "#tests/support/barcodes.ts";
import { createStaff } from "#tests/support/staff.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { storeItemSchema } from "./item-input.ts";
import {
  exportStoreItemsCsv,
  importStoreItemsCsv,
  STORE_ITEM_CSV_COLUMNS,
} from "./items-csv.server.ts";
import { addStoreItem, archiveStoreItem, getStoreItem, listStoreItems } from "./items.server.ts";

const db = testDatabase();

async function add(typed: Record<string, string>) {
  const saved = await addStoreItem(db, storeItemSchema.parse(typed), null);
  if (!saved.ok) throw new Error(saved.message);
  return saved.id;
}

async function exported(): Promise<string> {
  let text = "";
  for await (const chunk of exportStoreItemsCsv(db)) text += chunk;
  return text;
}

describe("the store items' CSV export", () => {
  it("writes the items on sale as the form takes them, formulas neutralised, the archived left out", async () => {
    const tag = randomUUID().slice(0, 8);
    const barcode = freshBarcode(12);
    await add({
      sku: `CSV-${tag}-A`,
      name: `=HYPERLINK("http://evil.example","Poster ${tag}")`,
      priceCents: "24.99",
      stock: "3",
      taxable: "on",
      barcode,
    });
    const archived = await add({
      sku: `CSV-${tag}-B`,
      name: `Gone ${tag}`,
      priceCents: "5",
      stock: "0",
      taxable: "",
      barcode: "",
    });
    await archiveStoreItem(db, archived, null);

    const text = await exported();
    expect(text.startsWith("\uFEFF")).toBe(true);
    const rows = parse(text.slice(1)) as string[][];
    expect(rows[0]).toEqual(STORE_ITEM_CSV_COLUMNS);
    const mine = rows.filter((row) => row[0]!.startsWith(`CSV-${tag}`));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toEqual([
      `CSV-${tag}-A`,
      barcode,
      `'=HYPERLINK("http://evil.example","Poster ${tag}")`,
      "24.99",
      "3",
      "yes",
    ]);
  });
});

const csvOf = (...lines: string[]) => [STORE_ITEM_CSV_COLUMNS.join(","), ...lines].join("\n");

/** The lines of an export about one test's items (by their SKUs' tag), the header first. */
function linesOf(text: string, tag: string): string[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\n");
  return [lines[0]!, ...lines.filter((line) => line.includes(tag))];
}

async function itemBySku(sku: string) {
  const { items } = await listStoreItems(db, { query: sku, page: 1 });
  const item = items.find((row) => row.sku.toLowerCase() === sku.toLowerCase());
  return item ? getStoreItem(db, item.id) : undefined;
}

async function movesOf(id: number) {
  const moves = await stockLedger(db, { type: "item", id });
  return moves.reverse().map((move) => [move.reason, move.change, move.reference, move.actorName]);
}

describe("the store items' CSV import", () => {
  let staff: Staff;
  beforeAll(async () => {
    staff = await createStaff(db, "Imelda Import");
  });

  it("checks a file in a dry run that writes nothing, then imports it in one go, the stock named an import", async () => {
    const tag = randomUUID().slice(0, 8);
    const kept = await add({
      sku: `IMP-${tag}-A`,
      name: `Poster ${tag}`,
      priceCents: "24.99",
      stock: "3",
      taxable: "on",
      barcode: "",
    });
    const barcode = freshBarcode();
    const csv = csvOf(
      // The SKU matches whatever its case: this updates the item.
      `imp-${tag}-a,,Poster ${tag} (signed),30.00,7,yes`,
      `IMP-${tag}-B,${barcode},"Lobby card, ${tag}","$1,200.00",2,no`,
    );

    const dryRun = await importStoreItemsCsv(db, csv, { dryRun: true, staff });
    expect(dryRun).toEqual({
      dryRun: true,
      written: false,
      total: 2,
      added: 1,
      updated: 1,
      rejected: [],
    });
    expect(await getStoreItem(db, kept)).toMatchObject({ stock: 3, priceCents: 2499 });
    expect(await itemBySku(`IMP-${tag}-B`)).toBeUndefined();
    expect(await movesOf(kept)).toEqual([["added", 3, null, null]]);

    const real = await importStoreItemsCsv(db, csv, { dryRun: false, staff });
    expect(real).toEqual({ ...dryRun, dryRun: false, written: true });
    expect(await getStoreItem(db, kept)).toMatchObject({
      sku: `imp-${tag}-a`,
      name: `Poster ${tag} (signed)`,
      priceCents: 3000,
      stock: 7,
      taxable: true,
      barcode: null,
    });
    const added = await itemBySku(`IMP-${tag}-B`);
    expect(added).toMatchObject({
      name: `Lobby card, ${tag}`,
      priceCents: 120_000,
      stock: 2,
      taxable: false,
      barcode,
    });
    expect(await movesOf(kept)).toEqual([
      ["added", 3, null, null],
      ["import", 4, "CSV import", "Imelda Import"],
    ]);
    expect(await movesOf(added!.id)).toEqual([["import", 2, "CSV import", "Imelda Import"]]);
  });

  it("reads an export back unchanged (round trip), its formulas restored exactly", async () => {
    const tag = randomUUID().slice(0, 8);
    const names = [
      `=HYPERLINK("http://evil.example","Poster ${tag}")`,
      `'=kept as typed ${tag}`,
      `@SUM(A1) ${tag}`,
      `Plain, with "quotes" ${tag}`,
    ];
    const ids: number[] = [];
    for (const [index, name] of names.entries()) {
      ids.push(
        await add({
          sku: `RT-${tag}-${index}`,
          name,
          priceCents: `${index}.5`,
          stock: String(index),
          taxable: index % 2 ? "on" : "",
          barcode: index < 2 ? freshBarcode(index ? 8 : 14) : "",
        }),
      );
    }
    const before = await Promise.all(ids.map((id) => getStoreItem(db, id)));
    const lines = linesOf(await exported(), tag);
    expect(lines).toHaveLength(names.length + 1);
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://evil.example"",""Poster ${tag}"")",`);
    expect(lines[2]).toContain(`,''=kept as typed ${tag},`);

    const file = lines.join("\n");
    const dryRun = await importStoreItemsCsv(db, file, { dryRun: true, staff });
    expect(dryRun).toMatchObject({ added: 0, updated: names.length, rejected: [] });
    const real = await importStoreItemsCsv(db, Readable.from([file]), { dryRun: false, staff });
    expect(real).toMatchObject({ written: true, added: 0, updated: names.length });

    expect(await Promise.all(ids.map((id) => getStoreItem(db, id)))).toEqual(before);
    expect(before.map((item) => item!.name)).toEqual(names);
    expect(linesOf(await exported(), tag)).toEqual(lines);
    // Nothing changed, so the ledger has nothing new to say.
    for (const [index, id] of ids.entries()) {
      expect(await movesOf(id)).toEqual(index ? [["added", index, null, null]] : []);
    }
  });

  it("lists every row to fix with its spreadsheet row number and reasons, and writes nothing", async () => {
    const tag = randomUUID().slice(0, 8);
    // A UPC-A: the rows below give it, and the one in the file, as their EAN-13 (a leading 0).
    const onItem = freshBarcode(12);
    const other = await add({
      sku: `REJ-${tag}-OTHER`,
      name: "Other",
      priceCents: "1",
      stock: "1",
      taxable: "",
      barcode: onItem,
    });
    const gone = await add({
      sku: `REJ-${tag}-GONE`,
      name: "Gone",
      priceCents: "1",
      stock: "0",
      taxable: "",
      barcode: "",
    });
    await archiveStoreItem(db, gone, null);
    const twice = freshBarcode(12);
    const misread = twice.slice(0, -1) + String((Number(twice.at(-1)) + 1) % 10);
    const csv = csvOf(
      /* 2 */ `REJ-${tag}-1,${twice},Good,1.00,1,yes`,
      /* 3 */ `rej-${tag}-1,,Same SKU,1.00,1,yes`,
      /* 4 */ `REJ-${tag}-2,0${twice},Same barcode,1.00,1,yes`,
      /* 5 */ `REJ-${tag}-3,0${onItem},Taken barcode,1.00,1,yes`,
      /* 6 */ `REJ-${tag}-GONE,,Back on sale,1.00,1,yes`,
      /* 7 */ `REJ ${tag} 4,${misread},,twenty,-1,maybe`,
      /* 8 */ ``,
      /* 9 */ `REJ-${tag}-5,,Extra cell,1.00,1,yes,surprise`,
    );
    const dryRun = await importStoreItemsCsv(db, csv, { dryRun: true, staff });
    const real = await importStoreItemsCsv(db, csv, { dryRun: false, staff });
    expect(real).toEqual({ ...dryRun, dryRun: false });
    expect(real).toMatchObject({ written: false, total: 7, added: 1, updated: 0 });
    expect(real.rejected).toEqual([
      { row: 3, reasons: [`SKU rej-${tag}-1 is already used by row 2.`] },
      { row: 4, reasons: [`Barcode 0${twice} is already used by row 2.`] },
      {
        row: 5,
        reasons: [`Barcode 0${onItem} is on another product (store item REJ-${tag}-OTHER).`],
      },
      {
        row: 6,
        reasons: [`SKU REJ-${tag}-GONE is an item taken off sale: give this one another SKU.`],
      },
      {
        row: 7,
        reasons: [
          "SKU is letters, digits, dots, dashes and underscores.",
          "Name is required.",
          "Price must be a number of dollars, e.g. 12.99.",
          "Stock must be a whole number, 0 or more.",
          "Taxable is yes or no.",
          "Barcode: This barcode's last digit does not match: check it or scan again.",
        ],
      },
      { row: 9, reasons: ["The row has 7 cells but the header has 6."] },
    ]);
    expect(await itemBySku(`REJ-${tag}-1`)).toBeUndefined();
    expect(await getStoreItem(db, other)).toMatchObject({ barcode: onItem });
  });

  it("lets items trade barcodes, keeps them when the file has no Barcode column, and takes one away when its cell is empty", async () => {
    const tag = randomUUID().slice(0, 8);
    const [first, second] = [freshBarcode(), freshBarcode()];
    const item = (letter: string, barcode: string) =>
      add({
        sku: `BC-${tag}-${letter}`,
        name: `Item ${letter}`,
        priceCents: "1",
        stock: "1",
        taxable: "on",
        barcode,
      });
    const a = await item("A", first!);
    const b = await item("B", second!);

    const traded = await importStoreItemsCsv(
      db,
      csvOf(`BC-${tag}-A,${second},Item A,1,1,yes`, `BC-${tag}-B,${first},Item B,1,1,yes`),
      { dryRun: false, staff },
    );
    expect(traded).toMatchObject({ written: true, updated: 2, rejected: [] });
    expect(await getStoreItem(db, a)).toMatchObject({ barcode: second });
    expect(await getStoreItem(db, b)).toMatchObject({ barcode: first });

    const withoutColumn = `SKU,Name,Price,Stock,Taxable\nBC-${tag}-A,Item A,1,5,yes\n`;
    expect(await importStoreItemsCsv(db, withoutColumn, { dryRun: false, staff })).toMatchObject({
      written: true,
      updated: 1,
    });
    expect(await getStoreItem(db, a)).toMatchObject({ stock: 5, barcode: second });

    await importStoreItemsCsv(db, csvOf(`BC-${tag}-A,,Item A,1,5,yes`), { dryRun: false, staff });
    expect(await getStoreItem(db, a)).toMatchObject({ barcode: null });
  });

  it("refuses a file whose header is not the items' columns, saying why", async () => {
    const attempt = (csv: string) => importStoreItemsCsv(db, csv, { dryRun: true, staff });
    await expect(attempt("SKU,Name,Price,Stock\nA,B,1,1\n")).rejects.toThrow(
      new CsvImportError(
        "Missing column Taxable. The columns are: SKU, Barcode, Name, Price, Stock, Taxable.",
      ),
    );
    await expect(attempt("RegSerialNo,Title\n1,T\n")).rejects.toThrow(
      /^Unknown columns "RegSerialNo", "Title"\. .* This looks like a catalogue's file/,
    );
    await expect(attempt("")).rejects.toThrow(/^The file is empty\./);
  });
});
