import { sql, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { containsPattern } from "#app/domain/catalog/search-text.ts";
import { productBarcodes } from "#app/db/schema.ts";
import { barcodeMatches } from "#app/domain/stock/barcodes.server.ts";
import type { StockProduct } from "#app/domain/stock/status.ts";

// Finding what the customer brought to the counter (decision 023, point 2): a scanned barcode,
// a serial number or SKU typed in, or a few words of its name.

/** A product as the counter sells it: what it is, what it costs now, and how many are left. */
export type CounterProduct = {
  type: StockProduct;
  id: number;
  name: string;
  priceCents: number;
  stock: number;
  taxable: boolean;
  /** Shown to the clerk beside the name: the disc or "Store item", and the serial or SKU. */
  detail: string;
};

type Row = {
  type: StockProduct;
  id: number;
  name: string;
  price_cents: number;
  stock: number;
  taxable: boolean;
  detail: string;
};

const REGULAR = sql`select 'regular'::text as type, r.reg_serial_no as id, r.title as name,
  r.current_price_cents as price_cents, r.qty_to_list as stock, true as taxable,
  r.disc || ' · #' || r.reg_serial_no as detail from regular_titles as r`;
const ADULT = sql`select 'adult'::text as type, a.adult_serial_no as id, a.title as name,
  a.price_cents, a.quantity as stock, true as taxable,
  'Adult · ' || coalesce(a.disc || ' · ', '') || 'A' || a.adult_serial_no as detail
  from adult_titles as a`;
const ITEM = sql`select 'item'::text as type, i.id, i.name, i.price_cents, i.stock, i.taxable,
  'Store item · ' || i.sku as detail from store_items as i`;

function product(row: Row): CounterProduct {
  return {
    type: row.type,
    id: Number(row.id),
    name: row.name,
    priceCents: row.price_cents,
    stock: row.stock,
    taxable: row.taxable,
    detail: row.detail,
  };
}

async function first(db: Database | Transaction, query: SQL): Promise<CounterProduct | undefined> {
  const { rows } = await db.execute<Row>(query);
  return rows[0] && product(rows[0]);
}

/**
 * The one product a code names, or undefined: 8 to 14 digits are a UPC/EAN barcode (what a
 * scanner types), a number (up to 8 digits, when no barcode has them) a regular title's serial, "A" and a number an adult title's, and
 * anything else a store item's SKU. An archived item is not for sale.
 */
export async function findByCode(
  db: Database | Transaction,
  code: string,
): Promise<CounterProduct | undefined> {
  const text = code.trim();
  const digits = text.replace(/[\s-]/g, "");
  if (/^\d{8,14}$/.test(digits)) {
    const scanned = await first(
      db,
      sql`select p.* from ${productBarcodes}
            join (${REGULAR} union all ${ADULT}
                  union all (${ITEM} where i.archived_at is null)) as p
              on p.type = ${productBarcodes.productType} and p.id = ${productBarcodes.productId}
           where ${barcodeMatches(digits)}`,
    );
    // Eight digits are an EAN-8 or a long serial number: the barcode first.
    if (scanned || digits.length > 8) return scanned;
  }
  const serial = /^#?(\d{1,8})$/.exec(text);
  if (serial) return first(db, sql`${REGULAR} where r.reg_serial_no = ${Number(serial[1])}`);
  const adult = /^A#?(\d{1,8})$/i.exec(text);
  if (adult) return first(db, sql`${ADULT} where a.adult_serial_no = ${Number(adult[1])}`);
  if (text === "" || text.length > 40) return undefined;
  return first(db, sql`${ITEM} where lower(i.sku) = lower(${text}) and i.archived_at is null`);
}

/** A few products whose name contains the words typed, for the clerk to choose from. */
export async function searchProducts(
  db: Database | Transaction,
  words: string,
  limit = 8,
): Promise<CounterProduct[]> {
  const text = words.trim().replace(/\s+/g, " ").slice(0, 100);
  if (text.length < 2) return [];
  const pattern = containsPattern(text);
  const { rows } = await db.execute<Row>(
    sql`(${REGULAR} where r.title ilike ${pattern} order by r.title, r.reg_serial_no limit ${limit})
        union all
        (${ADULT} where a.title ilike ${pattern} order by a.title, a.adult_serial_no limit ${limit})
        union all
        (${ITEM} where i.archived_at is null and lower(i.name) like lower(${pattern})
          order by lower(i.name), i.id limit ${limit})`,
  );
  return rows.slice(0, limit * 3).map(product);
}

/** A product as it stands now (price, stock, name), if it is still for sale. */
export async function productNow(
  db: Database | Transaction,
  type: StockProduct,
  id: number,
): Promise<CounterProduct | undefined> {
  if (type === "regular") return first(db, sql`${REGULAR} where r.reg_serial_no = ${id}`);
  if (type === "adult") return first(db, sql`${ADULT} where a.adult_serial_no = ${id}`);
  return first(db, sql`${ITEM} where i.id = ${id} and i.archived_at is null`);
}
