import { createHmac } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { serviceRequests } from "#app/db/schema.ts";
import type { OutgoingMail } from "#app/emails/outgoing-mail.ts";
import { SHOP_ADDRESS } from "#app/lib/site.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { createStaff } from "#tests/support/staff.ts";
import { scratchOutbox } from "#tests/support/scratch-outbox.ts";
import { bookingSchema, type BookingInput } from "./booking-input.ts";
import {
  availableSlots,
  bookAppointment as bookAny,
  cancelAppointment,
  cancelAppointmentByShop,
  cancelToken,
  confirmBooking,
  confirmationState,
  firstDateWithPlaces,
  upcomingAppointments,
  type BookingOptions,
} from "./bookings.server.ts";
import { DEFAULT_BOOKING_RULES } from "./slots.ts";

// Bookings count places shop-wide: a database of this file's own keeps other files' out.
const scratch = scratchDatabase();
const { mailTo } = scratchOutbox(scratch);

const SHOP_INBOX = "shop-inbox@example.test";
const SECRET = "test-secret-for-repair-links";
const rules = DEFAULT_BOOKING_RULES;
// Monday 2026-11-23, 10:20 in Arlington (CST, UTC-6).
const now = new Date("2026-11-23T16:20:00Z");

let ipCounter = 0;
function options(extra: Partial<BookingOptions> = {}): BookingOptions {
  ipCounter += 1;
  return {
    rules,
    now,
    clientIp: `198.51.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
    shopEmail: SHOP_INBOX,
    publicUrl: "https://shop.example.test",
    secret: SECRET,
    ...extra,
  };
}

let emailCounter = 0;
function booking(fields: Partial<BookingInput> = {}): BookingInput {
  emailCounter += 1;
  return bookingSchema.parse({
    name: "Rosa Reader",
    email: `customer-${emailCounter}@example.test`,
    phone: "(817) 555-0199",
    serviceType: "Game Console Repair",
    issue: "The disc drive clicks and will not read discs.\n\nIt started last week.",
    preferredDate: "2026-11-24",
    preferredTime: "10:00",
    ...fields,
  });
}

/**
 * Books as a signed-in customer whose account e-mail is confirmed and is the one typed: booked
 * at once, as before confirmation links existed. Bookings from anyone else are tested below.
 */
function bookAppointment(
  db: Parameters<typeof bookAny>[0],
  input: BookingInput,
  opts: BookingOptions,
) {
  return bookAny(db, input, { provenEmail: input.email, ...opts });
}

async function shopMailAbout(customer: string): Promise<OutgoingMail[]> {
  return (await mailTo(SHOP_INBOX)).filter((mail) => mail.replyTo === customer);
}

/** The properties of an iCalendar text (lines unfolded; the first of each name). */
function calendarFields(ics: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of ics.replace(/\r?\n[ \t]/g, "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).split(";")[0]!;
    fields[name] ??= line.slice(colon + 1);
  }
  return fields;
}

async function activeBookingsAt(startsAt: Date): Promise<number> {
  const rows = await scratch
    .db()
    .select({ id: serviceRequests.id })
    .from(serviceRequests)
    .where(
      sql`${serviceRequests.startsAt} = ${startsAt} and ${serviceRequests.cancelledAt} is null`,
    );
  return rows.length;
}

describe("booking a repair appointment", () => {
  it("keeps the booking of a signed-in customer's confirmed address and queues the confirmation with its invitation and the shop's notification", async () => {
    const input = booking();
    const result = await bookAppointment(scratch.db(), input, options());
    expect(result).toMatchObject({ ok: true, startsAt: new Date("2026-11-24T16:00:00Z") });
    if (!result.ok) return;

    const [row] = await scratch
      .db()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, result.id));
    expect(row).toMatchObject({
      email: input.email,
      preferredDate: "2026-11-24",
      preferredTime: "10:00",
      startsAt: new Date("2026-11-24T16:00:00Z"),
      uid: result.uid,
      status: "new",
      cancelledAt: null,
    });

    const [confirmation, ...moreToCustomer] = await mailTo(input.email);
    expect(moreToCustomer).toEqual([]);
    expect(confirmation!.subject).toBe(
      "Your repair appointment: Tuesday, November 24, 2026 at 10:00 AM CST",
    );
    expect(confirmation!.text).toContain(
      "https://shop.example.test/service-request/cancel/" +
        cancelToken(result.id, result.uid, SECRET),
    );
    const [attachment] = confirmation!.attachments!;
    expect(attachment!.filename).toBe("appointment.ics");
    expect(attachment!.contentType).toBe("text/calendar; charset=utf-8; method=REQUEST");
    const ics = calendarFields(attachment!.content);
    expect(ics).toMatchObject({
      METHOD: "REQUEST",
      UID: `repair-${result.uid}@reelandrepair.example`,
      DTSTART: "20261124T160000Z",
      DURATION: "PT60M",
      SUMMARY: "Repair appointment: Game Console Repair",
      LOCATION: SHOP_ADDRESS.replace(/,/g, "\\,"),
      STATUS: "CONFIRMED",
    });

    const [notification, ...moreToShop] = await shopMailAbout(input.email);
    expect(moreToShop).toEqual([]);
    expect(notification!.subject).toBe(
      "Repair appointment: Game Console Repair, 2026-11-24 10:00, Rosa Reader",
    );
    for (const field of [
      "Name: Rosa Reader",
      `E-mail: ${input.email}`,
      "Phone: (817) 555-0199",
      "Service: Game Console Repair",
      "Date: 2026-11-24",
      "Time: 10:00",
      "The disc drive clicks and will not read discs.",
      "It started last week.",
    ]) {
      expect(notification!.text).toContain(field);
    }
  });

  it.each([
    ["a past time today", { preferredDate: "2026-11-23", preferredTime: "10:00" }, "past"],
    ["a past date", { preferredDate: "2026-11-20", preferredTime: "12:00" }, "past"],
    ["a Sunday", { preferredDate: "2026-11-29", preferredTime: "12:00" }, "closed"],
    ["after closing", { preferredDate: "2026-11-24", preferredTime: "18:00" }, "closed"],
    ["between slots", { preferredDate: "2026-11-24", preferredTime: "12:30" }, "not-a-slot"],
    ["beyond 60 days", { preferredDate: "2027-01-23", preferredTime: "12:00" }, "too-far"],
  ] as const)("refuses %s, keeping nothing and sending nothing", async (_, fields, reason) => {
    const input = booking(fields);
    const result = await bookAppointment(scratch.db(), input, options());
    expect(result).toMatchObject({ ok: false, reason });
    expect(result.ok ? "" : result.message).not.toBe("");
    const rows = await scratch
      .db()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.email, input.email));
    expect(rows).toEqual([]);
    expect(await mailTo(input.email)).toEqual([]);
  });

  it("refuses a full slot and stops offering it", async () => {
    const slot = { preferredDate: "2026-11-24", preferredTime: "11:00" };
    const before = await availableSlots(scratch.db(), "2026-11-24", rules, now);
    expect(before.find((s) => s.time === "11:00")?.placesLeft).toBe(2);

    expect((await bookAppointment(scratch.db(), booking(slot), options())).ok).toBe(true);
    const half = await availableSlots(scratch.db(), "2026-11-24", rules, now);
    expect(half.find((s) => s.time === "11:00")?.placesLeft).toBe(1);
    expect((await bookAppointment(scratch.db(), booking(slot), options())).ok).toBe(true);

    const third = booking(slot);
    expect(await bookAppointment(scratch.db(), third, options())).toMatchObject({
      ok: false,
      reason: "slot-full",
      message: expect.stringContaining("choose another time"),
    });
    expect(await mailTo(third.email)).toEqual([]);
    const after = await availableSlots(scratch.db(), "2026-11-24", rules, now);
    expect(after.map((s) => s.time)).not.toContain("11:00");
    expect(after.map((s) => s.time)).toContain("12:00");
  });

  it("offers first the earliest date with a place left, past a day whose remaining slots are full", async () => {
    // Saturday 2027-01-16, 16:20 in Arlington: only the 17:00 slot is left today; Sunday is closed.
    const late = new Date("2027-01-16T22:20:00Z");
    expect((await firstDateWithPlaces(scratch.db(), rules, late)).date).toBe("2027-01-16");
    const slot = { preferredDate: "2027-01-16", preferredTime: "17:00" };
    for (let place = 0; place < rules.placesPerSlot; place++) {
      expect((await bookAppointment(scratch.db(), booking(slot), options({ now: late }))).ok).toBe(
        true,
      );
    }
    const next = await firstDateWithPlaces(scratch.db(), rules, late);
    expect(next.date).toBe("2027-01-18");
    expect(next.slots.map((slot) => slot.time)).toEqual(
      (await availableSlots(scratch.db(), "2027-01-18", rules, late)).map((slot) => slot.time),
    );
    expect(next.slots[0]).toMatchObject({ time: "10:00", placesLeft: rules.placesPerSlot });
  });

  it("gives the last place of a slot to exactly one of 50 simultaneous bookings", async () => {
    const slot = { preferredDate: "2026-11-25", preferredTime: "14:00" };
    const startsAt = new Date("2026-11-25T20:00:00Z");
    expect((await bookAppointment(scratch.db(), booking(slot), options())).ok).toBe(true);

    const inputs = Array.from({ length: 50 }, () => booking(slot));
    const results = await Promise.all(
      inputs.map((input) => bookAppointment(scratch.db(), input, options())),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.reason === "slot-full")).toHaveLength(
      49,
    );
    expect(await activeBookingsAt(startsAt)).toBe(2);
    const winner = inputs[results.findIndex((result) => result.ok)]!;
    expect(await mailTo(winner.email)).toHaveLength(1);
    const mailed = await Promise.all(inputs.map((input) => mailTo(input.email)));
    expect(mailed.flat()).toHaveLength(1);
  });

  it("limits bookings per client address", async () => {
    const clientIp = "203.0.113.77";
    const limit = { windowSeconds: 3600, max: 2 };
    const results = [];
    for (const time of ["15:00", "16:00", "17:00"]) {
      const input = booking({ preferredDate: "2026-11-26", preferredTime: time });
      results.push(await bookAppointment(scratch.db(), input, options({ clientIp, limit })));
    }
    expect(results.map((result) => (result.ok ? "booked" : result.reason))).toEqual([
      "booked",
      "booked",
      "rate-limited",
    ]);
  });
});

describe("cancelling a repair appointment", () => {
  const cancelOptions = { secret: SECRET, now, rules, shopEmail: SHOP_INBOX };

  it("keeps the cancel links of confirmations already sent", () => {
    // Worked out with the signature the cancel links have carried since they were first sent.
    expect(cancelToken(15, "uid-abc@reelandrepair", "a-secret-of-thirty-two-characters!!")).toBe(
      "15.HfYNQi44BQ95_sf-bukYin0xx1GEF5VVKXF3v0s7Vv4",
    );
  });

  async function booked(time: string) {
    const input = booking({ preferredDate: "2026-11-27", preferredTime: time });
    const result = await bookAppointment(scratch.db(), input, options());
    if (!result.ok) throw new Error(result.message);
    const [confirmation] = await mailTo(input.email);
    const token = /\/service-request\/cancel\/(\S+)/.exec(confirmation!.text)![1]!;
    return { input, result, token };
  }

  it("frees the place once and sends the calendar cancellation with the same UID", async () => {
    const { input, result, token } = await booked("10:00");
    const placesLeft = async () =>
      (await availableSlots(scratch.db(), "2026-11-27", rules, now)).find((s) => s.time === "10:00")
        ?.placesLeft;
    expect(await placesLeft()).toBe(1);

    const first = await cancelAppointment(scratch.db(), token, cancelOptions);
    expect(first).toMatchObject({ ok: true, status: "cancelled" });
    expect(await placesLeft()).toBe(2);
    const [row] = await scratch
      .db()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, result.id));
    expect(row).toMatchObject({ status: "cancelled", cancelledAt: now });

    const [confirmation, cancellation, ...more] = await mailTo(input.email);
    expect(more).toEqual([]);
    expect(cancellation!.subject).toMatch(/^Cancelled: /);
    const invitation = calendarFields(confirmation!.attachments![0]!.content);
    const cancelled = calendarFields(cancellation!.attachments![0]!.content);
    expect(cancelled).toMatchObject({
      METHOD: "CANCEL",
      STATUS: "CANCELLED",
      UID: invitation.UID,
      DTSTART: invitation.DTSTART,
      SEQUENCE: "1",
    });
    expect(cancellation!.attachments![0]!.contentType).toContain("method=CANCEL");
    expect(await shopMailAbout(input.email)).toHaveLength(2);

    // The link again, even twice at once: nothing changes, nothing is sent.
    const again = await Promise.all([
      cancelAppointment(scratch.db(), token, cancelOptions),
      cancelAppointment(scratch.db(), token, cancelOptions),
    ]);
    expect(again).toMatchObject([
      { ok: true, status: "already-cancelled" },
      { ok: true, status: "already-cancelled" },
    ]);
    expect(await mailTo(input.email)).toHaveLength(2);
    expect(await placesLeft()).toBe(2);
  });

  it("cancels exactly once when the link is used twice at the same moment", async () => {
    const { input, token } = await booked("11:00");
    const results = await Promise.all([
      cancelAppointment(scratch.db(), token, cancelOptions),
      cancelAppointment(scratch.db(), token, cancelOptions),
    ]);
    const statuses = results.map((result) => (result.ok ? result.status : result.reason)).sort();
    expect(statuses).toEqual(["already-cancelled", "cancelled"]);
    expect(await mailTo(input.email)).toHaveLength(2);
  });

  it("refuses forged, tampered and other-purpose tokens", async () => {
    const { result, token } = await booked("12:00");
    const other = await booked("13:00");
    const mac = (message: string, secret = SECRET) =>
      createHmac("sha256", secret).update(message).digest("base64url");
    const forged = [
      "",
      "garbage",
      `${result.id}`,
      `${result.id}.`,
      `${result.id}.${"A".repeat(43)}`,
      // Signed with another secret.
      `${result.id}.${mac(`cancel-repair:${result.id}:${result.uid}`, "another-secret")}`,
      // Signed by us, but for another purpose.
      `${result.id}.${mac(`confirm-repair:${result.id}:${result.uid}`)}`,
      // Another booking's signature on this booking's id.
      `${result.id}.${other.token.split(".")[1]}`,
      `99999999.${token.split(".")[1]}`,
      `${token}x`,
    ];
    for (const bad of forged) {
      expect(await cancelAppointment(scratch.db(), bad, cancelOptions)).toMatchObject({
        ok: false,
        reason: "invalid-link",
      });
    }
    expect(await activeBookingsAt(result.startsAt)).toBe(1);
  });

  it("refuses to cancel an appointment that has started", async () => {
    const { result, token } = await booked("14:00");
    const later = new Date(result.startsAt.getTime() + 60_000);
    expect(
      await cancelAppointment(scratch.db(), token, { ...cancelOptions, now: later }),
    ).toMatchObject({ ok: false, reason: "started" });
    expect(await activeBookingsAt(result.startsAt)).toBe(1);
  });
});

describe("the shop cancelling a repair appointment", () => {
  const STAFF = "staff-cancelling";
  beforeAll(async () => {
    await createStaff(scratch.db(), "Shop Owner", STAFF);
  });
  const shopOptions = { now, rules, staffId: STAFF };

  async function booked(time: string) {
    const input = booking({ preferredDate: "2026-11-28", preferredTime: time });
    const result = await bookAppointment(scratch.db(), input, options());
    if (!result.ok) throw new Error(result.message);
    return { input, result };
  }

  async function rowOf(id: number) {
    const [row] = await scratch
      .db()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, id));
    return row!;
  }

  it("cancels once, marks it handled, frees the place and sends the customer the calendar cancellation", async () => {
    const { input, result } = await booked("10:00");
    const placesLeft = async () =>
      (await availableSlots(scratch.db(), "2026-11-28", rules, now)).find((s) => s.time === "10:00")
        ?.placesLeft;
    expect(await placesLeft()).toBe(1);

    const cancelled = await cancelAppointmentByShop(scratch.db(), result.id, shopOptions);
    expect(cancelled).toMatchObject({ ok: true, appointment: { uid: result.uid } });
    expect(await rowOf(result.id)).toMatchObject({
      status: "cancelled",
      cancelledAt: now,
      cancelledBy: "shop",
      handledAt: now,
      handledBy: STAFF,
    });
    expect(await placesLeft()).toBe(2);

    const [confirmation, cancellation, ...more] = await mailTo(input.email);
    expect(more).toEqual([]);
    expect(cancellation!.subject).toMatch(/^Cancelled: your repair appointment on /);
    const invitation = calendarFields(confirmation!.attachments![0]!.content);
    expect(calendarFields(cancellation!.attachments![0]!.content)).toMatchObject({
      METHOD: "CANCEL",
      STATUS: "CANCELLED",
      UID: invitation.UID,
      SEQUENCE: "1",
    });
    // The shop did this itself: no note to its own inbox beyond the booking's.
    expect(await shopMailAbout(input.email)).toHaveLength(1);

    expect(await cancelAppointmentByShop(scratch.db(), result.id, shopOptions)).toMatchObject({
      ok: false,
      reason: "already-cancelled",
      message: "This booking was already cancelled.",
    });
    expect(await mailTo(input.email)).toHaveLength(2);
  });

  it("cancels exactly once when two staff cancel at the same moment", async () => {
    const { input, result } = await booked("11:00");
    const results = await Promise.all([
      cancelAppointmentByShop(scratch.db(), result.id, shopOptions),
      cancelAppointmentByShop(scratch.db(), result.id, shopOptions),
    ]);
    const outcomes = results.map((r) => (r.ok ? "cancelled" : r.reason)).sort();
    expect(outcomes).toEqual(["already-cancelled", "cancelled"]);
    expect(await mailTo(input.email)).toHaveLength(2);
  });

  it("keeps whoever handled the request first as its handler", async () => {
    const { result } = await booked("12:00");
    const earlier = new Date(now.getTime() - 3_600_000);
    await scratch
      .db()
      .update(serviceRequests)
      .set({ handledAt: earlier, handledBy: null })
      .where(eq(serviceRequests.id, result.id));
    expect((await cancelAppointmentByShop(scratch.db(), result.id, shopOptions)).ok).toBe(true);
    expect(await rowOf(result.id)).toMatchObject({ handledAt: earlier, handledBy: null });
  });

  it("refuses a booking the customer cancelled, one that has started, and one that does not exist", async () => {
    const customer = await booked("13:00");
    const [confirmation] = await mailTo(customer.input.email);
    const token = /\/service-request\/cancel\/(\S+)/.exec(confirmation!.text)![1]!;
    expect(
      await cancelAppointment(scratch.db(), token, {
        secret: SECRET,
        now,
        rules,
        shopEmail: SHOP_INBOX,
      }),
    ).toMatchObject({ ok: true, status: "cancelled" });
    expect(
      await cancelAppointmentByShop(scratch.db(), customer.result.id, shopOptions),
    ).toMatchObject({ ok: false, reason: "already-cancelled" });
    expect((await rowOf(customer.result.id)).cancelledBy).toBe("customer");

    const started = await booked("14:00");
    const later = new Date(started.result.startsAt.getTime() + 60_000);
    const refused = await cancelAppointmentByShop(scratch.db(), started.result.id, {
      ...shopOptions,
      now: later,
    });
    expect(refused).toMatchObject({ ok: false, reason: "started" });
    expect(refused.ok ? "" : refused.message).toMatch(/already started/);
    expect(await rowOf(started.result.id)).toMatchObject({ cancelledAt: null, handledAt: null });
    expect(await mailTo(started.input.email)).toHaveLength(1);

    expect(await cancelAppointmentByShop(scratch.db(), 999_999, shopOptions)).toMatchObject({
      ok: false,
      reason: "not-found",
    });
  });
});

describe("a booking from an address nobody has proven", () => {
  // Words a stranger would like the shop to mail to someone else.
  const relay = {
    name: "Claim your prize at evil dot example",
    phone: "(817) 555-0123",
    issue: "Your account is locked: sign in at https://evil.example/login to unlock it.",
  };
  const confirmOptions = {
    rules,
    shopEmail: SHOP_INBOX,
    publicUrl: "https://shop.example.test",
    secret: SECRET,
  };
  const minutes = (n: number) => new Date(now.getTime() + n * 60_000);

  async function placesLeft(date: string, time: string, at = now) {
    const slots = await availableSlots(scratch.db(), date, rules, at);
    return slots.find((slot) => slot.time === time)?.placesLeft ?? 0;
  }

  async function awaiting(date: string, time: string, extra: Partial<BookingOptions> = {}) {
    const input = booking({ ...relay, preferredDate: date, preferredTime: time });
    const result = await bookAny(scratch.db(), input, options(extra));
    expect(result).toMatchObject({ ok: true, status: "awaiting-confirmation" });
    const [mail, ...more] = await mailTo(input.email);
    expect(more).toEqual([]);
    const token = /\/service-request\/confirm\/([A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
    expect(token).toBeDefined();
    return { input, result, mail: mail!, token: token! };
  }

  it("mails only a link to confirm, with nothing the visitor typed, and holds the place", async () => {
    expect(await placesLeft("2026-12-01", "10:00")).toBe(2);
    const { input, mail, token } = await awaiting("2026-12-01", "10:00");

    expect(mail.subject).toBe("Confirm your repair appointment");
    expect(mail.text).toContain(`https://shop.example.test/service-request/confirm/${token}`);
    expect(mail.text).toContain("Game Console Repair");
    expect(mail.text).toContain("Tuesday, December 1, 2026 at 10:00 AM CST");
    const everything = JSON.stringify(mail);
    for (const typed of [relay.name, "Claim", "evil", relay.issue, "unlock", "555-0123"]) {
      expect(everything).not.toContain(typed);
    }
    expect(mail.attachments ?? []).toEqual([]);
    expect(mail.replyTo ?? null).toBeNull();
    // Staff hear of it only once it is confirmed.
    expect(await shopMailAbout(input.email)).toEqual([]);
    expect(await placesLeft("2026-12-01", "10:00")).toBe(1);
    expect(await placesLeft("2026-12-01", "10:00", minutes(29))).toBe(1);
    // Nobody's account lists it.
    expect(
      await upcomingAppointments(scratch.db(), input.email, { now, secret: SECRET, rules }),
    ).toEqual([]);
  });

  it("the link confirms it once: the place is kept and the confirmation and the shop's notification go out", async () => {
    const { input, result, token } = await awaiting("2026-12-01", "11:00");
    expect(await confirmationState(scratch.db(), token, { now: minutes(10), rules })).toMatchObject(
      {
        state: "awaiting",
        serviceType: "Game Console Repair",
        when: "Tuesday, December 1, 2026 at 11:00 AM CST",
      },
    );

    const confirmed = await confirmBooking(scratch.db(), token, {
      ...confirmOptions,
      now: minutes(10),
    });
    expect(confirmed).toMatchObject({ ok: true, status: "confirmed" });
    const [row] = await scratch
      .db()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, result.ok ? result.id : 0));
    expect(row).toMatchObject({ confirmedAt: minutes(10), confirmTokenHash: null });

    const [, confirmation, ...more] = await mailTo(input.email);
    expect(more).toEqual([]);
    expect(confirmation!.subject).toBe(
      "Your repair appointment: Tuesday, December 1, 2026 at 11:00 AM CST",
    );
    expect(confirmation!.text).toContain("/service-request/cancel/");
    expect(confirmation!.attachments![0]!.filename).toBe("appointment.ics");
    const [notification, ...moreToShop] = await shopMailAbout(input.email);
    expect(moreToShop).toEqual([]);
    expect(notification!.text).toContain(relay.issue);

    // Past the window it still holds its place.
    expect(await placesLeft("2026-12-01", "11:00", minutes(120))).toBe(1);
    // The link is spent: used again, even at once twice, it changes and sends nothing.
    const again = await Promise.all([
      confirmBooking(scratch.db(), token, { ...confirmOptions, now: minutes(11) }),
      confirmBooking(scratch.db(), token, { ...confirmOptions, now: minutes(11) }),
    ]);
    expect(again).toMatchObject([
      { ok: false, reason: "invalid-link" },
      { ok: false, reason: "invalid-link" },
    ]);
    expect(await mailTo(input.email)).toHaveLength(2);
    expect(await shopMailAbout(input.email)).toHaveLength(1);
  });

  it("confirms exactly once when the link is followed twice at the same moment", async () => {
    const { input, token } = await awaiting("2026-12-01", "12:00");
    const results = await Promise.all([
      confirmBooking(scratch.db(), token, { ...confirmOptions, now: minutes(1) }),
      confirmBooking(scratch.db(), token, { ...confirmOptions, now: minutes(1) }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(await mailTo(input.email)).toHaveLength(2);
    expect(await shopMailAbout(input.email)).toHaveLength(1);
  });

  it("frees the place when the window passes unconfirmed, and the late link says it expired", async () => {
    const { input, token } = await awaiting("2026-12-01", "13:00");
    expect(await placesLeft("2026-12-01", "13:00", minutes(29))).toBe(1);
    expect(await placesLeft("2026-12-01", "13:00", minutes(31))).toBe(2);

    // Two others take both places once it lapsed.
    for (const _ of [1, 2]) {
      const other = booking({ preferredDate: "2026-12-01", preferredTime: "13:00" });
      expect(
        await bookAppointment(scratch.db(), other, options({ now: minutes(31) })),
      ).toMatchObject({ ok: true, status: "booked" });
    }
    expect(await confirmationState(scratch.db(), token, { now: minutes(31), rules })).toMatchObject(
      {
        state: "expired",
      },
    );
    const late = await confirmBooking(scratch.db(), token, { ...confirmOptions, now: minutes(31) });
    expect(late).toMatchObject({ ok: false, reason: "expired" });
    expect(late.ok ? "" : late.message).toMatch(/expired/);
    expect(await mailTo(input.email)).toHaveLength(1);
    expect(await shopMailAbout(input.email)).toEqual([]);
    expect(await activeBookingsAt(new Date("2026-12-01T19:00:00Z"))).toBe(3);
    expect(await placesLeft("2026-12-01", "13:00", minutes(31))).toBe(0);
  });

  it("holds the place no longer than until the appointment starts", async () => {
    // 10:20 now: the 11:00 slot starts in 40 minutes; a 60-minute window ends at the start.
    const long = { ...rules, confirmMinutes: 60 };
    const input = booking({ preferredDate: "2026-11-23", preferredTime: "11:00" });
    const result = await bookAny(scratch.db(), input, options({ rules: long }));
    expect(result).toMatchObject({
      ok: true,
      status: "awaiting-confirmation",
      confirmBy: new Date("2026-11-23T17:00:00Z"),
    });
  });

  it("takes the confirmation window from the rules", async () => {
    const short = { ...rules, confirmMinutes: 5 };
    const { token } = await awaiting("2026-12-01", "14:00", { rules: short });
    expect(await confirmationState(scratch.db(), token, { now: minutes(6), rules })).toMatchObject({
      state: "expired",
    });
  });

  it("refuses links that are not one it sent", async () => {
    const { token } = await awaiting("2026-12-01", "15:00");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const bad of [
      "",
      "garbage",
      "A".repeat(43),
      `${token}x`,
      token.slice(1),
      token.toLowerCase(),
    ]) {
      expect(await confirmBooking(scratch.db(), bad, { ...confirmOptions, now })).toMatchObject({
        ok: false,
        reason: "invalid-link",
      });
      expect(await confirmationState(scratch.db(), bad, { now, rules })).toMatchObject({
        state: "invalid",
      });
    }
    expect(await placesLeft("2026-12-01", "15:00")).toBe(1);
  });

  it("books a signed-in customer's own confirmed address at once, and nobody else's", async () => {
    const input = booking({ preferredDate: "2026-12-02", preferredTime: "10:00" });
    const booked = await bookAny(
      scratch.db(),
      input,
      options({ provenEmail: input.email.toUpperCase() }),
    );
    expect(booked).toMatchObject({ ok: true, status: "booked" });
    expect((await mailTo(input.email))[0]!.subject).toMatch(/^Your repair appointment: /);
    expect(await shopMailAbout(input.email)).toHaveLength(1);

    const someoneElse = booking({ preferredDate: "2026-12-02", preferredTime: "10:00" });
    const held = await bookAny(scratch.db(), someoneElse, options({ provenEmail: input.email }));
    expect(held).toMatchObject({ ok: true, status: "awaiting-confirmation" });
    expect((await mailTo(someoneElse.email))[0]!.subject).toBe("Confirm your repair appointment");
  });

  it("limits bookings per address, whatever the client", async () => {
    const email = "often@example.test";
    const limit = { windowSeconds: 3600, max: 2 };
    const results = [];
    for (const time of ["15:00", "16:00", "17:00"]) {
      const input = booking({ email, preferredDate: "2026-12-03", preferredTime: time });
      results.push(await bookAny(scratch.db(), input, options({ addressLimit: limit })));
    }
    expect(results.map((result) => (result.ok ? result.status : result.reason))).toEqual([
      "awaiting-confirmation",
      "awaiting-confirmation",
      "address-rate-limited",
    ]);
    expect(await mailTo(email)).toHaveLength(2);
  });
});
