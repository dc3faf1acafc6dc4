import { createHmac, timingSafeEqual } from "node:crypto";
import { and, count, eq, gt, gte, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { serviceRequests } from "#app/db/schema.ts";
import { consumeLimit, type Limit } from "#app/domain/accounts/rate-limit.server.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import {
  repairCancellationMessage,
  repairCancelledShopMessage,
  repairConfirmationMessage,
  repairShopNotificationMessage,
  type RepairAppointment,
} from "#app/emails/repair-emails.ts";
import type { BookingInput } from "./booking-input.ts";
import {
  checkSlot,
  formatAppointment,
  slotsForDate,
  type BookingRules,
  type Slot,
  type SlotRefusal,
} from "./slots.ts";

/** Per client address: a person rebooking a few times, not a script filling the diary. */
export const REPAIR_BOOKING_LIMIT: Limit = { windowSeconds: 60 * 60, max: 5 };

/** Where the cancel link in the confirmation points; the route reads the token after it. */
export const REPAIR_CANCEL_PATH = "/service-request/cancel";

/** The one thing a cancel token can do; a token signed for anything else never matches. */
const CANCEL_PURPOSE = "cancel-repair";

export type AvailableSlot = Slot & { placesLeft: number };

/** The slots of a shop-local date that can still be booked: open, not too soon, not full. */
export async function availableSlots(
  db: Database,
  date: string,
  rules: BookingRules,
  now: Date,
): Promise<AvailableSlot[]> {
  const slots = slotsForDate(date, rules, now);
  if (!slots.length) return [];
  const taken = await db
    .select({ startsAt: serviceRequests.startsAt, booked: count() })
    .from(serviceRequests)
    .where(
      and(
        isNull(serviceRequests.cancelledAt),
        gte(serviceRequests.startsAt, slots[0]!.startsAt),
        lte(serviceRequests.startsAt, slots.at(-1)!.startsAt),
      ),
    )
    .groupBy(serviceRequests.startsAt);
  const booked = new Map(taken.map((row) => [row.startsAt.getTime(), row.booked]));
  return slots
    .map((slot) => ({
      ...slot,
      placesLeft: rules.placesPerSlot - (booked.get(slot.startsAt.getTime()) ?? 0),
    }))
    .filter((slot) => slot.placesLeft > 0);
}

export type BookingResult =
  | { ok: true; id: number; uid: string; startsAt: Date }
  | { ok: false; reason: SlotRefusal | "slot-full" | "rate-limited"; message: string };

export type BookingOptions = {
  rules: BookingRules;
  now: Date;
  clientIp: string;
  /** SHOP_EMAIL: where the shop's notification goes. */
  shopEmail: string;
  /** The site's public origin, for the cancel link. */
  publicUrl: string;
  /** The signing secret (AUTH_SECRET) for the cancel link. */
  secret: string;
  limit?: Limit;
};

function appointmentOf(
  row: Omit<RepairAppointment, "durationMinutes" | "timeZone">,
  rules: BookingRules,
): RepairAppointment {
  return {
    uid: row.uid,
    name: row.name,
    email: row.email,
    phone: row.phone,
    serviceType: row.serviceType,
    issue: row.issue,
    preferredDate: row.preferredDate,
    preferredTime: row.preferredTime,
    startsAt: row.startsAt,
    durationMinutes: rules.slotMinutes,
    timeZone: rules.timeZone,
  };
}

function signature(id: number, uid: string, secret: string): string {
  return createHmac("sha256", secret).update(`${CANCEL_PURPOSE}:${id}:${uid}`).digest("base64url");
}

/** The signed, single-purpose token of a booking's cancel link: `<id>.<HMAC>`. */
export function cancelToken(id: number, uid: string, secret: string): string {
  return `${id}.${signature(id, uid, secret)}`;
}

export function cancelUrl(publicUrl: string, token: string): string {
  return new URL(`${REPAIR_CANCEL_PATH}/${token}`, publicUrl).toString();
}

