import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { adultTitles, regularTitles } from "#app/db/schema.ts";
import type { ProductType } from "#app/lib/catalog.ts";
import { compareLines, mergeOrderLines, type OrderLine } from "./checkout-input.ts";

/** A transaction handed out by `db.transaction`. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type Shortage = {
  productType: ProductType;
  serialNo: number;
  title: string;
  requested: number;
  /** How many are left (0: sold out). */
  available: number;
};

/**
 * Takes one line's quantity off the shelf if (and only if) that many are left. The condition is
 * part of the update, so concurrent orders can never take the count below zero.
 */
async function reserveLine(tx: Transaction, line: OrderLine): Promise<boolean> {
  const rows =
    line.productType === "regular"
      ? await tx
          .update(regularTitles)
          .set({ qtyToList: sql`${regularTitles.qtyToList} - ${line.quantity}` })
          .where(
            and(
              eq(regularTitles.regSerialNo, line.serialNo),
              gte(regularTitles.qtyToList, line.quantity),
            ),
          )
          .returning({ serialNo: regularTitles.regSerialNo })
      : await tx
          .update(adultTitles)
          .set({ quantity: sql`${adultTitles.quantity} - ${line.quantity}` })
          .where(
            and(
              eq(adultTitles.adultSerialNo, line.serialNo),
              gte(adultTitles.quantity, line.quantity),
            ),
          )
          .returning({ serialNo: adultTitles.adultSerialNo });
  return rows.length === 1;
}

/**
 * Reserves every line or reports which are short. Lines are taken in one fixed order (see
 * `mergeOrderLines`) so that concurrent orders lock stock rows in the same order and never
 * deadlock. On a shortage the caller must roll back: earlier lines were already taken.
 */
export async function reserveStock(
  tx: Transaction,
  lines: readonly OrderLine[],
): Promise<{ ok: true } | { ok: false; failed: OrderLine }> {
  for (const line of mergeOrderLines(lines)) {
    if (!(await reserveLine(tx, line))) return { ok: false, failed: line };
  }
  return { ok: true };
}

/** Puts lines back on the shelf (an unpaid order released), in the same fixed order. */
export async function returnStock(tx: Transaction, lines: readonly OrderLine[]): Promise<void> {
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
