import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { violatedConstraint } from "#app/db/errors.ts";
import { productBarcodes, storeItems } from "#app/db/schema.ts";
import { insertUnnested, updateChanged } from "#app/db/unnest.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { gtinOf } from "#app/domain/stock/barcode.ts";
import {
  barcodeClaimProblems,
  barcodeTaken,
  setBarcodes,
} from "#app/domain/stock/barcodes.server.ts";
import { nameStockMove } from "#app/domain/stock/ledger.server.ts";
import {
  columnLabels,
  CsvImportError,
  csvRows,
  firstRowOf,
  issueReasons,
  keysRequiredBy,
  namesColumn,
  readCsvImport,
  refuseRows,
  schemaInput,
  type CsvColumn,
  type CsvImportFormat,
  type CsvImportInput,
  type CsvImportReport,
  type CsvRejectedRow,
} from "#app/lib/csv.server.ts";
import { formatPriceInput } from "#app/lib/money.ts";
import { storeItemSchema, type StoreItemValues } from "./item-input.ts";

// The store's items as CSV (decision 023, point 2): the columns the item form has, written as the
// form takes them (a price in dollars, taxable yes or no), so that a file read back changes
// nothing. Written through the shop's one CSV writer, which neutralises spreadsheet formulas, and
// read back through the catalogue's import plumbing: the same dry run, report and limits.

const COLUMNS: readonly CsvColumn[] = [
  { header: "SKU", key: "sku" },
  { header: "Barcode", key: "barcode" },
  { header: "Name", key: "name" },
  { header: "Price", key: "priceCents" },
  { header: "Stock", key: "stock" },
  { header: "Taxable", key: "taxable" },
];

export const STORE_ITEM_CSV_COLUMNS = COLUMNS.map((column) => column.header);

const FORMAT: CsvImportFormat = {
  columns: COLUMNS,
  // What the form cannot do without, and Taxable: a file without it would add items read as not
  // taxable (the form's unticked box), sold without their tax. Barcode may be left out: the
  // items the file updates keep theirs.
  required: new Set([...keysRequiredBy(COLUMNS, storeItemSchema), "taxable"]),
  hint: (header) =>
    header.some((cell) => namesColumn(cell, "RegSerialNo") || namesColumn(cell, "AdultSerialNo"))
      ? " This looks like a catalogue's file: import it on the titles' page."
      : "",
};
const LABELS = columnLabels(COLUMNS);

const PAGE = 2_000;
/** Rows per INSERT statement (one array parameter per column, so no parameter limit). */
const WRITE_BATCH = 5_000;

/**
 * The items on sale, in the order they were added, one chunk of CSV text per page (keyset, so a
 * long list never sits in memory). Starts with a UTF-8 byte order mark for Excel, as the
 * catalogue's export does.
 */
export async function* exportStoreItemsCsv(db: Database): AsyncGenerator<string, void, undefined> {
  yield csvRows([STORE_ITEM_CSV_COLUMNS], { bom: true });
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        id: storeItems.id,
        sku: storeItems.sku,
        barcode: productBarcodes.barcode,
        name: storeItems.name,
        priceCents: storeItems.priceCents,
        stock: storeItems.stock,
        taxable: storeItems.taxable,
      })
      .from(storeItems)
      .leftJoin(
        productBarcodes,
        and(
          eq(productBarcodes.productType, "item"),
          eq(productBarcodes.productId, storeItems.id),
          // Said of the barcodes too, or each page's join reads them from the first item on.
          gt(productBarcodes.productId, after),
        ),
      )
      .where(and(isNull(storeItems.archivedAt), gt(storeItems.id, after)))
      .orderBy(asc(storeItems.id))
      .limit(PAGE);
    if (rows.length === 0) return;
    yield csvRows(
      rows.map((row) => [
        row.sku,
        row.barcode ?? "",
        row.name,
        formatPriceInput(row.priceCents),
        row.stock,
        row.taxable ? "yes" : "no",
      ]),
    );
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}

type ValidRow = { row: number; values: StoreItemValues };
/** A row matched to the item it updates (`id`), or to none: a new item. */
type MatchedRow = ValidRow & { id: number | undefined };

/**
 * Checks a store items CSV row by row and, unless it is a dry run, writes it: every row or none,
 * in one transaction whose stock changes the ledger names "CSV import" and the staff member.
 *
 * Rows are read by the item form's schema. A row whose SKU is an item's (in any case) updates it;
 * any other adds an item. The Barcode column, where the file has one, gives each item its barcode
 * (an empty cell: none). A SKU or barcode twice in the file, a barcode another product has, or the
 * SKU of an item taken off sale is a rejected row; with any rejected row nothing is written
 * (`written: false`). Problems with the file as a whole throw a `CsvImportError`.
 */
