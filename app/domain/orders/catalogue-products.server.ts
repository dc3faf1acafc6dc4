import { eq } from "drizzle-orm";
import { queryByHand, type Database } from "#app/db/client.server.ts";
import { customers } from "#app/db/schema.ts";
import type { ProductType } from "#app/lib/catalog.ts";
import { attemptValues, countAttemptAnd, type AttemptLimits } from "./attempts.server.ts";
import { keyOf, type OrderLine } from "./checkout-input.ts";

export type ProductRef = { productType: ProductType; serialNo: number };

/** Both catalogues in one statement (serials of each in the parameters named). */
const catalogueProductsSql = (regular: string, adult: string) => `
  select 'regular' as product_type, reg_serial_no as serial_no, title,
         current_price_cents as unit_price_cents, qty_to_list as stock
    from regular_titles where reg_serial_no = any(${regular}::integer[])
  union all
  select 'adult', adult_serial_no, title, price_cents, quantity
    from adult_titles where adult_serial_no = any(${adult}::integer[])`;

/** Prepared once per connection, as each statement below. */
const CATALOGUE_PRODUCTS_SQL = catalogueProductsSql("$1", "$2");

/** The attempt counted and the catalogue read in one statement (attempts.server.ts). */
const COUNT_ATTEMPT_AND_READ_PRODUCTS_SQL = countAttemptAnd(catalogueProductsSql("$5", "$6"));

type ProductRow = {
  product_type: ProductType | null;
  serial_no: number;
  title: string;
  unit_price_cents: number;
  stock: number;
};

function serialsOf(lines: readonly ProductRef[], type: ProductType) {
  return lines.filter((line) => line.productType === type).map((line) => line.serialNo);
}

function productMap(rows: ProductRow[]) {
  return new Map<string, { title: string; unitPriceCents: number; stock: number }>(
    rows
      .filter((row) => row.product_type !== null)
      .map((row) => [
        keyOf({ productType: row.product_type!, serialNo: row.serial_no }),
        { title: row.title, unitPriceCents: row.unit_price_cents, stock: row.stock },
      ]),
  );
}

export type CatalogueProducts = ReturnType<typeof productMap>;

/** Today's title, price and stock of each product, straight from the catalogue. */
export async function catalogueProducts(db: Database, lines: readonly ProductRef[]) {
  const { rows } = await queryByHand<ProductRow>(db, {
    name: "catalogue-products",
    text: CATALOGUE_PRODUCTS_SQL,
    values: [serialsOf(lines, "regular"), serialsOf(lines, "adult")],
  });
  return productMap(rows);
}

/**
 * The catalogue's rows for these lines, read in the statement that counts this payment attempt;
 * `retryAfterSeconds` is set when the attempt is past a limit.
 */
async function countAttemptAndReadProducts(
  db: Database,
  customerId: string,
  limits: AttemptLimits,
  lines: readonly ProductRef[],
) {
  const { rows } = await queryByHand<ProductRow & { retry_after_seconds: number | null }>(db, {
    name: "count-attempt-and-read-products",
    text: COUNT_ATTEMPT_AND_READ_PRODUCTS_SQL,
    values: [
      ...attemptValues(customerId, limits),
      serialsOf(lines, "regular"),
      serialsOf(lines, "adult"),
    ],
  });
  return { products: productMap(rows), retryAfterSeconds: rows[0]?.retry_after_seconds ?? null };
}

/**
 * The buyer's date of birth (only for adult lines) and the catalogue's rows for the lines, read
 * at once; with `attempts`, the catalogue is read in the statement that counts this attempt.
 */
export function readBuyerAndCatalogue(
  db: Database,
  customerId: string,
  lines: readonly OrderLine[],
  hasAdultLines: boolean,
  attempts: AttemptLimits | undefined,
) {
  return Promise.all([
    hasAdultLines
      ? db
          .select({ dateOfBirth: customers.dateOfBirth })
          .from(customers)
          .where(eq(customers.id, customerId))
      : [{ dateOfBirth: null }],
    attempts
      ? countAttemptAndReadProducts(db, customerId, attempts, lines)
      : catalogueProducts(db, lines).then((products) => ({ products, retryAfterSeconds: null })),
  ]);
}
