import { and, desc, eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { stockMoves } from "#app/db/schema.ts";
import type { StockProduct, StockReason } from "./status.ts";

/** Why the stock this transaction changes moves, and what caused it ("order 1234"). */
export type StockMove = { reason: StockReason; reference: string };

/** How the ledger names one order, or several released together. */
export function ordersReference(ids: readonly number[]): string {
  return ids.length === 1 ? `order ${ids[0]}` : `orders ${ids.join(", ")}`;
}

/**
 * Names the stock changes the rest of this transaction makes, for the ledger the database writes
 * (decision 023); the staff member is named by `withActor`. Unnamed, a change is an adjustment.
 */
export async function nameStockMove(tx: Transaction, move: StockMove): Promise<void> {
  await tx.execute(
    sql`select set_config('shop.stock_reason', ${move.reason}, true), set_config('shop.stock_reference', ${move.reference}, true)`,
  );
}

export type StockLedgerRow = {
  id: number;
  change: number;
  stockAfter: number;
  reason: StockReason;
  reference: string | null;
  actorName: string | null;
  createdAt: Date;
};

/** A product's ledger, newest first. */
export function stockLedger(
  db: Database | Transaction,
  product: { type: StockProduct; id: number },
  limit = 100,
): Promise<StockLedgerRow[]> {
  return db
    .select({
      id: stockMoves.id,
      change: stockMoves.change,
      stockAfter: stockMoves.stockAfter,
      reason: stockMoves.reason,
      reference: stockMoves.reference,
      actorName: stockMoves.actorName,
      createdAt: stockMoves.createdAt,
    })
    .from(stockMoves)
    .where(and(eq(stockMoves.productType, product.type), eq(stockMoves.productId, product.id)))
    .orderBy(desc(stockMoves.id))
    .limit(limit);
}
