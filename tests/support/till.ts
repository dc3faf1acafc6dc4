import type { Database } from "#app/db/client.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { openSaleOf, voidSale } from "#app/domain/counter/sales.server.ts";
import { closeTillSession, openTill, openTillSession } from "#app/domain/counter/till.server.ts";

/**
 * A till of the test's own: the one open before it (the shop has one) is closed first, its open
 * sale voided. Returns the new till's id.
 */
export async function freshTill(db: Database, staff: Staff, taxRate: number): Promise<number> {
  const open = await openTill(db);
  if (open) {
    const sale = await openSaleOf(db, open.id, taxRate);
    if (sale) await voidSale(db, sale.id);
    await closeTillSession(db, open.id, 0, staff);
  }
  const opened = await openTillSession(db, 10_000, staff);
  if (!opened.ok) throw new Error(opened.message);
  return opened.tillId;
}
