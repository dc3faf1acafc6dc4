import { createHash, randomBytes } from "node:crypto";
import { and, count, eq, gt, gte, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { serviceRequests } from "#app/db/schema.ts";
import {
  addressLimitKey,
  consumeLimit,
  type Limit,
} from "#app/domain/accounts/rate-limit.server.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import {
  repairCancellationMessage,
  repairCancelledShopMessage,
  repairConfirmRequestMessage,
  repairConfirmationMessage,
  repairShopNotificationMessage,
  type RepairAppointment,
} from "#app/emails/repair-emails.ts";
import { addDays, formatAppointment } from "#app/lib/shop-time.ts";
import { isSignedLink, signLink } from "#app/lib/signed-link.server.ts";
import type { BookingInput } from "./booking-input.ts";
import {
  checkSlot,
  shopToday,
  slotsForDate,
  type BookingRules,
  type Slot,
  type SlotRefusal,
} from "./slots.ts";

/** Per client address: a person rebooking a few times, not a script filling the diary. */
export const REPAIR_BOOKING_LIMIT: Limit = { windowSeconds: 60 * 60, max: 5 };

/** Per e-mail address, from any client: nobody's mailbox fills with confirmation requests. */
export const REPAIR_BOOKING_ADDRESS_LIMIT: Limit = { windowSeconds: 60 * 60, max: 3 };

/** Where the link that confirms a booking points; the route reads the token after it. */
export const REPAIR_CONFIRM_PATH = "/service-request/confirm";

/** Where the cancel link in the confirmation points; the route reads the token after it. */
export const REPAIR_CANCEL_PATH = "/service-request/cancel";

const DAY = 24 * 60 * 60 * 1000;

/** The one thing a cancel token can do; a token signed for anything else never matches. */
const CANCEL_PURPOSE = "cancel-repair";

export type AvailableSlot = Slot & { placesLeft: number };

/**
 * The bookings that hold a place at `now`: not cancelled, and confirmed or still within the
 * window their confirmation link gives them.
 */
function holdsPlace(now: Date) {
  return and(
    isNull(serviceRequests.cancelledAt),
    or(isNotNull(serviceRequests.confirmedAt), gt(serviceRequests.confirmBy, now)),
  );
}

/** How many places are held at each start time from `from` to `to` (inclusive), by its ms. */
async function placesHeld(
  db: Database,
  from: Date,
  to: Date,
  now: Date,
): Promise<Map<number, number>> {
  const taken = await db
    .select({ startsAt: serviceRequests.startsAt, booked: count() })
    .from(serviceRequests)
    .where(
      and(holdsPlace(now), gte(serviceRequests.startsAt, from), lte(serviceRequests.startsAt, to)),
    )
    .groupBy(serviceRequests.startsAt);
  return new Map(taken.map((row) => [row.startsAt.getTime(), row.booked]));
}

/** The given slots with the places each has left, leaving out the full ones. */
function withPlacesLeft(
  slots: Slot[],
  held: Map<number, number>,
  rules: BookingRules,
): AvailableSlot[] {
  return slots
    .map((slot) => ({
      ...slot,
      placesLeft: rules.placesPerSlot - (held.get(slot.startsAt.getTime()) ?? 0),
    }))
    .filter((slot) => slot.placesLeft > 0);
}

/** The slots of a shop-local date that can still be booked: open, not too soon, not full. */
export async function availableSlots(
  db: Database,
  date: string,
  rules: BookingRules,
  now: Date,
): Promise<AvailableSlot[]> {
  const slots = slotsForDate(date, rules, now);
  if (!slots.length) return [];
  const held = await placesHeld(db, slots[0]!.startsAt, slots.at(-1)!.startsAt, now);
  return withPlacesLeft(slots, held, rules);
}

/**
 * The first shop-local date, from today to `daysAhead`, with a slot that can still be booked,
 * and its slots; today (with none) when there is no such date. One query for the whole window;
 * each date's slots are worked out only until one has a place.
 */
export async function firstDateWithPlaces(
  db: Database,
  rules: BookingRules,
  now: Date,
): Promise<{ date: string; slots: AvailableSlot[] }> {
  const today = shopToday(rules, now);
  // Two days past the last date cover any zone's offset from UTC.
  const held = await placesHeld(
    db,
    now,
    new Date(now.getTime() + (rules.daysAhead + 2) * DAY),
    now,
  );
  for (let day = 0; day <= rules.daysAhead; day++) {
    const date = addDays(today, day);
    const slots = withPlacesLeft(slotsForDate(date, rules, now), held, rules);
    if (slots.length) return { date, slots };
  }
  return { date: today, slots: [] };
}

