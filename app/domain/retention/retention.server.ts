// The retention sweep: deletes personal data past the period docs/security.md states for it
// (periods.ts). One scheduled job runs it (retention-jobs.server.ts); every deletion is by date,
// so running it twice, or from two processes, deletes nothing more.
import { and, asc, eq, inArray, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database, Transaction } from "#app/db/client.server.ts";
import {
  contacts,
  inboxReplies,
  rateLimits,
  repairTicketPhotos,
  repairTickets,
  serviceRequests,
  sessions,
  stockAlerts,
  verifications,
} from "#app/db/schema.ts";
import { type PosterStorage, repairPhotoStorage } from "#app/domain/posters/storage.server.ts";
import { daysBefore, RETENTION_DAYS, repairStatusLinkEnded } from "./periods.ts";

/** How many rows of each kind one sweep deleted. */
export type SweepCounts = {
  unconfirmedAlerts: number;
  sentAlerts: number;
  unsubscribedAlerts: number;
  unconfirmedBookings: number;
  bookings: number;
  contactMessages: number;
  intakePhotos: number;
  sessions: number;
  verifications: number;
  rateLimits: number;
};

/** Rows deleted per statement: a sweep after a long pause never holds a table for long. */
const BATCH = 1000;

/**
 * Deletes the rows of `table` that `where` selects, `batch` a statement until none is left, each
 * batch in a transaction of its own with whatever `alongside` deletes for it (given the batch's
 * keys). Rows another sweep holds are skipped, not waited for.
 */
async function deleteInBatches(
  db: Database,
  table: PgTable,
  key: AnyPgColumn,
  where: SQL | undefined,
  batch: number,
  alongside?: (tx: Transaction, ids: number[]) => Promise<void>,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ id: number | string }>(
        sql`delete from ${table} where ${key} in (
              select ${key} from ${table} where ${where} limit ${batch} for update skip locked
            ) returning ${key} as id`,
      );
      if (alongside && rows.length > 0) {
        await alongside(
          tx,
          rows.map((row) => Number(row.id)),
        );
      }
      return rows.length;
    });
    deleted += count;
    if (count < batch) return deleted;
  }
}

/**
 * Deletes the intake photos of tickets closed longer ago than their period: each file first,
 * then its row, so a file that cannot be removed now keeps its row and is tried again next time.
 */
async function sweepIntakePhotos(
  db: Database,
  now: Date,
  storage: PosterStorage,
  batch: number,
): Promise<number> {
  const closedBefore = daysBefore(now, RETENTION_DAYS.intakePhoto);
  let deleted = 0;
  let afterId = 0;
  for (;;) {
    const photos = await db
      .select({ id: repairTicketPhotos.id, storageKey: repairTicketPhotos.storageKey })
      .from(repairTicketPhotos)
      .innerJoin(repairTickets, eq(repairTickets.number, repairTicketPhotos.ticketNumber))
      .where(
        and(
          isNotNull(repairTickets.closedAt),
          lt(repairTickets.closedAt, closedBefore),
          sql`${repairTicketPhotos.id} > ${afterId}`,
        ),
      )
      .orderBy(asc(repairTicketPhotos.id))
      .limit(batch);
    if (photos.length === 0) return deleted;
    afterId = photos.at(-1)!.id;
    const removed: number[] = [];
    for (const photo of photos) {
      try {
        await storage.delete(photo.storageKey);
        removed.push(photo.id);
      } catch (error) {
        console.warn("An intake photo past its retention could not be removed yet", error);
      }
    }
    if (removed.length > 0) {
      const rows = await db
        .delete(repairTicketPhotos)
        .where(inArray(repairTicketPhotos.id, removed))
        .returning({ id: repairTicketPhotos.id });
      deleted += rows.length;
    }
    if (photos.length < batch) return deleted;
  }
}

