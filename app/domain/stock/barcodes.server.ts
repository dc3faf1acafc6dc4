import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { violatedConstraint } from "#app/db/errors.ts";
import { productBarcodes, storeItems } from "#app/db/schema.ts";
import { gtinOf, isGtinLength } from "./barcode.ts";
import type { StockProduct } from "./status.ts";

// One table of barcodes for titles of both catalogues and the store's items (decision 023): a
// barcode names one product in the whole shop, so a scan at the counter finds exactly one.

export type Product = { type: StockProduct; id: number };

export const BARCODE_TAKEN = "This barcode is on another product.";

/** Products per statement when many are read or written at once (one array parameter each). */
const BATCH = 50_000;

/**
 * Whether a failed save failed because the barcode is another product's already, as typed or
 * in another length of the same GTIN (a UPC-A and its EAN-13).
 */
export function barcodeTaken(error: unknown): boolean {
  const constraint = violatedConstraint(error);
  return constraint === "product_barcodes_pkey" || constraint === "product_barcodes_gtin";
}

/**
 * The barcodes a code typed or scanned finds (spaces and dashes left out): a whole GTIN in any of
 * its lengths (a UPC-A scanned as its EAN-13), compared as GS1 compares codes, widened to 14
 * digits; anything else as typed.
 */
export function barcodeMatches(code: string): SQL {
  const digits = code.replace(/[\s-]/g, "");
  return /^\d+$/.test(digits) && isGtinLength(digits)
    ? eq(productBarcodes.gtin, gtinOf(digits))
    : eq(productBarcodes.barcode, digits);
}

/** The product's barcode as the form shows it ("" for none). */
export async function barcodeOf(db: Database | Transaction, product: Product): Promise<string> {
  const [row] = await db
    .select({ barcode: productBarcodes.barcode })
    .from(productBarcodes)
    .where(
      and(eq(productBarcodes.productType, product.type), eq(productBarcodes.productId, product.id)),
    );
  return row?.barcode ?? "";
}

/** The product's barcode as typed: replaced, or removed when the field was emptied. */
export async function setBarcode(tx: Transaction, product: Product, barcode: string | null) {
  await setBarcodes(tx, product.type, [{ id: product.id, barcode }]);
}

/** A product of one kind and the barcode it is to have (null: none). */
export type BarcodeOf = { id: number; barcode: string | null };

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

/**
 * Many products' barcodes at once (a CSV import): each replaced, or removed where null; a product
 * that has its barcode already is left alone. Every removal comes before every new code, so the
 * products given may trade their codes. One statement per batch of products, arrays as parameters.
 */
export async function setBarcodes(
  tx: Transaction,
  type: StockProduct,
  products: readonly BarcodeOf[],
): Promise<void> {
  const current = new Map<number, string>();
  for (const batch of batches(products)) {
    const ids = batch.map((product) => product.id);
    const rows = await tx
      .select({ id: productBarcodes.productId, barcode: productBarcodes.barcode })
      .from(productBarcodes)
      .where(
        sql`${productBarcodes.productType} = ${type} and ${productBarcodes.productId} = any(${sql.param(ids)}::int[])`,
      );
    for (const row of rows) current.set(row.id, row.barcode);
  }
  const changed = products.filter(
    (product) => (current.get(product.id) ?? null) !== product.barcode,
  );
  const removed = changed.filter((product) => current.has(product.id)).map((product) => product.id);
  for (const ids of batches(removed)) {
    await tx
      .delete(productBarcodes)
      .where(
        sql`${productBarcodes.productType} = ${type} and ${productBarcodes.productId} = any(${sql.param(ids)}::int[])`,
      );
  }
  const added = changed.filter((product) => product.barcode !== null);
  for (const batch of batches(added)) {
    await tx.execute(sql`
      insert into ${productBarcodes} (barcode, product_type, product_id)
      select code, ${type}, id
        from unnest(${sql.param(batch.map((product) => product.barcode))}::text[],
                    ${sql.param(batch.map((product) => product.id))}::int[]) as given(code, id)`);
  }
}

/** A row of an import and the product it is about (undefined: a new one) with its barcode. */
export type BarcodeClaim = { row: number; id: number | undefined; barcode: string | null };

/** How staff find a product: the catalogue's serial, or the item's SKU. */
function productLabel(owner: { type: StockProduct; id: number; sku: string | null }): string {
  if (owner.type === "item") return `store item ${owner.sku ?? owner.id}`;
  return `${owner.type} title ${owner.id}`;
}

/**
 * Why rows of an import may not give their products these barcodes, by row number: a code on a
 * product the file does not list. One on a product the file lists is free, as that product's own
 * row gives it another (or the same row keeps it). `claims` are every row the import would write.
 */
export async function barcodeClaimProblems(
  db: Database | Transaction,
  type: StockProduct,
  claims: readonly BarcodeClaim[],
): Promise<Map<number, string>> {
  const problems = new Map<number, string>();
  const listed = new Set(claims.flatMap((claim) => (claim.id === undefined ? [] : [claim.id])));
  const coded = claims.filter((claim) => claim.barcode !== null);
  for (const batch of batches(coded)) {
    const { rows } = await db.execute<{
      gtin: string;
      type: StockProduct;
      id: number;
      sku: string | null;
    }>(sql`
      select b.gtin, b.product_type as type, b.product_id as id, s.sku
        from ${productBarcodes} as b
        left join ${storeItems} as s on b.product_type = 'item' and s.id = b.product_id
       where b.gtin = any(${sql.param(batch.map((claim) => gtinOf(claim.barcode!)))}::text[])`);
    const owners = new Map(rows.map((row) => [row.gtin, row]));
    for (const claim of batch) {
      const owner = owners.get(gtinOf(claim.barcode!));
      if (!owner || (owner.type === type && listed.has(owner.id))) continue;
      problems.set(
        claim.row,
        `Barcode ${claim.barcode} is on another product (${productLabel(owner)}).`,
      );
    }
  }
  return problems;
}
