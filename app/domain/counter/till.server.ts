import { and, desc, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { violatedConstraint } from "#app/db/errors.ts";
import { counterSales, tillSessions } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { refuse, type Result } from "#app/lib/reply.server.ts";
import { keptReport, zReport, type TillRow, type ZReport } from "./z-report.server.ts";

// The till (decision 023, point 7): one session at a time, opened with a float and closed with
// the cash counted, its Z report kept with it.

const tillColumns = {
  report: tillSessions.report,
  id: tillSessions.id,
  openedAt: tillSessions.openedAt,
  openedByName: tillSessions.openedByName,
  floatCents: tillSessions.floatCents,
  closedAt: tillSessions.closedAt,
  closedByName: tillSessions.closedByName,
  countedCents: tillSessions.countedCents,
};

/** A till session as kept: its Z report once it closed. */
export type KeptTill = TillRow & { report: unknown };

/** The till that is open now, if any. */
export async function openTill(db: Database): Promise<KeptTill | undefined> {
  const [till] = await db
    .select(tillColumns)
    .from(tillSessions)
    .where(isNull(tillSessions.closedAt));
  return till;
}

export async function getTill(db: Database, id: number): Promise<KeptTill | undefined> {
  const [till] = await db.select(tillColumns).from(tillSessions).where(eq(tillSessions.id, id));
  return till;
}

/** The most recent closed tills, newest first, with their kept reports. */
export async function closedTills(
  db: Database,
  limit = 30,
): Promise<{ id: number; closedAt: Date; report: ZReport }[]> {
  const rows = await db
    .select({ id: tillSessions.id, closedAt: tillSessions.closedAt, report: tillSessions.report })
    .from(tillSessions)
    .where(isNotNull(tillSessions.closedAt))
    .orderBy(desc(tillSessions.id))
    .limit(limit);
  return rows.flatMap((row) =>
    row.closedAt && row.report
      ? [{ id: row.id, closedAt: row.closedAt, report: keptReport(row.report) }]
      : [],
  );
}

/** Opens the till with a float; refused while another is open. */
export async function openTillSession(
  db: Database,
  floatCents: number,
  staff: Staff,
): Promise<Result<{ tillId: number }>> {
  try {
    const [till] = await db
      .insert(tillSessions)
      .values({ floatCents, openedById: staff.id, openedByName: staff.name })
      .returning({ id: tillSessions.id });
    return { ok: true, message: "The till is open.", tillId: till!.id };
  } catch (error) {
    if (violatedConstraint(error) === "till_sessions_one_open") {
      return refuse("conflict", "The till is already open.");
    }
    throw error;
  }
}

/**
 * Closes the till with the cash counted, keeping its Z report. Refused while a sale with lines
 * is open in it (finish or void it first); an open sale with nothing in it is voided.
 */
export async function closeTillSession(
  db: Database,
  tillId: number,
  countedCents: number,
  staff: Staff,
  now = new Date(),
): Promise<Result<{ report: ZReport }>> {
  return db.transaction(async (tx) => {
    const [till] = await tx
      .select(tillColumns)
      .from(tillSessions)
      .where(and(eq(tillSessions.id, tillId), isNull(tillSessions.closedAt)))
      .for("update");
    if (!till) return refuse("conflict", "This till was closed already.");
    const open = await tx.query.counterSaleLines.findFirst({
      columns: { id: true },
      where: (line, { exists }) =>
        exists(
          tx
            .select({ id: counterSales.id })
            .from(counterSales)
            .where(
              and(
                eq(counterSales.id, line.saleId),
                eq(counterSales.tillSessionId, tillId),
                inArray(counterSales.status, ["open", "awaiting_card"]),
              ),
            ),
        ),
    });
    // A sale waiting for the card reader counts: its stock is taken and its money may come.
    if (open) return refuse("conflict", "Finish or void the sale in progress first.");
    await tx
      .update(counterSales)
      .set({ status: "voided" })
      .where(and(eq(counterSales.tillSessionId, tillId), eq(counterSales.status, "open")));
    const closed = { ...till, closedAt: now, closedByName: staff.name, countedCents };
    const report = await zReport(tx, closed, now);
    await tx
      .update(tillSessions)
      .set({ closedAt: now, closedById: staff.id, closedByName: staff.name, countedCents, report })
      .where(eq(tillSessions.id, tillId));
    return { ok: true as const, message: "The till is closed.", report };
  });
}
