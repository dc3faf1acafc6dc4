import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { customers, users } from "#app/db/schema.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { scratchOutbox } from "#tests/support/scratch-outbox.ts";
import { createStaff } from "#tests/support/staff.ts";
import {
  correctTicket,
  detailsVersion,
  findReturningCustomers,
  returningCustomer,
} from "./corrections.server.ts";
import { ticketStatusPath } from "./status-link.server.ts";
import { correctionSchema, ticketSchema } from "./ticket-input.ts";
import {
  getTicket,
  moveTicket,
  openTicket,
  repairBoard,
  ticketsForCustomer,
} from "./tickets.server.ts";

const scratch = scratchDatabase();
const { mailTo } = scratchOutbox(scratch);
const alice: Staff = { id: `staff-${randomUUID()}`, name: "Alice Admin" };
const bob: Staff = { id: `staff-${randomUUID()}`, name: "Bob Bench" };
const links = { publicUrl: "https://shop.example.test", secret: "test-secret-for-corrections" };
const today = "2026-11-25";
beforeAll(async () => {
  for (const staff of [alice, bob]) await createStaff(scratch.db(), staff.name, staff.id);
});

const INTAKE = {
  name: "Rosa Reader",
  phone: "(817) 555-0199",
  serviceType: "PC & Laptop Repair",
  deviceKind: "Laptop",
  deviceBrand: "Dell",
  deviceModel: "XPS 13",
  deviceSerial: "SN-1",
  problem: "It does not start.",
  conditionAtIntake: "Scratch on the lid.",
  accessories: "Charger",
  promisedDate: "2026-12-01",
};

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.test`;

async function open(fields: Record<string, string> = {}) {
  const input = ticketSchema.parse({ ...INTAKE, email: unique("rosa"), ...fields });
  const opened = await openTicket(scratch.db(), input, { staff: alice, links, today });
  if (!opened.ok) throw new Error(opened.message);
  return { number: opened.number, input };
}

/** The correction form as its page sends it: every field, the version seen, a note. */
async function correction(number: number, changes: Record<string, string>, note = "") {
  const { ticket } = (await getTicket(scratch.db(), number))!;
  return correctionSchema.parse({
    name: ticket.customerName,
    email: ticket.customerEmail,
    phone: ticket.customerPhone,
    serviceType: ticket.serviceType,
    deviceKind: ticket.deviceKind,
    deviceBrand: ticket.deviceBrand,
    deviceModel: ticket.deviceModel,
    deviceSerial: ticket.deviceSerial ?? "",
    problem: ticket.problem,
    conditionAtIntake: ticket.conditionAtIntake,
    accessories: ticket.accessories,
    promisedDate: ticket.promisedDate,
    seen: detailsVersion(ticket),
    note,
    ...changes,
  });
}

describe("correcting a ticket", () => {
  it("writes the fields that changed, and the history says who, why and each from → to", async () => {
    const { number, input } = await open();
    const db = scratch.db();
    const email = unique("rosa-right");
    const corrected = await correctTicket(
      db,
      number,
      await correction(
        number,
        { email, phone: "817.555.0142", promisedDate: "2026-12-04", deviceSerial: "" },
        "Parts are late",
      ),
      { staff: bob, links, today },
    );
    expect(corrected).toEqual({
      ok: true,
      changed: ["customer_email", "customer_phone", "device_serial", "promised_date"],
      message: `Ticket R-${number} is corrected: E-mail, Phone, Serial / IMEI, Promised date.`,
    });
    const view = (await getTicket(db, number))!;
    expect(view.ticket).toMatchObject({
      customerEmail: email,
      customerPhone: "817.555.0142",
      deviceSerial: null,
      promisedDate: "2026-12-04",
      customerName: "Rosa Reader",
      status: "checked_in",
    });
    expect(view.events.at(-1)).toMatchObject({
      fromStatus: "checked_in",
      toStatus: "checked_in",
      actorId: bob.id,
      actorName: "Bob Bench",
      note: "Parts are late",
      changes: [
        { field: "customer_email", from: input.email, to: email },
        { field: "customer_phone", from: "(817) 555-0199", to: "817.555.0142" },
        { field: "device_serial", from: "SN-1", to: null },
        { field: "promised_date", from: "2026-12-01", to: "2026-12-04" },
      ],
    });
    // The status changes keep their own rows: the intake and this correction, nothing else.
    expect(view.events.map((event) => event.changes === null)).toEqual([true, false]);

    // The corrected address is sent the status link; the mistyped one hears nothing more.
    const [mail] = await mailTo(email);
    expect(mail!.subject).toBe(`Repair R-${number}: follow your repair`);
    expect(mail!.text).toContain(
      `https://shop.example.test${ticketStatusPath(number, links.secret)}`,
    );
    expect(mail!.text).toContain("We have your device and will look at it soon.");
    // The new date is said in the same message.
    expect(mail!.text).toContain("We now aim to have it ready by Friday, December 4.");
    expect(await mailTo(email)).toHaveLength(1);
    expect(await mailTo(input.email)).toHaveLength(1);
  });

  it("tells the customer of a new promised date while the work is ahead, and not after", async () => {
    const { number, input } = await open();
    const db = scratch.db();
    const correct = async (changes: Record<string, string>) =>
      correctTicket(db, number, await correction(number, changes, "Parts are late"), {
        staff: bob,
        links,
        today,
      });
    expect((await correct({ promisedDate: "2026-12-04" })).ok).toBe(true);
    const [, moved] = await mailTo(input.email);
    expect(moved!.subject).toBe(`Repair R-${number}: a new date for your Dell XPS 13 laptop`);
    expect(moved!.text).toContain(
      "We now aim to have your Dell XPS 13 laptop ready by Friday, December 4, instead of Tuesday, December 1. We are sorry for the wait.",
    );
    expect(moved!.text).toContain(
      `https://shop.example.test${ticketStatusPath(number, links.secret)}`,
    );
    // Sooner: no apology. Another detail alone: nothing to tell.
    expect((await correct({ promisedDate: "2026-12-02" })).ok).toBe(true);
    expect((await mailTo(input.email)).at(-1)!.text).toContain(
      "ready by Wednesday, December 2, instead of Friday, December 4.\n",
    );
    expect((await correct({ phone: "817.555.0100" })).ok).toBe(true);
    expect(await mailTo(input.email)).toHaveLength(3);
    // Returned unrepaired, there is no work left to be late with.
    await moveTicket(
      db,
      number,
      { from: "checked_in", to: "returned", note: "" },
      { staff: alice, links, hours: "Mon–Sat" },
    );
    const sent = (await mailTo(input.email)).length;
    expect((await correct({ promisedDate: "2026-12-09" })).ok).toBe(true);
    expect(await mailTo(input.email)).toHaveLength(sent);
  });

  it("moves a ticket from the account of a mistyped address to the account of the right one", async () => {
    const db = scratch.db();
    const wrong = { id: randomUUID(), email: unique("someone-else") };
    const right = { id: randomUUID(), email: unique("the-owner") };
    await db.insert(users).values([
      { id: wrong.id, name: "Someone Else", email: wrong.email, emailVerified: true },
      { id: right.id, name: "The Owner", email: right.email, emailVerified: true },
    ]);
    const { number } = await open({ email: wrong.email });
    expect((await ticketsForCustomer(db, wrong.id)).map((t) => t.number)).toEqual([number]);
    await correctTicket(
      db,
      number,
      await correction(number, { email: right.email.toUpperCase() }),
      {
        staff: bob,
        links,
        today,
      },
    );
    expect(await ticketsForCustomer(db, wrong.id)).toEqual([]);
    expect((await ticketsForCustomer(db, right.id)).map((t) => t.number)).toEqual([number]);
  });

  it("lets a promised date slip to a later day, so an overdue ticket is no longer overdue", async () => {
    const { number } = await open({ name: `Slip ${randomUUID().slice(0, 8)}` });
    const db = scratch.db();
    // Opened for the 1st; it is now the 3rd, and the parts are late.
    const late = "2026-12-03";
    const board = () => repairBoard(db, { status: "open", query: `R-${number}`, today: late });
    expect((await board()).rows[0]!.overdue).toBe(true);
    expect(
      await correctTicket(db, number, await correction(number, { promisedDate: "2026-12-02" }), {
        staff: bob,
        links,
        today: late,
      }),
    ).toEqual({
      ok: false,
      reason: "invalid",
      field: "promisedDate",
      message: "The promised date cannot be in the past.",
    });
    // A past promise left as it was does not stop another correction.
    expect(
      await correctTicket(db, number, await correction(number, { deviceModel: "XPS 13 9310" }), {
        staff: bob,
        links,
        today: late,
      }),
    ).toMatchObject({ ok: true, changed: ["device_model"] });
    expect(
      await correctTicket(db, number, await correction(number, { promisedDate: "2026-12-08" }), {
        staff: bob,
        links,
        today: late,
      }),
    ).toMatchObject({ ok: true, changed: ["promised_date"] });
    expect((await board()).rows[0]!.overdue).toBe(false);
  });

  it("refuses a correction made from details someone else corrected meanwhile; a status move is no such change", async () => {
    const { number } = await open();
    const db = scratch.db();
    const mine = await correction(number, { deviceModel: "XPS 15" });
    const theirs = await correction(number, { name: "Rosa Reade" });
    await moveTicket(
      db,
      number,
      { from: "checked_in", to: "diagnosing", note: "" },
      { staff: alice, links, hours: "Mon–Sat" },
    );
    expect(await correctTicket(db, number, theirs, { staff: alice, links, today })).toMatchObject({
      ok: true,
    });
    expect(await correctTicket(db, number, mine, { staff: bob, links, today })).toMatchObject({
      ok: false,
      reason: "conflict",
      message: expect.stringMatching(/^Someone else corrected ticket R-\d+ meanwhile/),
    });
    const { ticket, events } = (await getTicket(db, number))!;
    expect(ticket).toMatchObject({ customerName: "Rosa Reade", deviceModel: "XPS 13" });
    expect(events.filter((event) => event.changes)).toHaveLength(1);
  });

  it("changes nothing, and writes no history, when nothing differs", async () => {
    const { number } = await open();
    const db = scratch.db();
    expect(
      await correctTicket(db, number, await correction(number, {}), { staff: bob, links, today }),
    ).toMatchObject({
      ok: true,
      changed: [],
      message: "Nothing was changed: the details are as they were.",
    });
    expect((await getTicket(db, number))!.events).toHaveLength(1);
  });
});