/**
 * Books a slot for the customer. One transaction holds the slot's lock while it counts the
 * places taken, inserts the booking and queues both e-mails (the customer's confirmation with
 * the calendar invitation and cancel link, the shop's notification), so simultaneous requests
 * for the last place get it exactly once, and a mail problem never loses a booking.
 */
export async function bookAppointment(
  db: Database,
  input: BookingInput,
  options: BookingOptions,
): Promise<BookingResult> {
  const { rules } = options;
  const slot = checkSlot(input.preferredDate, input.preferredTime, rules, options.now);
  if (!slot.ok) return slot;
  const limit = await consumeLimit(
    db,
    `repair-booking:${options.clientIp}`,
    options.limit ?? REPAIR_BOOKING_LIMIT,
  );
  if (!limit.allowed) {
    return {
      ok: false,
      reason: "rate-limited",
      message: "Too many booking attempts from your connection. Please try again later or call us.",
    };
  }
  const { startsAt } = slot;
  return db.transaction(async (tx): Promise<BookingResult> => {
    // Bookings of one slot queue up here until the one before them commits or rolls back.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`repair-slot:${startsAt.toISOString()}`}))`,
    );
    const [taken] = await tx
      .select({ booked: count() })
      .from(serviceRequests)
      .where(and(eq(serviceRequests.startsAt, startsAt), isNull(serviceRequests.cancelledAt)));
    if ((taken?.booked ?? 0) >= rules.placesPerSlot) {
      return {
        ok: false,
        reason: "slot-full",
        message: "Sorry, that time was just booked by someone else. Please choose another time.",
      };
    }
    const [booking] = await tx
      .insert(serviceRequests)
      .values({ ...input, startsAt })
      .returning({ id: serviceRequests.id, uid: serviceRequests.uid });
    const { id, uid } = booking!;
    const appointment = appointmentOf({ ...input, uid, startsAt }, rules);
    const link = cancelUrl(options.publicUrl, cancelToken(id, uid, options.secret));
    await queueMail({ to: input.email, ...repairConfirmationMessage(appointment, link) }, { tx });
    await queueMail(
      { to: options.shopEmail, ...repairShopNotificationMessage(appointment) },
      { tx },
    );
    return { ok: true, id, uid, startsAt };
  });
}

export type CancelResult =
  | { ok: true; status: "cancelled" | "already-cancelled"; appointment: RepairAppointment }
  | { ok: false; reason: "invalid-link" | "started"; message: string };

const INVALID_LINK = {
  ok: false,
  reason: "invalid-link",
  message:
    "This cancel link is not valid. Please use the link in your confirmation e-mail, or call us.",
} as const;

/**
 * Cancels the booking a cancel token names: once (a conditional update), with the customer's
 * calendar cancellation (same UID) and the shop's note queued in the same transaction. Using the
 * link again answers "already-cancelled" and sends nothing.
 */
