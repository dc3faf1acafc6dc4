// What was typed at intake, corrected afterwards (a mistyped address, a promised date that slips
// when parts are late), and a returning customer found at the next intake instead of typed
// again. Each correction is written to the ticket's history by the database (migration 0025):
// who, why, and every field's value before and after.
import { createHash } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/client.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { customers, repairSearchText, repairTickets, users } from "#app/db/schema.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import { refuse } from "#app/lib/reply.server.ts";
import {
  correctedAddressMessage,
  promisedDateChangedMessage,
} from "#app/emails/repair-ticket-emails.ts";
import {
  CUSTOMER_WORDS,
  CORRECTABLE_FIELDS,
  ticketLabel,
  WORK_AHEAD_STATUSES,
  type CorrectableField,
} from "./status.ts";
import type { CorrectionInput } from "./ticket-input.ts";
import {
  deviceName,
  intakeDetails,
  notFound,
  statusUrl,
  type Ticket,
  type TicketLinks,
  type TicketResult,
} from "./tickets.server.ts";

/** The ticket's columns staff correct, by the name the history keeps them under. */
const COLUMNS = {
  customer_name: "customerName",
  customer_email: "customerEmail",
  customer_phone: "customerPhone",
  service_type: "serviceType",
  device_kind: "deviceKind",
  device_brand: "deviceBrand",
  device_model: "deviceModel",
  device_serial: "deviceSerial",
  problem: "problem",
  condition_at_intake: "conditionAtIntake",
  accessories: "accessories",
  promised_date: "promisedDate",
} as const satisfies Record<CorrectableField, keyof Ticket>;

type Details = Pick<Ticket, (typeof COLUMNS)[CorrectableField]>;

/**
 * A short fingerprint of the details as they are: the correction form carries the one its page
 * showed, so a correction someone else made meanwhile is noticed instead of overwritten.
 */
export function detailsVersion(ticket: Details): string {
  const values = Object.values(COLUMNS).map((column) => ticket[column]);
  return createHash("sha256").update(JSON.stringify(values)).digest("base64url").slice(0, 22);
}

/**
 * Corrects the details typed at intake, from the version the staff member saw. Only the fields
 * that differ are written; the history trigger records them. A corrected e-mail address moves
 * the ticket to the account with that confirmed address (or to none), and the customer is sent
 * the status link there, in the same transaction; a new promised date while the work is still
 * ahead is said to the customer too. A promised date that is changed cannot be in the past; one
 * left as it was may be (the ticket is simply overdue).
 */
export async function correctTicket(
  db: Database,
  number: number,
  input: CorrectionInput,
  options: { staff: Staff; links: TicketLinks; today: string; now?: Date },
): Promise<TicketResult<{ changed: CorrectableField[] }>> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<TicketResult<{ changed: CorrectableField[] }>> => {
    const [ticket] = await tx
      .select()
      .from(repairTickets)
      .where(eq(repairTickets.number, number))
      .for("update");
    if (!ticket) return notFound(number);
    if (detailsVersion(ticket) !== input.seen) {
      return refuse(
        "conflict",
        `Someone else corrected ticket ${ticketLabel(number)} meanwhile; nothing was saved. What is on the ticket now is shown under each field you changed: check, then save again.`,
      );
    }
    const next = intakeDetails(input);
    const changed = (Object.keys(COLUMNS) as CorrectableField[]).filter(
      (field) => next[COLUMNS[field]] !== ticket[COLUMNS[field]],
    );
    if (changed.length === 0) {
      return { ok: true, changed, message: "Nothing was changed: the details are as they were." };
    }
    if (changed.includes("promised_date") && next.promisedDate < options.today) {
      return refuse("invalid", "The promised date cannot be in the past.", "promisedDate");
    }
    const update: Partial<Ticket> = Object.fromEntries(
      changed.map((field) => [COLUMNS[field], next[COLUMNS[field]]]),
    );
    const newAddress = changed.includes("customer_email");
    if (newAddress) {
      const [account] = await tx
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            sql`lower(${users.email}) = lower(${next.customerEmail})`,
            eq(users.emailVerified, true),
          ),
        );
      update.customerId = account?.id ?? null;
    }
    await withActor(tx, options.staff, input.note);
    const [corrected] = await tx
      .update(repairTickets)
      .set({ ...update, updatedAt: now })
      .where(eq(repairTickets.number, number))
      .returning();
    // The customer is told of a new address, and of a new date while the work is still ahead:
    // in one message when both changed.
    const newDate =
      changed.includes("promised_date") && WORK_AHEAD_STATUSES.includes(corrected!.status);
    const about = {
      label: ticketLabel(number),
      name: corrected!.customerName,
      device: deviceName(corrected!),
      statusUrl: statusUrl(number, options.links),
      now: CUSTOMER_WORDS[corrected!.status],
    };
    const message = newAddress
      ? correctedAddressMessage({
          ...about,
          newPromisedDate: newDate ? corrected!.promisedDate : undefined,
        })
      : newDate
        ? promisedDateChangedMessage({
            ...about,
            from: ticket.promisedDate,
            to: corrected!.promisedDate,
          })
        : undefined;
    if (message) await queueMail({ to: corrected!.customerEmail, ...message }, { tx });
    return {
      ok: true,
      changed,
      message: `Ticket ${ticketLabel(number)} is corrected: ${changed.map((field) => CORRECTABLE_FIELDS[field]).join(", ")}.`,
    };
  });
}