/** Staff replies kept with contact messages or bookings (`kind`) that are being deleted. */
function deleteReplies(kind: "contact" | "repair") {
  return async (tx: Transaction, ids: number[]) => {
    await tx
      .delete(inboxReplies)
      .where(and(eq(inboxReplies.kind, kind), inArray(inboxReplies.itemId, ids)));
  };
}

/**
 * Deletes every kind of personal data past its period (periods.ts, docs/security.md) and says
 * how many rows of each went. Repair tickets and orders themselves are the shop's records of
 * money taken and are not swept; a ticket's status link stops working by date alone
 * (`repairStatusLinkState`).
 */
export async function sweepPersonalData(
  db: Database,
  options: { now?: Date; photoStorage?: PosterStorage; batch?: number } = {},
): Promise<SweepCounts> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? BATCH;
  const before = (days: number) => daysBefore(now, days);
  const alerts = (where: SQL | undefined) =>
    deleteInBatches(db, stockAlerts, stockAlerts.id, where, batch);
  return {
    unconfirmedAlerts: await alerts(
      and(
        eq(stockAlerts.status, "unconfirmed"),
        lt(stockAlerts.createdAt, before(RETENTION_DAYS.unconfirmedAlert)),
      ),
    ),
    sentAlerts: await alerts(
      and(eq(stockAlerts.status, "sent"), lt(stockAlerts.sentAt, before(RETENTION_DAYS.sentAlert))),
    ),
    unsubscribedAlerts: await alerts(
      and(
        eq(stockAlerts.status, "unsubscribed"),
        lt(
          sql`coalesce(${stockAlerts.unsubscribedAt}, ${stockAlerts.createdAt})`,
          before(RETENTION_DAYS.unsubscribedAlert),
        ),
      ),
    ),
    unconfirmedBookings: await deleteInBatches(
      db,
      serviceRequests,
      serviceRequests.id,
      and(
        isNull(serviceRequests.confirmedAt),
        lt(serviceRequests.confirmBy, before(RETENTION_DAYS.unconfirmedBooking)),
      ),
      batch,
      deleteReplies("repair"),
    ),
    bookings: await deleteInBatches(
      db,
      serviceRequests,
      serviceRequests.id,
      and(
        isNotNull(serviceRequests.confirmedAt),
        lt(serviceRequests.startsAt, before(RETENTION_DAYS.booking)),
      ),
      batch,
      deleteReplies("repair"),
    ),
    contactMessages: await deleteInBatches(
      db,
      contacts,
      contacts.id,
      lt(contacts.createdAt, before(RETENTION_DAYS.contactMessage)),
      batch,
      deleteReplies("contact"),
    ),
    intakePhotos: await sweepIntakePhotos(
      db,
      now,
      options.photoStorage ?? repairPhotoStorage(),
      batch,
    ),
    sessions: await deleteInBatches(db, sessions, sessions.id, lt(sessions.expiresAt, now), batch),
    verifications: await deleteInBatches(
      db,
      verifications,
      verifications.id,
      lt(verifications.expiresAt, now),
      batch,
    ),
    rateLimits: await deleteInBatches(
      db,
      rateLimits,
      rateLimits.id,
      lt(rateLimits.lastRequest, before(RETENTION_DAYS.rateLimit).getTime()),
      batch,
    ),
  };
}

/**
 * Whether a repair ticket's status link still opens it: `missing` (no such ticket), `ended`
 * (closed longer ago than the link's period), or `open`.
 */
export async function repairStatusLinkState(
  db: Database,
  ticketNumber: number,
  now: Date,
): Promise<"missing" | "ended" | "open"> {
  const [ticket] = await db
    .select({ closedAt: repairTickets.closedAt })
    .from(repairTickets)
    .where(eq(repairTickets.number, ticketNumber));
  if (!ticket) return "missing";
  return repairStatusLinkEnded(ticket.closedAt, now) ? "ended" : "open";
}