export async function importStoreItemsCsv(
  db: Database,
  input: CsvImportInput,
  options: { dryRun: boolean; staff: Staff | null },
): Promise<CsvImportReport> {
  const valid: ValidRow[] = [];
  const rejected: CsvRejectedRow[] = [];
  const repeatedSku = firstRowOf("SKU");
  const repeatedBarcode = firstRowOf("Barcode");
  const { presentKeys, total } = await readCsvImport(input, FORMAT, ({ row, cells, reasons }) => {
    const parsed = storeItemSchema.safeParse(schemaInput(COLUMNS, cells));
    if (!parsed.success) reasons.push(...issueReasons(parsed.error.issues, LABELS));
    // Repeats are told whatever else is wrong with either row.
    const sku = (cells.sku ?? "").trim();
    const skuRepeated = sku && repeatedSku(sku.toLowerCase(), sku, row);
    if (skuRepeated) reasons.push(skuRepeated);
    const barcode = storeItemSchema.shape.barcode.safeParse(cells.barcode ?? "").data;
    const barcodeRepeated = barcode && repeatedBarcode(gtinOf(barcode), barcode, row);
    if (barcodeRepeated) reasons.push(barcodeRepeated);

    if (reasons.length > 0) rejected.push({ row, reasons });
    else if (parsed.success) valid.push({ row, values: parsed.data });
  });
  const withBarcodes = presentKeys.includes("barcode");

  const report = (rows: MatchedRow[], written: boolean): CsvImportReport => {
    const updated = rows.filter((row) => row.id !== undefined).length;
    return {
      dryRun: options.dryRun,
      written,
      total,
      added: rows.length - updated,
      updated,
      rejected,
    };
  };

  if (options.dryRun || rejected.length > 0) {
    return report(await matchRows(db, valid, rejected, withBarcodes), false);
  }
  try {
    return await db.transaction(async (tx) => {
      // Matched in the transaction that writes, against the items as they are now.
      const rows = await matchRows(tx, valid, rejected, withBarcodes);
      if (rejected.length > 0) return report(rows, false);
      await withActor(tx, options.staff);
      await nameStockMove(tx, { reason: "import", reference: "CSV import" });
      await writeRows(tx, rows, withBarcodes);
      return report(rows, true);
    });
  } catch (error) {
    // Checked in the transaction, and taken meanwhile by a form saved in the back office.
    if (barcodeTaken(error) || violatedConstraint(error) === "store_items_sku") {
      throw new CsvImportError(
        "A SKU or barcode in the file was just given to another product. Check the file again.",
      );
    }
    throw error;
  }
}

/**
 * Matches the valid rows to the items their SKUs name, leaving out the rows that may not be
 * written, which join the rejected: the SKU of an item taken off sale, a barcode another product
 * has.
 */
async function matchRows(
  db: Database | Transaction,
  valid: ValidRow[],
  rejected: CsvRejectedRow[],
  withBarcodes: boolean,
): Promise<MatchedRow[]> {
  const items = await itemsBySku(
    db,
    valid.map((row) => row.values.sku),
  );
  const archived = new Map<number, string>();
  const matched = valid.map((row) => {
    const item = items.get(row.values.sku.toLowerCase());
    if (item?.archived) {
      archived.set(
        row.row,
        `SKU ${row.values.sku} is an item taken off sale: give this one another SKU.`,
      );
    }
    return { ...row, id: item?.id };
  });
  const claims = matched.map((row) => ({ row: row.row, id: row.id, barcode: row.values.barcode }));
  const taken = withBarcodes ? await barcodeClaimProblems(db, "item", claims) : new Map();
  refuseRows(matched, rejected, archived);
  refuseRows(matched, rejected, taken);
  return matched;
}

/** The items with these SKUs (any case), archived ones included, by their SKU in lower case. */
async function itemsBySku(db: Database | Transaction, skus: string[]) {
  const found = new Map<string, { id: number; archived: boolean }>();
  for (let i = 0; i < skus.length; i += 50_000) {
    const lower = skus.slice(i, i + 50_000).map((sku) => sku.toLowerCase());
    const rows = await db
      .select({
        id: storeItems.id,
        sku: sql<string>`lower(${storeItems.sku})`,
        archived: sql<boolean>`${storeItems.archivedAt} is not null`,
      })
      .from(storeItems)
      .where(sql`lower(${storeItems.sku}) = any(${sql.param(lower)}::text[])`);
    for (const row of rows) found.set(row.sku, { id: row.id, archived: row.archived });
  }
  return found;
}

/**
 * Writes the matched rows, one statement per batch: the items updated in ascending id (the order
 * a sale locks them in), an item whose cells are all as stored left alone; then the new items,
 * and the barcodes of both where the file has the column.
 */
async function writeRows(tx: Transaction, rows: MatchedRow[], withBarcodes: boolean) {
  const fields = ["sku", "name", "priceCents", "stock", "taxable"] as const;
  const columns = fields.map((field) => storeItems[field]);
  const arrays = (batch: MatchedRow[]) =>
    fields.map((field, index) => ({
      column: columns[index]!,
      values: batch.map((row) => row.values[field]),
    }));

  const updated = rows
    .filter((row): row is ValidRow & { id: number } => row.id !== undefined)
    .sort((a, b) => a.id - b.id);
  const onConflict = updateChanged(storeItems, storeItems.id, columns, storeItems.updatedAt);
  for (let i = 0; i < updated.length; i += WRITE_BATCH) {
    const batch = updated.slice(i, i + WRITE_BATCH);
    const ids = { column: storeItems.id, values: batch.map((row) => row.id) };
    await tx.execute(sql`${insertUnnested(storeItems, [ids, ...arrays(batch)])} ${onConflict}`);
  }

  const added = rows.filter((row) => row.id === undefined);
  const newIds = new Map<string, number>();
  for (let i = 0; i < added.length; i += WRITE_BATCH) {
    const { rows: inserted } = await tx.execute<{ id: number; sku: string }>(
      sql`${insertUnnested(storeItems, arrays(added.slice(i, i + WRITE_BATCH)))} returning id, lower(sku) as sku`,
    );
    for (const row of inserted) newIds.set(row.sku, row.id);
  }

  if (!withBarcodes) return;
  // Items that have a barcode now or may have had one: a new item without one has nothing to write.
  await setBarcodes(tx, "item", [
    ...updated.map((row) => ({ id: row.id, barcode: row.values.barcode })),
    ...added
      .filter((row) => row.values.barcode !== null)
      .map((row) => ({
        id: newIds.get(row.values.sku.toLowerCase())!,
        barcode: row.values.barcode,
      })),
  ]);
}