/** A customer met before, as the intake form's lookup lists them. */
export type ReturningCustomer = {
  name: string;
  email: string;
  phone: string;
  /** Their latest ticket with these details, and its device; null for an account only. */
  lastTicket: { number: number; device: string } | null;
  /** The account they signed up with, when found by its e-mail and no ticket has it. */
  accountId: string | null;
};

/** How many customers the lookup lists at most. */
const LOOKUP_LIMIT = 5;

/**
 * Finds a returning customer by an e-mail address (its case aside) or a full US phone number
 * (however it is typed): the details of their latest tickets, one entry per name, address and
 * number, newest first, and else the account with that confirmed address.
 */
export async function findReturningCustomers(
  db: Database,
  query: string,
): Promise<{ ok: true; customers: ReturningCustomer[] } | { ok: false; message: string }> {
  const text = query.trim();
  const email = text.includes("@") ? text.toLowerCase() : null;
  const digits = text.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");
  const phone = !email && /^[2-9]\d{2}[2-9]\d{6}$/.test(digits) ? digits : null;
  if (!email && !phone) {
    return { ok: false, message: "Enter a full phone number or an e-mail address." };
  }
  const phoneDigits = sql`right(regexp_replace(${repairTickets.customerPhone}, '[^0-9]', '', 'g'), 10)`;
  const rows = await db
    .select()
    .from(repairTickets)
    .where(
      email
        ? sql`lower(${repairTickets.customerEmail}) = ${email}`
        : // The search index narrows by the digits; the last ten of the number decide.
          sql`${repairSearchText(repairTickets)} like ${`%${phone}%`} and ${phoneDigits} = ${phone}`,
    )
    .orderBy(desc(repairTickets.number))
    .limit(50);
  const found = new Map<string, ReturningCustomer>();
  for (const row of rows) {
    const key = [
      row.customerName.toLowerCase(),
      row.customerEmail.toLowerCase(),
      row.customerPhone.replace(/\D/g, "").slice(-10),
    ].join("\u001f");
    if (found.has(key)) continue;
    found.set(key, {
      name: row.customerName,
      email: row.customerEmail,
      phone: row.customerPhone,
      lastTicket: { number: row.number, device: deviceName(row) },
      accountId: null,
    });
  }
  const customersFound = [...found.values()].slice(0, LOOKUP_LIMIT);
  if (email && customersFound.length === 0) {
    const account = await accountCustomer(db, { email });
    if (account) customersFound.push(account);
  }
  return { ok: true, customers: customersFound };
}

/** An account with a confirmed address, by its address or its id, as a returning customer. */
async function accountCustomer(
  db: Database,
  by: { email: string } | { id: string },
): Promise<ReturningCustomer | null> {
  const [account] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      firstName: customers.firstName,
      lastName: customers.lastName,
    })
    .from(users)
    .leftJoin(customers, eq(customers.id, users.id))
    .where(
      and(
        "email" in by ? sql`lower(${users.email}) = ${by.email}` : eq(users.id, by.id),
        eq(users.emailVerified, true),
      ),
    );
  if (!account) return null;
  const profileName = [account.firstName, account.lastName].filter(Boolean).join(" ").trim();
  return {
    name: profileName || account.name,
    email: account.email,
    phone: "",
    lastTicket: null,
    accountId: account.id,
  };
}

/**
 * The customer's details to start an intake from: an earlier ticket's (by its number) or an
 * account's (by its id). Null when there is no such ticket or confirmed account.
 */
export async function returningCustomer(
  db: Database,
  from: { ticket: number } | { accountId: string },
): Promise<{ name: string; email: string; phone: string } | null> {
  if ("accountId" in from) {
    const account = await accountCustomer(db, { id: from.accountId });
    return account && { name: account.name, email: account.email, phone: account.phone };
  }
  const [ticket] = await db
    .select({
      name: repairTickets.customerName,
      email: repairTickets.customerEmail,
      phone: repairTickets.customerPhone,
    })
    .from(repairTickets)
    .where(eq(repairTickets.number, from.ticket));
  return ticket ?? null;
}
