import { and, eq } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { violatedConstraint } from "#app/db/errors.ts";
import { productBarcodes } from "#app/db/schema.ts";
import type { StockProduct } from "./status.ts";

// One table of barcodes for titles of both catalogues and the store's items (decision 023): a
// barcode names one product in the whole shop, so a scan at the counter finds exactly one.

export type Product = { type: StockProduct; id: number };

export const BARCODE_TAKEN = "This barcode is on another product.";

/** Whether a failed save failed because the barcode is another product's already. */
export function barcodeTaken(error: unknown): boolean {
  return violatedConstraint(error) === "product_barcodes_pkey";
}

/** The product's barcode as the form shows it ("" for none). */
export async function barcodeOf(db: Database, product: Product): Promise<string> {
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
  await tx
    .delete(productBarcodes)
    .where(
      and(eq(productBarcodes.productType, product.type), eq(productBarcodes.productId, product.id)),
    );
  if (barcode) {
    await tx
      .insert(productBarcodes)
      .values({ barcode, productType: product.type, productId: product.id });
  }
}
