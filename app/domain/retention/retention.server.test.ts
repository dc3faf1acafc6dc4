import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { eq, inArray, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import {
  contacts,
  inboxReplies,
  rateLimits,
  repairTicketPhotos,
  repairTickets,
  serviceRequests,
  sessions,
  stockAlerts,
  users,
  verifications,
} from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { createLocalStorage } from "#app/domain/posters/storage.server.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { RETENTION_DAYS } from "./periods.ts";
import { RETENTION_CRON, RETENTION_QUEUE, startRetentionJobs } from "./retention-jobs.server.ts";
import { repairStatusLinkState, sweepPersonalData } from "./retention.server.ts";

// A database of its own: the sweep deletes by date across whole tables, which must not touch
// the rows other test files are using at the same moment.
const scratch = scratchDatabase();
let db: Database;
const photoDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-retention-photos-"));
const photoStorage = createLocalStorage(photoDir);
beforeAll(() => {
  db = scratch.db();
});
afterAll(() => fs.rmSync(photoDir, { recursive: true, force: true }));

const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
/** `days` days before now, plus or minus an hour: well inside or well past a period's edge. */
const ago = (days: number, hours = 0) => new Date(now.getTime() - days * DAY - hours * 3_600_000);
const justPast = (days: number) => ago(days, 1);
const justWithin = (days: number) => ago(days, -1);
const tag = () => randomUUID().slice(0, 8);

let serial: number | undefined;
async function alert(values: Partial<typeof stockAlerts.$inferInsert>) {
  serial ??= await titleSerial();
  const [row] = await db
    .insert(stockAlerts)
    .values({
      kind: "restock",
      email: `retention-${tag()}@example.test`,
      regSerialNo: serial,
      title: "Kept or not",
      status: "active",
      ...values,
    })
    .returning({ id: stockAlerts.id });
  return row!.id;
}

/** A title to hang restock alerts on. */
async function titleSerial() {
  const { rows } = await db.execute<{ serial: number }>(
    sql`insert into regular_titles (product_id, title, disc, qty_to_list, current_price_cents)
        values (${`RET-${tag()}`}, 'Retention Title', 'DVD', 0, 999) returning reg_serial_no as serial`,
  );
  return rows[0]!.serial;
}

async function booking(values: Partial<typeof serviceRequests.$inferInsert>) {
  const [row] = await db
    .insert(serviceRequests)
    .values({
      name: "Rhea Pair",
      email: `booking-${tag()}@example.test`,
      phone: "(817) 555-0199",
      serviceType: "Game Console Repair",
      issue: "HDMI port loose",
      preferredDate: "2026-01-05",
      preferredTime: "10:00",
      startsAt: now,
      ...values,
    })
    .returning({ id: serviceRequests.id });
  return row!.id;
}

async function reply(kind: "contact" | "repair", itemId: number) {
  const [row] = await db
    .insert(inboxReplies)
    .values({ kind, itemId, body: "Thanks, see you then.", sentByName: "Staff" })
    .returning({ id: inboxReplies.id });
  return row!.id;
}

async function ticket(closedAt: Date | null) {
  const [row] = await db
    .insert(repairTickets)
    .values({
      customerName: "Tess Ticket",
      customerEmail: `ticket-${tag()}@example.test`,
      customerPhone: "(817) 555-0100",
      serviceType: "PC & Laptop Repair",
      deviceKind: "Laptop",
      deviceBrand: "Dell",
      deviceModel: "XPS 13",
      problem: "No power",
      conditionAtIntake: "Scratched lid",
      promisedDate: "2026-01-10",
      ...(closedAt ? { status: "returned" as const, closedAt } : {}),
    })
    .returning({ number: repairTickets.number });
  return row!.number;
}

async function photo(ticketNumber: number) {
  const storageKey = `${randomUUID().replaceAll("-", "")}.webp`;
  await photoStorage.put(storageKey, new Uint8Array([1, 2, 3]), "image/webp");
  const [row] = await db
    .insert(repairTicketPhotos)
    .values({ ticketNumber, storageKey, contentType: "image/webp", width: 10, height: 10 })
    .returning({ id: repairTicketPhotos.id });
  return { id: row!.id, storageKey };
}

async function user() {
  const id = randomUUID();
  await db.insert(users).values({ id, name: "Sid Session", email: `${id}@example.test` });
  return id;
}

async function session(userId: string, expiresAt: Date) {
  const id = randomUUID();
  await db.insert(sessions).values({ id, userId, token: randomUUID(), expiresAt });
  return id;
}

const ids = async <T extends { id: number | string }>(rows: Promise<T[]>) =>
  (await rows).map((row) => row.id);

describe("the retention sweep", () => {
  it("deletes exactly the personal data past its period, keeps the rest, and deletes nothing more when run again", async () => {
    const doomed: Record<string, number[]> = { alerts: [], bookings: [], contacts: [] };
    const kept: Record<string, number[]> = { alerts: [], bookings: [], contacts: [] };

    // Alerts: unconfirmed past the confirmation window, sent and stopped ones past theirs.
    doomed.alerts!.push(
      await alert({ status: "unconfirmed", createdAt: justPast(RETENTION_DAYS.unconfirmedAlert) }),
      await alert({
        status: "sent",
        createdAt: ago(400),
        sentAt: justPast(RETENTION_DAYS.sentAlert),
      }),
      await alert({
        status: "unsubscribed",
        createdAt: ago(400),
        unsubscribedAt: justPast(RETENTION_DAYS.unsubscribedAlert),
      }),
    );
    kept.alerts!.push(
      await alert({
        status: "unconfirmed",
        createdAt: justWithin(RETENTION_DAYS.unconfirmedAlert),
      }),
      await alert({
        status: "sent",
        createdAt: ago(400),
        sentAt: justWithin(RETENTION_DAYS.sentAlert),
      }),
      await alert({
        status: "unsubscribed",
        createdAt: ago(400),
        unsubscribedAt: justWithin(RETENTION_DAYS.unsubscribedAlert),
      }),
      // Waiting, however long: a promise the shop keeps until it is kept or stopped.
      await alert({ status: "active", createdAt: ago(1000), confirmedAt: ago(1000) }),
      await alert({
        status: "due",
        createdAt: ago(1000),
        dueAt: ago(1),
      }),
    );

    // Bookings: never confirmed and past the hold's grace; confirmed and a year past the visit.
    doomed.bookings!.push(
      await booking({ confirmBy: justPast(RETENTION_DAYS.unconfirmedBooking) }),
      await booking({ confirmedAt: ago(400), startsAt: justPast(RETENTION_DAYS.booking) }),
      await booking({
        confirmedAt: ago(400),
        startsAt: justPast(RETENTION_DAYS.booking),
        cancelledAt: ago(399),
        cancelledBy: "customer",
      }),
    );
    kept.bookings!.push(
      await booking({ confirmBy: justWithin(RETENTION_DAYS.unconfirmedBooking) }),
      await booking({ confirmedAt: ago(400), startsAt: justWithin(RETENTION_DAYS.booking) }),
      await booking({ confirmedAt: ago(1), startsAt: ago(-3) }),
    );
    const ticketOfOldBooking = await ticket(null);
    await db
      .update(repairTickets)
      .set({ serviceRequestId: doomed.bookings![1] })
      .where(eq(repairTickets.number, ticketOfOldBooking));

    // Contact messages, a year after they came in.
    for (const [list, createdAt] of [
      [doomed.contacts!, justPast(RETENTION_DAYS.contactMessage)],
      [kept.contacts!, justWithin(RETENTION_DAYS.contactMessage)],
    ] as const) {
      const [row] = await db
        .insert(contacts)
        .values({ name: "Cora Contact", email: "cora@example.test", message: "Hi", createdAt })
        .returning({ id: contacts.id });
      list.push(row!.id);
    }
    const doomedReplies = [
      await reply("repair", doomed.bookings![1]!),
      await reply("contact", doomed.contacts![0]!),
    ];
    const keptReplies = [
      await reply("repair", kept.bookings![1]!),
      await reply("contact", kept.contacts![0]!),
    ];

    // Intake photos, 90 days after their ticket closed; an open ticket's stay however old.
    const closedLongAgo = await ticket(justPast(RETENTION_DAYS.intakePhoto));
    const closedLately = await ticket(justWithin(RETENTION_DAYS.intakePhoto));
    const stillOpen = await ticket(null);
    await db
      .update(repairTickets)
      .set({ createdAt: ago(500) })
      .where(eq(repairTickets.number, stillOpen));
    const doomedPhotos = [await photo(closedLongAgo), await photo(closedLongAgo)];
    const keptPhotos = [await photo(closedLately), await photo(stillOpen)];

    // Sign-in records: expired sessions and tokens, day-old rate-limit counts.
    const person = await user();
    const expiredSession = await session(person, ago(0, 1));
    const liveSession = await session(person, ago(-29));
    const verification = (expiresAt: Date) => ({
      id: randomUUID(),
      identifier: `reset-password:${tag()}`,
      value: person,
      expiresAt,
    });
    const [expiredToken, liveToken] = [verification(ago(0, 1)), verification(ago(0, -1))];
    await db.insert(verifications).values([expiredToken, liveToken]);
    const limit = (hoursAgo: number) => ({
      id: randomUUID(),
      key: `shop:alert:address:${tag()}@example.test`,
      count: 3,
      lastRequest: ago(0, hoursAgo).getTime(),
    });
    const [oldLimit, recentLimit] = [limit(RETENTION_DAYS.rateLimit * 24 + 1), limit(2)];
    await db.insert(rateLimits).values([oldLimit, recentLimit]);

    const counts = await sweepPersonalData(db, { now, photoStorage, batch: 2 });
    expect(counts).toEqual({
      unconfirmedAlerts: 1,
      sentAlerts: 1,
      unsubscribedAlerts: 1,
      unconfirmedBookings: 1,
      bookings: 2,
      contactMessages: 1,
      intakePhotos: 2,
      sessions: 1,
      verifications: 1,
      rateLimits: 1,
    });

    const present = {
      alerts: await ids(
        db
          .select({ id: stockAlerts.id })
          .from(stockAlerts)
          .where(inArray(stockAlerts.id, [...doomed.alerts!, ...kept.alerts!])),
      ),
      bookings: await ids(
        db
          .select({ id: serviceRequests.id })
          .from(serviceRequests)
          .where(inArray(serviceRequests.id, [...doomed.bookings!, ...kept.bookings!])),
      ),
      contacts: await ids(
        db
          .select({ id: contacts.id })
          .from(contacts)
          .where(inArray(contacts.id, [...doomed.contacts!, ...kept.contacts!])),
      ),
    };
    for (const kind of ["alerts", "bookings", "contacts"] as const) {
      expect(present[kind].sort((a, b) => Number(a) - Number(b))).toEqual(kept[kind]);
    }
    expect(
      await ids(
        db
          .select({ id: inboxReplies.id })
          .from(inboxReplies)
          .where(inArray(inboxReplies.id, [...doomedReplies, ...keptReplies])),
      ),
    ).toEqual(keptReplies);
    // The ticket opened from a deleted booking keeps its own copy of the customer.
    const [opened] = await db
      .select({ booking: repairTickets.serviceRequestId, name: repairTickets.customerName })
      .from(repairTickets)
      .where(eq(repairTickets.number, ticketOfOldBooking));
    expect(opened).toEqual({ booking: null, name: "Tess Ticket" });

    expect(
      await ids(
        db
          .select({ id: repairTicketPhotos.id })
          .from(repairTicketPhotos)
          .where(
            inArray(
              repairTicketPhotos.id,
              [...doomedPhotos, ...keptPhotos].map((p) => p.id),
            ),
          ),
      ),
    ).toEqual(keptPhotos.map((p) => p.id));
    for (const gone of doomedPhotos) expect(await photoStorage.get(gone.storageKey)).toBeNull();
    for (const stays of keptPhotos) expect(await photoStorage.get(stays.storageKey)).not.toBeNull();

    expect(
      await ids(
        db
          .select({ id: sessions.id })
          .from(sessions)
          .where(inArray(sessions.id, [expiredSession, liveSession])),
      ),
    ).toEqual([liveSession]);
    expect(
      await ids(
        db
          .select({ id: verifications.id })
          .from(verifications)
          .where(inArray(verifications.id, [expiredToken.id, liveToken.id])),
      ),
    ).toEqual([liveToken.id]);
    expect(
      await ids(
        db
          .select({ id: rateLimits.id })
          .from(rateLimits)
          .where(inArray(rateLimits.id, [oldLimit.id, recentLimit.id])),
      ),
    ).toEqual([recentLimit.id]);

    // A second sweep at the same moment finds nothing more.
    const again = await sweepPersonalData(db, { now, photoStorage });
    expect(Object.values(again).every((count) => count === 0)).toBe(true);
  });

  it("a photo whose file cannot be removed yet keeps its row, and goes at the next sweep", async () => {
    const closed = await ticket(justPast(RETENTION_DAYS.intakePhoto));
    const stuck = await photo(closed);
    const failing = {
      ...photoStorage,
      delete: async () => {
        throw new Error("storage unreachable");
      },
    };
    const first = await sweepPersonalData(db, { now, photoStorage: failing });
    expect(first.intakePhotos).toBe(0);
    expect(
      await db.select().from(repairTicketPhotos).where(eq(repairTicketPhotos.id, stuck.id)),
    ).toHaveLength(1);
    const second = await sweepPersonalData(db, { now, photoStorage });
    expect(second.intakePhotos).toBe(1);
    expect(await photoStorage.get(stuck.storageKey)).toBeNull();
  });

  it("finds each batch of expired sessions and verifications through an index, not a scan", async () => {
    // Every sign-in leaves a session: a backlog of them, deleted a batch at a time, would be
    // scanned once a batch. The planner is told to avoid scans where anything else can serve.
    for (const table of ["sessions", "verifications"]) {
      const plan = await db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const { rows } = await tx.execute<{ "QUERY PLAN": string }>(
          sql.raw(`explain select id from ${table} where expires_at < now() limit 1000`),
        );
        return rows.map((row) => row["QUERY PLAN"]).join("\n");
      });
      expect(plan, table).toContain(`${table}_expires_at`);
    }
  });
});