export type BookingResult =
  | {
      ok: true;
      /** Booked at once, or holding its place until the link mailed to the address is followed. */
      status: "booked" | "awaiting-confirmation";
      id: number;
      uid: string;
      startsAt: Date;
      /** Until when an unconfirmed booking holds its place (null once booked). */
      confirmBy: Date | null;
    }
  | {
      ok: false;
      reason: SlotRefusal | "slot-full" | "rate-limited" | "address-rate-limited";
      message: string;
    };

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
  /**
   * The address the person booking has proven theirs: a signed-in account's confirmed e-mail.
   * A booking with that address is booked at once; any other waits for its e-mailed link.
   */
  provenEmail?: string | null;
  limit?: Limit;
  addressLimit?: Limit;
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

/** The signed, single-purpose token of a booking's cancel link: `<id>.<HMAC>`. */
export function cancelToken(id: number, uid: string, secret: string): string {
  return `${id}.${signLink(CANCEL_PURPOSE, [id, uid], secret)}`;
}

export function cancelUrl(publicUrl: string, token: string): string {
  return new URL(`${REPAIR_CANCEL_PATH}/${token}`, publicUrl).toString();
}

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** 256 random bits, so the link cannot be guessed; only its hash is kept. */
const CONFIRM_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function confirmUrl(publicUrl: string, token: string): string {
  return new URL(`${REPAIR_CONFIRM_PATH}/${token}`, publicUrl).toString();
}

function sameAddress(a: string, b: string | null | undefined): boolean {
  return Boolean(b) && a.trim().toLowerCase() === b!.trim().toLowerCase();
}

/** The e-mails of a booking whose address is proven: the customer's and the shop's. */
async function queueBookedMail(
  tx: Transaction,
  appointment: RepairAppointment,
  id: number,
  options: { shopEmail: string; publicUrl: string; secret: string },
) {
  const link = cancelUrl(options.publicUrl, cancelToken(id, appointment.uid, options.secret));
  await queueMail(
    { to: appointment.email, ...repairConfirmationMessage(appointment, link) },
    { tx },
  );
  await queueMail({ to: options.shopEmail, ...repairShopNotificationMessage(appointment) }, { tx });
}

/**
 * Books a slot. One transaction holds the slot's lock while it counts the places held, inserts
 * the booking and queues its e-mails, so simultaneous requests for the last place get it exactly
 * once, and a mail problem never loses a booking.
 *
 * Anyone can type anyone's address, so only a signed-in customer booking with their own
 * confirmed address is booked at once (the confirmation with the invitation and cancel link, and
 * the shop's notification). Any other booking holds its place for `rules.confirmMinutes` (never
 * past its start) and its address gets only a link to confirm it, carrying nothing typed into
 * the form; staff hear of it once it is confirmed (`confirmBooking`).
 */
export async function bookAppointment(
  db: Database,
  input: BookingInput,
  options: BookingOptions,
): Promise<BookingResult> {
  const { rules, now } = options;
  const slot = checkSlot(input.preferredDate, input.preferredTime, rules, now);
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
  const addressLimit = await consumeLimit(
    db,
    addressLimitKey("repair-booking-address", input.email),
    options.addressLimit ?? REPAIR_BOOKING_ADDRESS_LIMIT,
  );
  if (!addressLimit.allowed) {
    return {
      ok: false,
      reason: "address-rate-limited",
      message: "Too many bookings for this e-mail address. Please try again later or call us.",
    };
  }
  const { startsAt } = slot;
  const proven = sameAddress(input.email, options.provenEmail);
  const token = proven ? null : randomBytes(32).toString("base64url");
  const confirmBy = proven
    ? null
    : new Date(Math.min(now.getTime() + rules.confirmMinutes * 60_000, startsAt.getTime()));
  return db.transaction(async (tx): Promise<BookingResult> => {
    // Bookings of one slot queue up here until the one before them commits or rolls back.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`repair-slot:${startsAt.toISOString()}`}))`,
    );
    const [taken] = await tx
      .select({ booked: count() })
      .from(serviceRequests)
      .where(and(eq(serviceRequests.startsAt, startsAt), holdsPlace(now)));
    if ((taken?.booked ?? 0) >= rules.placesPerSlot) {
      return {
        ok: false,
        reason: "slot-full",
        message: "Sorry, that time was just booked by someone else. Please choose another time.",
      };
    }
    const [booking] = await tx
      .insert(serviceRequests)
      .values({
        ...input,
        startsAt,
        confirmedAt: proven ? now : null,
        confirmBy,
        confirmTokenHash: token ? tokenHash(token) : null,
      })
      .returning({ id: serviceRequests.id, uid: serviceRequests.uid });
    const { id, uid } = booking!;
    if (token && confirmBy) {
      const holdMinutes = Math.max(1, Math.round((confirmBy.getTime() - now.getTime()) / 60_000));
      await queueMail(
        {
          to: input.email,
          ...repairConfirmRequestMessage(
            { serviceType: input.serviceType, startsAt, timeZone: rules.timeZone },
            confirmUrl(options.publicUrl, token),
            holdMinutes,
          ),
        },
        { tx },
      );
      return { ok: true, status: "awaiting-confirmation", id, uid, startsAt, confirmBy };
    }
    await queueBookedMail(tx, appointmentOf({ ...input, uid, startsAt }, rules), id, options);
    return { ok: true, status: "booked", id, uid, startsAt, confirmBy: null };
  });
}