describe("a returning customer at intake", () => {
  it("is found by phone however it is typed, or by e-mail, newest ticket first, once per person", async () => {
    const phone = `(682) 555-${String(Math.floor(Math.random() * 9000) + 1000)}`;
    const email = unique("returning");
    const first = await open({ name: "Ray Turner", email, phone });
    const second = await open({ name: "Ray Turner", email, phone, deviceBrand: "Lenovo" });
    const spouse = await open({ name: "Rita Turner", phone });
    const expected = [
      {
        name: "Rita Turner",
        email: spouse.input.email,
        phone,
        lastTicket: { number: spouse.number, device: "Dell XPS 13 laptop" },
        accountId: null,
      },
      {
        name: "Ray Turner",
        email,
        phone,
        lastTicket: { number: second.number, device: "Lenovo XPS 13 laptop" },
        accountId: null,
      },
    ];
    const digits = phone.replace(/\D/g, "");
    for (const typed of [phone, digits, `+1 ${digits.slice(0, 3)}.${digits.slice(3)}`]) {
      expect(await findReturningCustomers(scratch.db(), typed), typed).toEqual({
        ok: true,
        customers: expected,
      });
    }
    expect(await findReturningCustomers(scratch.db(), ` ${email.toUpperCase()} `)).toEqual({
      ok: true,
      customers: [expected[1]],
    });
    expect(await returningCustomer(scratch.db(), { ticket: first.number })).toEqual({
      name: "Ray Turner",
      email,
      phone,
    });
  });

  it("is found as an account with that confirmed address when no ticket has it", async () => {
    const db = scratch.db();
    const id = randomUUID();
    const email = unique("account-only");
    await db.insert(users).values({ id, name: "acct", email, emailVerified: true });
    await db.insert(customers).values({ id, email, firstName: "Ava", lastName: "Count" });
    const found = await findReturningCustomers(db, email);
    expect(found).toEqual({
      ok: true,
      customers: [{ name: "Ava Count", email, phone: "", lastTicket: null, accountId: id }],
    });
    expect(await returningCustomer(db, { accountId: id })).toEqual({
      name: "Ava Count",
      email,
      phone: "",
    });
  });

  it("asks for a full phone number or an address, and finds no one for a stranger", async () => {
    const db = scratch.db();
    for (const typed of ["", "555-0199", "Rosa"]) {
      expect(await findReturningCustomers(db, typed)).toEqual({
        ok: false,
        message: "Enter a full phone number or an e-mail address.",
      });
    }
    expect(await findReturningCustomers(db, unique("nobody"))).toEqual({ ok: true, customers: [] });
    expect(await findReturningCustomers(db, "(469) 555-0000")).toEqual({
      ok: true,
      customers: [],
    });
  });
});
