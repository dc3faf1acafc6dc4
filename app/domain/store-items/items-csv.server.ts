import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { productBarcodes, storeItems } from "#app/db/schema.ts";
import { csvRows } from "#app/lib/csv.server.ts";
import { formatPriceInput } from "#app/lib/money.ts";

// The store's items as CSV (decision 023, point 2): the columns the item form has, written as the
// form takes them (a price in dollars, taxable yes or no), so that a file read back changes
// nothing. Written through the shop's one CSV writer, which neutralises spreadsheet formulas.

export const STORE_ITEM_CSV_COLUMNS = ["SKU", "Barcode", "Name", "Price", "Stock", "Taxable"];

const PAGE = 2_000;

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
        and(eq(productBarcodes.productType, "item"), eq(productBarcodes.productId, storeItems.id)),
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
