import { eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { adultTitles, regularTitles } from "#app/db/schema.ts";
import { nameStockMove, type StockMove } from "#app/domain/stock/ledger.server.ts";
import type { ProductType } from "#app/lib/catalog.ts";
import { compareLines, keyOf, mergeOrderLines, type OrderLine } from "./checkout-input.ts";

export type Shortage = {
  productType: ProductType;
  serialNo: number;
  title: string;
  requested: number;
  /** How many are left (0: sold out). */
  available: number;
};

/** The SQLSTATE `take_stock` (migration 0014) raises when lines are short. */
const OUT_OF_STOCK = "RR001";

export type Shortfall = { productType: ProductType; serialNo: number; available: number };

/**
 * The lines a failed `take_stock` call found short, with how many of each are left, or
 * undefined when the error is something else. Drizzle wraps the driver's error in its own
 * (`cause`).
 */
export function stockShortfall(error: unknown): Shortfall[] | undefined {
  for (let current = error; current && typeof current === "object";) {
    const { code, detail, cause } = current as { code?: string; detail?: string; cause?: unknown };
    if (code === OUT_OF_STOCK) {
      return (detail ?? "").split(",").map((entry) => {
        const [productType, serialNo, available] = entry.split(":");
        return {
          productType: productType as ProductType,
          serialNo: Number(serialNo),
          available: Number(available),
        };
      });
    }
    current = cause;
  }
  return undefined;
}

/** `take_stock`'s arguments for these lines: one array per column, in the fixed order. */
function stockArguments(lines: readonly OrderLine[]) {
  const merged = mergeOrderLines(lines);
  return {
    types: merged.map((line) => line.productType),
    serials: merged.map((line) => line.serialNo),
    quantities: merged.map((line) => line.quantity),
  };
}

/**
 * Reserves every line or reports which is short, through the database's `take_stock`: lines are
 * taken in one fixed order, so concurrent orders never deadlock, and the condition is part of
 * each update, so they can never take a count below zero. On a shortage the caller must roll
 * back (the transaction, or the savepoint it called this in).
 */
export async function reserveStock(
  tx: Transaction,
  lines: readonly OrderLine[],
  move: StockMove,
): Promise<{ ok: true } | { ok: false; failed: OrderLine }> {
  const { types, serials, quantities } = stockArguments(lines);
  await nameStockMove(tx, move);
  try {
    await tx.execute(
      sql`select take_stock(${sql.param(types)}::text[], ${sql.param(serials)}::integer[], ${sql.param(quantities)}::integer[])`,
    );
    return { ok: true };
  } catch (error) {
    const [first] = stockShortfall(error) ?? [];
    const failed = first && lines.find((line) => keyOf(line) === keyOf(first));
    if (!failed) throw error;
    return { ok: false, failed };
  }
}

/**
 * Puts lines back on the shelf (an unpaid order released, an order cancelled, a return received),
 * in the same fixed order, the ledger saying why.
 */
export async function returnStock(
  tx: Transaction,
  lines: readonly OrderLine[],
  move: StockMove,
): Promise<void> {
  if (lines.length === 0) return;
  await nameStockMove(tx, move);
  for (const line of mergeOrderLines(lines)) {
    if (line.productType === "regular") {
      await tx
        .update(regularTitles)
        .set({ qtyToList: sql`${regularTitles.qtyToList} + ${line.quantity}` })
        .where(eq(regularTitles.regSerialNo, line.serialNo));
    } else {
      await tx
        .update(adultTitles)
        .set({ quantity: sql`${adultTitles.quantity} + ${line.quantity}` })
        .where(eq(adultTitles.adultSerialNo, line.serialNo));
    }
  }
}

/**
 * Which lines cannot be served from the stock as it stands now, with what is left of each.
 * `mustInclude` is the line a reservation just failed on: it is reported even if stock came
 * back in the meantime, so a refused order always names a reason.
 */
export async function findShortages(
  db: Database | Transaction,
  lines: readonly OrderLine[],
  titles: ReadonlyMap<string, string>,
  mustInclude?: OrderLine,
): Promise<Shortage[]> {
  const regularSerials = lines.filter((l) => l.productType === "regular").map((l) => l.serialNo);
  const adultSerials = lines.filter((l) => l.productType === "adult").map((l) => l.serialNo);
  const [regular, adult] = await Promise.all([
    regularSerials.length
      ? db
          .select({ serialNo: regularTitles.regSerialNo, left: regularTitles.qtyToList })
          .from(regularTitles)
          .where(inArray(regularTitles.regSerialNo, regularSerials))
      : [],
    adultSerials.length
      ? db
          .select({ serialNo: adultTitles.adultSerialNo, left: adultTitles.quantity })
          .from(adultTitles)
          .where(inArray(adultTitles.adultSerialNo, adultSerials))
      : [],
  ]);
  const left = new Map<string, number>([
    ...regular.map((row) => [`regular:${row.serialNo}`, row.left] as const),
    ...adult.map((row) => [`adult:${row.serialNo}`, row.left] as const),
  ]);
  return lines
    .map((line) => {
      const key = `${line.productType}:${line.serialNo}`;
      const available = Math.max(0, left.get(key) ?? 0);
      const forced =
        mustInclude?.productType === line.productType && mustInclude.serialNo === line.serialNo;
      return {
        short: available < line.quantity || forced,
        shortage: {
          productType: line.productType,
          serialNo: line.serialNo,
          title: titles.get(key) ?? `#${line.serialNo}`,
          requested: line.quantity,
          available: forced ? Math.min(available, line.quantity - 1) : available,
        },
      };
    })
    .filter((entry) => entry.short)
    .map((entry) => entry.shortage)
    .sort(compareLines);
}