export type ConfirmationState =
  { state: "awaiting"; serviceType: string; when: string } | { state: "expired" | "invalid" };

/** What a confirmation link stands for, for its page: nothing changes by looking. */
export async function confirmationState(
  db: Database,
  token: string,
  options: { now: Date; rules: Pick<BookingRules, "timeZone"> },
): Promise<ConfirmationState> {
  if (!CONFIRM_TOKEN.test(token)) return { state: "invalid" };
  const [row] = await db
    .select({
      serviceType: serviceRequests.serviceType,
      startsAt: serviceRequests.startsAt,
      confirmBy: serviceRequests.confirmBy,
    })
    .from(serviceRequests)
    .where(eq(serviceRequests.confirmTokenHash, tokenHash(token)));
  if (!row) return { state: "invalid" };
  if (!row.confirmBy || row.confirmBy.getTime() <= options.now.getTime()) {
    return { state: "expired" };
  }
  return {
    state: "awaiting",
    serviceType: row.serviceType,
    when: formatAppointment(row.startsAt, options.rules),
  };
}

export type ConfirmResult =
  | { ok: true; status: "confirmed"; appointment: RepairAppointment }
  | { ok: false; reason: "invalid-link" | "expired"; message: string };

const INVALID_CONFIRM_LINK = {
  ok: false,
  reason: "invalid-link",
  message:
    "This confirmation link is not valid or was already used. If you confirmed your booking, your confirmation e-mail has the details.",
} as const;

const EXPIRED_CONFIRM_LINK = {
  ok: false,
  reason: "expired",
  message:
    "This confirmation link has expired, so the time was not kept. Please book again, or call us.",
} as const;

/**
 * Confirms the booking a link names, once: a conditional update that also spends the link, and,
 * in the same transaction, the confirmation with the invitation and cancel link to the address
 * now proven and the shop's notification. The link is the only proof needed, so it works in any
 * browser, signed in or not. Past its window the link says so and nothing changes.
 */
export async function confirmBooking(
  db: Database,
  token: string,
  options: {
    now: Date;
    rules: BookingRules;
    shopEmail: string;
    publicUrl: string;
    secret: string;
  },
): Promise<ConfirmResult> {
  if (!CONFIRM_TOKEN.test(token)) return INVALID_CONFIRM_LINK;
  const hash = tokenHash(token);
  return db.transaction(async (tx): Promise<ConfirmResult> => {
    const [row] = await tx
      .update(serviceRequests)
      .set({ confirmedAt: options.now, confirmTokenHash: null })
      .where(
        and(
          eq(serviceRequests.confirmTokenHash, hash),
          isNull(serviceRequests.confirmedAt),
          isNull(serviceRequests.cancelledAt),
          gt(serviceRequests.confirmBy, options.now),
        ),
      )
      .returning();
    if (!row) {
      const [lapsed] = await tx
        .select({ id: serviceRequests.id })
        .from(serviceRequests)
        .where(eq(serviceRequests.confirmTokenHash, hash));
      return lapsed ? EXPIRED_CONFIRM_LINK : INVALID_CONFIRM_LINK;
    }
    const appointment = appointmentOf(row, options.rules);
    await queueBookedMail(tx, appointment, row.id, options);
    return { ok: true, status: "confirmed", appointment };
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
  // Cancel links go out only with the confirmation; an unconfirmed booking has none.
  if (!row?.confirmedAt) return INVALID_LINK;
  if (!isSignedLink(CANCEL_PURPOSE, [id, row.uid], match[2]!, options.secret)) return INVALID_LINK;
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
  const [row] = await db
    .select()
    .from(serviceRequests)
    .where(and(eq(serviceRequests.id, id), isNotNull(serviceRequests.confirmedAt)));
  // Staff never see an unconfirmed booking: to them it does not exist.
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
        // Someone else may have typed this address; only confirmed bookings are the customer's.
        isNotNull(serviceRequests.confirmedAt),
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
