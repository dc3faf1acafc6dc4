import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { freshBarcode } from "#tests/support/barcodes.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { storeItemSchema } from "./item-input.ts";
import { exportStoreItemsCsv, STORE_ITEM_CSV_COLUMNS } from "./items-csv.server.ts";
import { addStoreItem, archiveStoreItem } from "./items.server.ts";

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