export async function cancelAppointment(
  db: Database,
  token: string,
  options: { secret: string; now: Date; rules: BookingRules; shopEmail: string },
): Promise<CancelResult> {
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{43})$/.exec(token);
  const id = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(id) || id > 2_147_483_647) return INVALID_LINK;
  const [row] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, id));
  if (!row) return INVALID_LINK;
  const expected = Buffer.from(signature(id, row.uid, options.secret));
  const given = Buffer.from(match[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return INVALID_LINK;
  const appointment = appointmentOf(row, options.rules);
  if (row.cancelledAt) return { ok: true, status: "already-cancelled", appointment };
  if (row.startsAt.getTime() <= options.now.getTime()) {
    return {
      ok: false,
      reason: "started",
      message:
        "This appointment has already started or passed, so it can no longer be cancelled online.",
    };
  }
  return db.transaction(async (tx): Promise<CancelResult> => {
    const cancelled = await tx
      .update(serviceRequests)
      .set({ cancelledAt: options.now, cancelledBy: "customer", status: "cancelled" })
      .where(and(eq(serviceRequests.id, id), isNull(serviceRequests.cancelledAt)))
      .returning({ id: serviceRequests.id });
    if (!cancelled.length) return { ok: true, status: "already-cancelled", appointment };
    await queueMail({ to: row.email, ...repairCancellationMessage(appointment) }, { tx });
    await queueMail({ to: options.shopEmail, ...repairCancelledShopMessage(appointment) }, { tx });
    return { ok: true, status: "cancelled", appointment };
  });
}

export type ShopCancelResult =
  | { ok: true; appointment: RepairAppointment }
  | { ok: false; reason: "not-found" | "already-cancelled" | "started"; message: string };

/**
 * Staff cancel a booking from the back office: once (a conditional update that also refuses a
 * booking that has started), marking it handled, with the customer's calendar cancellation
 * queued in the same transaction. The shop gets no note: it did this itself.
 */
export async function cancelAppointmentByShop(
  db: Database,
  id: number,
  options: { now: Date; rules: BookingRules; staffId: string },
): Promise<ShopCancelResult> {
  const [row] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, id));
  if (!row) return { ok: false, reason: "not-found", message: "This booking does not exist." };
  const alreadyCancelled = {
    ok: false,
    reason: "already-cancelled",
    message: "This booking was already cancelled.",
  } as const;
  if (row.cancelledAt) return alreadyCancelled;
  if (row.startsAt.getTime() <= options.now.getTime()) {
    return {
      ok: false,
      reason: "started",
      message: "This appointment has already started or passed, so it can no longer be cancelled.",
    };
  }
  const appointment = appointmentOf(row, options.rules);
  return db.transaction(async (tx): Promise<ShopCancelResult> => {
    const cancelled = await tx
      .update(serviceRequests)
      .set({
        cancelledAt: options.now,
        cancelledBy: "shop",
        status: "cancelled",
        // Postgres reads the old row on the right: whoever handled it first stays its handler.
        handledAt: sql`coalesce(${serviceRequests.handledAt}, ${options.now})`,
        handledBy: sql`case when ${serviceRequests.handledAt} is null then ${options.staffId} else ${serviceRequests.handledBy} end`,
      })
      .where(
        and(
          eq(serviceRequests.id, id),
          isNull(serviceRequests.cancelledAt),
          gt(serviceRequests.startsAt, options.now),
        ),
      )
      .returning({ id: serviceRequests.id });
    if (!cancelled.length) return alreadyCancelled;
    await queueMail({ to: row.email, ...repairCancellationMessage(appointment) }, { tx });
    return { ok: true, appointment };
  });
}

export type UpcomingAppointment = {
  id: number;
  serviceType: string;
  when: string;
  /** The same signed link as in the confirmation e-mail. */
  cancelPath: string;
};

/**
 * A signed-in customer's appointments still to come, booked with the (confirmed) e-mail
 * address of their account, soonest first.
 */
export async function upcomingAppointments(
  db: Database,
  email: string,
  options: { now: Date; secret: string; rules: BookingRules },
): Promise<UpcomingAppointment[]> {
  const rows = await db
    .select({
      id: serviceRequests.id,
      uid: serviceRequests.uid,
      serviceType: serviceRequests.serviceType,
      startsAt: serviceRequests.startsAt,
    })
    .from(serviceRequests)
    .where(
      and(
        sql`lower(${serviceRequests.email}) = ${email.toLowerCase()}`,
        isNull(serviceRequests.cancelledAt),
        gte(serviceRequests.startsAt, options.now),
      ),
    )
    .orderBy(serviceRequests.startsAt)
    .limit(20);
  return rows.map((row) => ({
    id: row.id,
    serviceType: row.serviceType,
    when: formatAppointment(row.startsAt, options.rules),
    cancelPath: `${REPAIR_CANCEL_PATH}/${cancelToken(row.id, row.uid, options.secret)}`,
  }));
}