describe("a repair ticket's status link", () => {
  it("works while the ticket is open and for its period after it closes, then says it ended", async () => {
    const open = await ticket(null);
    const lately = await ticket(justWithin(RETENTION_DAYS.repairStatusLink));
    const longAgo = await ticket(justPast(RETENTION_DAYS.repairStatusLink));
    expect(await repairStatusLinkState(db, open, now)).toBe("open");
    expect(await repairStatusLinkState(db, lately, now)).toBe("open");
    expect(await repairStatusLinkState(db, longAgo, now)).toBe("ended");
    expect(await repairStatusLinkState(db, 2_000_000_000, now)).toBe("missing");
  });
});

describe("the retention job", () => {
  let boss: PgBoss;
  beforeAll(async () => {
    const { rows } = await db.execute<{ name: string }>(sql`select current_database() as name`);
    boss = await startOutbox(inject("databaseUrl").replace(/\/[^/]+$/, `/${rows[0]!.name}`), {
      onError() {},
    });
  });
  afterAll(() => stopOutbox(boss));

  it("is scheduled hourly in the shared queue, and a run of it sweeps", async () => {
    const swept: number[] = [];
    await startRetentionJobs(boss, db, {
      photoStorage,
      log: (deleted) => swept.push(deleted.sessions),
    });
    const schedules = await boss.getSchedules(RETENTION_QUEUE);
    expect(schedules.map((schedule) => schedule.cron)).toEqual([RETENTION_CRON]);
    expect(RETENTION_CRON).toBe("17 * * * *");

    const expired = await session(await user(), ago(0, 1));
    // What the schedule does once an hour, done now; the test's own timeout bounds the wait.
    await boss.send(RETENTION_QUEUE, {});
    while (
      (await db.select().from(sessions).where(eq(sessions.id, expired))).length > 0 ||
      swept.length === 0
    ) {
      await sleep(100);
    }
    expect(swept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
