// Repair tickets: intake, the moves staff make, estimates the customer decides on, collection.
// Every change is one transaction with its e-mail; its history is written by the database
// (migration 0018); each change is conditional on the status the actor saw, so of two people
// moving one ticket at once exactly one wins and the other is told.
import { and, asc, count, desc, eq, inArray, lt, max, sql } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { consumeLimit, type Limit } from "#app/domain/accounts/rate-limit.server.ts";
import { COUNT_CAP, countUpTo, pageWindow } from "#app/domain/admin/lists.server.ts";
import {
  repairEstimateLines,
  repairEstimates,
  repairPayments,
  repairSearchText,
  repairTicketEvents,
  repairTickets,
  serviceRequests,
  users,
} from "#app/db/schema.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import type { PosterStorage } from "#app/domain/posters/storage.server.ts";
import {
  estimateReadyMessage,
  readyForPickupMessage,
  ticketCheckedInMessage,
} from "#app/emails/repair-ticket-emails.ts";
import { formatUsd } from "#app/lib/money.ts";
import { refuse, type Refusal, type Result } from "#app/lib/reply.server.ts";
import {
  canMove,
  OPEN_STATUSES,
  OTHER_AMOUNT_DAYS,
  parseTicketLabel,
  STATUS_LABELS,
  statusesBefore,
  ticketLabel,
  TICKET_STATUSES,
  WORK_AHEAD_STATUSES,
  type TicketStatus,
} from "./status.ts";
import {
  discardPhotos,
  photosOfTicket,
  recordPhotos,
  storePhotos,
  type PhotoUpload,
  type StoredPhoto,
} from "./photos.server.ts";
import {
  checkDeskPayment,
  depositTaken,
  insertDeskPayment,
  recordedByForm,
  type CheckedPayment,
  type DeskPayment,
} from "./desk-payments.server.ts";
import { repairAccount, repairInvoice } from "./invoice.ts";
import { ticketPayPath, ticketStatusPath } from "./status-link.server.ts";
import { MAX_REPAIR_CENTS, type EstimateInput, type TicketInput } from "./ticket-input.ts";

export type TicketLinks = { publicUrl: string; secret: string };

export type TicketFailure = Refusal<
  "not-found" | "conflict" | "invalid" | "rate-limited" | "refund-failed"
>;
export type TicketResult<T = object> = Result<T, TicketFailure["reason"]>;

export type Ticket = typeof repairTickets.$inferSelect;

export const notFound = (number: number) =>
  refuse("not-found", `There is no ticket ${ticketLabel(number)}.`);

/** The device as the customer would name it: "Dell XPS 13 laptop". */
export function deviceName(ticket: Pick<Ticket, "deviceBrand" | "deviceModel" | "deviceKind">) {
  const kind = ticket.deviceKind === "Other" ? "device" : ticket.deviceKind.toLowerCase();
  return `${ticket.deviceBrand} ${ticket.deviceModel} ${kind}`.replace(/\s+/g, " ").trim();
}

export function statusUrl(number: number, links: TicketLinks) {
  return new URL(ticketStatusPath(number, links.secret), links.publicUrl).toString();
}

async function currentStatus(tx: Database | Transaction, number: number) {
  const [row] = await tx
    .select({ status: repairTickets.status })
    .from(repairTickets)
    .where(eq(repairTickets.number, number));
  return row?.status ?? null;
}

/** What the losing side of a race is told: where the ticket is now. */
export async function movedMeanwhile(tx: Transaction, number: number): Promise<TicketFailure> {
  const now = await currentStatus(tx, number);
  if (!now) return notFound(number);
  return refuse(
    "conflict",
    `Ticket ${ticketLabel(number)} is now "${STATUS_LABELS[now]}": someone else just changed it. Nothing was changed; check the ticket and try again.`,
  );
}

/** A deposit taken at intake, with the key of the intake form it was typed into. */
export type IntakeDeposit = DeskPayment & { formKey: string };

/** A ticket opened, and the deposit taken with it (its payment's id), if any. */
export type Opened = { number: number; depositId: number | null };

/**
 * Opens a ticket at the counter: a walk-in, or a confirmed booking from the inbox (which is then
 * marked handled). Linked to the account whose confirmed address it is. An optional deposit is
 * taken in the same transaction (cash into the open till: refused, opening nothing, while it is
 * closed). The intake form sent again (`formKey`, or its deposit's), one after the other or at
 * once, finds the ticket it opened and opens no other, with or without a deposit. The
 * customer's checked-in e-mail is queued in the same transaction. Up to five photos of the
 * device are checked and stored first, recorded with the ticket, and removed again if it is not
 * opened.
 */
export async function openTicket(
  db: Database,
  input: TicketInput,
  options: {
    staff: Staff;
    links: TicketLinks;
    today: string;
    deposit?: IntakeDeposit | null;
    /** The intake form's key (a deposit's `formKey` is the same form's). */
    formKey?: string | null;
    photos?: PhotoUpload[];
    storage?: PosterStorage;
    now?: Date;
  },
): Promise<TicketResult<Opened & { replayed?: boolean }>> {
  if (input.promisedDate < options.today) {
    return refuse("invalid", "The promised date cannot be in the past.", "promisedDate");
  }
  const stored = await storePhotos(options.photos ?? [], options.storage);
  if (!stored.ok) {
    if (stored.cause) console.error("Repair photos could not be stored", stored.cause);
    return refuse("invalid", stored.message, "photos");
  }
  let opened: TicketResult<Opened & { replayed?: boolean }> | undefined;
  try {
    opened = await insertTicket(db, input, { ...options, photos: stored.photos });
  } finally {
    if (!opened?.ok || opened.replayed) await discardPhotos(stored.photos, options.storage);
  }
  return opened;
}

/** The ticket's columns typed at intake (and corrected later), from the counter's form. */
export function intakeDetails(input: Omit<TicketInput, "serviceRequestId">) {
  return {
    customerName: input.name,
    customerEmail: input.email,
    customerPhone: input.phone,
    serviceType: input.serviceType,
    deviceKind: input.deviceKind,
    deviceBrand: input.deviceBrand,
    deviceModel: input.deviceModel,
    deviceSerial: input.deviceSerial ?? null,
    problem: input.problem,
    conditionAtIntake: input.conditionAtIntake,
    accessories: input.accessories,
    promisedDate: input.promisedDate,
  } satisfies Partial<Ticket>;
}

/**
 * The answer to an intake form sent again: the ticket it opened (found by its key, or by the
 * deposit it took, for a ticket opened before tickets kept their key), with its deposit; a
 * refusal when the key is another desk form's. Undefined for a form not sent before. Taken under
 * the form's lock (`recordedByForm`'s), so a second sending at the same moment waits for the
 * first to commit and then finds its ticket.
 */
async function openedByForm(
  tx: Transaction,
  formKey: string,
): Promise<TicketResult<Opened & { replayed: true }> | undefined> {
  const payments = await recordedByForm(tx, formKey);
  const [ticket] = await tx
    .select({ number: repairTickets.number })
    .from(repairTickets)
    .where(eq(repairTickets.intakeKey, formKey));
  const deposit = payments.find((payment) => payment.kind === "deposit");
  if (!ticket && payments.length > 0 && !deposit) {
    return refuse("conflict", "This form was used already: open the intake form again.");
  }
  const number = ticket?.number ?? deposit?.ticketNumber;
  if (number === undefined) return undefined;
  return {
    ok: true,
    number,
    depositId: deposit?.id ?? null,
    replayed: true,
    message: `Ticket ${ticketLabel(number)} is open.`,
  };
}

async function insertTicket(
  db: Database,
  input: TicketInput,
  options: {
    staff: Staff;
    links: TicketLinks;
    photos: StoredPhoto[];
    deposit?: IntakeDeposit | null;
    formKey?: string | null;
    now?: Date;
  },
): Promise<TicketResult<Opened & { replayed?: boolean }>> {
  const now = options.now ?? new Date();
  const intake = options.deposit ?? null;
  const formKey = intake?.formKey ?? options.formKey ?? null;
  return db.transaction(async (tx): Promise<TicketResult<Opened & { replayed?: boolean }>> => {
    if (formKey) {
      const earlier = await openedByForm(tx, formKey);
      if (earlier) return earlier;
    }
    let deposit: CheckedPayment | null = null;
    if (intake) {
      const { formKey: _key, ...payment } = intake;
      // Checked before anything is written: a refused deposit opens nothing.
      const checked = await checkDeskPayment(tx, payment);
      if (!checked.ok) {
        return refuse(
          "invalid",
          checked.message,
          checked.field === "paymentMethod" ? "method" : checked.field,
        );
      }
      deposit = checked.payment;
    }
    if (input.serviceRequestId) {
      const [booking] = await tx
        .select({
          confirmedAt: serviceRequests.confirmedAt,
          cancelledAt: serviceRequests.cancelledAt,
          ticket: repairTickets.number,
        })
        .from(serviceRequests)
        .leftJoin(repairTickets, eq(repairTickets.serviceRequestId, serviceRequests.id))
        .where(eq(serviceRequests.id, input.serviceRequestId))
        .for("update", { of: serviceRequests });
      if (!booking || !booking.confirmedAt) {
        return refuse("not-found", "There is no such repair booking.");
      }
      if (booking.ticket) {
        return refuse(
          "conflict",
          `This booking already has ticket ${ticketLabel(booking.ticket)}.`,
        );
      }
      if (booking.cancelledAt) {
        return refuse("conflict", "This booking was cancelled.");
      }
      await tx
        .update(serviceRequests)
        .set({
          handledAt: now,
          handledBy: options.staff.id,
          readAt: sql`coalesce(read_at, ${now})`,
        })
        .where(eq(serviceRequests.id, input.serviceRequestId));
    }
    const [account] = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(sql`lower(${users.email}) = lower(${input.email})`, eq(users.emailVerified, true)),
      );
    await withActor(
      tx,
      options.staff,
      deposit
        ? `Checked in at the counter, with a deposit of ${formatUsd(deposit.amountCents)} by ${deposit.method}`
        : "Checked in at the counter",
    );
    const [ticket] = await tx
      .insert(repairTickets)
      .values({
        serviceRequestId: input.serviceRequestId ?? null,
        customerId: account?.id ?? null,
        ...intakeDetails(input),
        openedBy: options.staff.id,
        intakeKey: formKey,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordPhotos(tx, ticket!.number, options.photos, options.staff.id);
    const taken =
      deposit && intake
        ? await insertDeskPayment(tx, ticket!.number, "deposit", deposit, {
            staff: options.staff,
            formKey: intake.formKey,
            now,
          })
        : null;
    const message = ticketCheckedInMessage({
      label: ticketLabel(ticket!.number),
      name: ticket!.customerName,
      device: deviceName(ticket!),
      promisedDate: ticket!.promisedDate,
      statusUrl: statusUrl(ticket!.number, options.links),
      deposit: taken && { amountCents: taken.amountCents, method: taken.method },
    });
    await queueMail({ to: ticket!.customerEmail, ...message }, { tx });
    const label = ticketLabel(ticket!.number);
    return {
      ok: true,
      number: ticket!.number,
      depositId: taken?.id ?? null,
      message: taken
        ? `Ticket ${label} is open. ${depositTaken(ticket!.number, taken)}`
        : `Ticket ${label} is open.`,
    };
  });
}

/** The statuses staff set by hand; the others come with an action of their own. */
export const MANUAL_STATUSES: readonly TicketStatus[] = [
  "diagnosing",
  "repairing",
  "ready",
  "returned",
];

/**
 * Moves a ticket from the status the staff member saw to the next. Ready for pickup queues the
 * customer's e-mail in the same transaction.
 */
export async function moveTicket(
  db: Database,
  number: number,
  input: { from: TicketStatus; to: TicketStatus; note: string },
  options: { staff: Staff; links: TicketLinks; hours: string; now?: Date },
): Promise<TicketResult> {
  if (!MANUAL_STATUSES.includes(input.to) || !canMove(input.from, input.to)) {
    return refuse(
      "invalid",
      `A ticket cannot go from "${STATUS_LABELS[input.from]}" to "${STATUS_LABELS[input.to]}".`,
      "to",
    );
  }
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<TicketResult> => {
    await withActor(tx, options.staff, input.note);
    const closes = input.to === "returned";
    const [moved] = await tx
      .update(repairTickets)
      .set({
        status: input.to,
        updatedAt: now,
        ...(closes ? { closedAt: now, paymentMethod: null, paidCents: null } : {}),
      })
      .where(and(eq(repairTickets.number, number), eq(repairTickets.status, input.from)))
      .returning();
    if (!moved) return movedMeanwhile(tx, number);
    if (input.to === "ready") {
      const message = readyForPickupMessage({
        label: ticketLabel(number),
        name: moved.customerName,
        device: deviceName(moved),
        statusUrl: statusUrl(number, options.links),
        hours: options.hours,
        balanceCents: await balanceDue(tx, number),
        payUrl: new URL(
          ticketPayPath(number, options.links.secret),
          options.links.publicUrl,
        ).toString(),
      });
      await queueMail({ to: moved.customerEmail, ...message }, { tx });
    }
    return {
      ok: true,
      message: `Ticket ${ticketLabel(number)} is now "${STATUS_LABELS[input.to]}".`,
    };
  });
}

/**
 * Sends an estimate: its lines and the tax at the configured rate, priced by the server. A new
 * version supersedes the pending one, so the customer can only decide on the latest. The
 * customer's e-mail with the way to decide is queued in the same transaction.
 */
export async function sendEstimate(
  db: Database,
  number: number,
  input: EstimateInput,
  options: { staff: Staff; links: TicketLinks; taxRate: number; now?: Date },
): Promise<TicketResult<{ version: number; totalCents: number }>> {
  if (!statusesBefore("estimate_sent").includes(input.from)) {
    return refuse(
      "invalid",
      `An estimate cannot be sent while the ticket is "${STATUS_LABELS[input.from]}".`,
    );
  }
  const { subtotalCents, taxCents, totalCents } = repairInvoice(input.lines, options.taxRate);
  if (totalCents > MAX_REPAIR_CENTS) {
    // Each field has its own limit; their product (999 × $100,000) is checked here, with the tax.
    return refuse(
      "invalid",
      `An estimate can total at most ${formatUsd(MAX_REPAIR_CENTS)} with tax; this one totals ${formatUsd(totalCents)}.`,
      "lines",
    );
  }
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [{ latest } = { latest: 0 }] = await tx
      .select({ latest: max(repairEstimates.version) })
      .from(repairEstimates)
      .where(eq(repairEstimates.ticketNumber, number));
    const version = (latest ?? 0) + 1;
    await withActor(tx, options.staff, `Estimate ${version} sent: ${formatUsd(totalCents)}`);
    const [ticket] = await tx
      .update(repairTickets)
      .set({ status: "estimate_sent", updatedAt: now })
      .where(and(eq(repairTickets.number, number), eq(repairTickets.status, input.from)))
      .returning();
    if (!ticket) return movedMeanwhile(tx, number);
    await tx
      .update(repairEstimates)
      .set({ status: "superseded" })
      .where(and(eq(repairEstimates.ticketNumber, number), eq(repairEstimates.status, "pending")));
    const [estimate] = await tx
      .insert(repairEstimates)
      .values({
        ticketNumber: number,
        version,
        subtotalCents,
        taxRate: String(options.taxRate),
        taxCents,
        totalCents,
        note: input.note,
        sentBy: options.staff.id,
        createdAt: now,
      })
      .returning({ id: repairEstimates.id });
    await tx.insert(repairEstimateLines).values(
      input.lines.map((line, position) => ({
        estimateId: estimate!.id,
        position,
        kind: line.kind,
        description: line.description,
        quantity: line.quantity,
        unitCents: line.unitCents,
      })),
    );
    const message = estimateReadyMessage({
      label: ticketLabel(number),
      name: ticket.customerName,
      device: deviceName(ticket),
      statusUrl: statusUrl(number, options.links),
      version,
      lines: input.lines,
      subtotalCents,
      taxCents,
      totalCents,
    });
    await queueMail({ to: ticket.customerEmail, ...message }, { tx });
    return {
      ok: true as const,
      version,
      totalCents,
      message: `Estimate ${version} (${formatUsd(totalCents)}) was sent to ${ticket.customerEmail}.`,
    };
  });
}

/**
 * Decisions per client address on the public status page: a customer decides once or twice; a
 * script trying links or hammering the form is slowed down before it reaches the tickets.
 */
export const ESTIMATE_DECISION_LIMIT: Limit = { windowSeconds: 10 * 60, max: 10 };

/**
 * The customer approves or declines the estimate they were shown (`estimateId`). Only the
 * current, undecided estimate can be decided, once; the decision is kept with its time. The
 * status page passes the client's address, whose decisions are counted against `limit`.
 */
export async function decideEstimate(
  db: Database,
  number: number,
  input: { estimateId: number; decision: "approved" | "declined" },
  options: { clientIp?: string; limit?: Limit; now?: Date } = {},
): Promise<TicketResult> {
  if (options.clientIp !== undefined) {
    const limit = await consumeLimit(
      db,
      `repair-decision:${options.clientIp}`,
      options.limit ?? ESTIMATE_DECISION_LIMIT,
    );
    if (!limit.allowed) {
      return refuse(
        "rate-limited",
        "Too many tries from your connection. Please wait a few minutes and try again.",
      );
    }
  }
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<TicketResult> => {
    const [decided] = await tx
      .update(repairEstimates)
      .set({ status: input.decision, decidedAt: now })
      .where(
        and(
          eq(repairEstimates.id, input.estimateId),
          eq(repairEstimates.ticketNumber, number),
          eq(repairEstimates.status, "pending"),
        ),
      )
      .returning({ version: repairEstimates.version, totalCents: repairEstimates.totalCents });
    if (!decided) {
      const [estimate] = await tx
        .select({ status: repairEstimates.status })
        .from(repairEstimates)
        .where(
          and(eq(repairEstimates.id, input.estimateId), eq(repairEstimates.ticketNumber, number)),
        );
      if (!estimate) return notFound(number);
      return refuse(
        "conflict",
        estimate.status === "superseded"
          ? "This estimate was replaced by a newer one: please decide on the estimate shown now."
          : `You already ${estimate.status} this estimate.`,
      );
    }
    const verb = input.decision === "approved" ? "approved" : "declined";
    await withActor(tx, null, `Estimate ${decided.version} ${verb} by the customer`);
    const [moved] = await tx
      .update(repairTickets)
      .set({ status: input.decision, updatedAt: now })
      .where(and(eq(repairTickets.number, number), eq(repairTickets.status, "estimate_sent")))
      .returning({ number: repairTickets.number });
    // A pending estimate only exists while the ticket waits for it: anything else is a bug.
    if (!moved) throw new Error(`Ticket ${number} has a pending estimate but is not waiting`);
    return {
      ok: true,
      message:
        input.decision === "approved"
          ? `Thank you: you approved the estimate of ${formatUsd(decided.totalCents)}. We will start the repair.`
          : "You declined the estimate. Your device is waiting for you, unrepaired and free of charge.",
    };
  });
}

/** The total of the estimate the customer approved; null when none was (none to collect on). */
export async function approvedTotal(tx: Database | Transaction, number: number) {
  const [approved] = await tx
    .select({ totalCents: repairEstimates.totalCents })
    .from(repairEstimates)
    .where(and(eq(repairEstimates.ticketNumber, number), eq(repairEstimates.status, "approved")));
  return approved?.totalCents ?? null;
}

/** The approved total less what the ticket's payments came to so far (0 with no estimate). */
async function balanceDue(tx: Transaction, number: number): Promise<number> {
  const payments = await tx
    .select({ kind: repairPayments.kind, amountCents: repairPayments.amountCents })
    .from(repairPayments)
    .where(eq(repairPayments.ticketNumber, number));
  return repairAccount((await approvedTotal(tx, number)) ?? 0, payments).balanceCents;
}

export type EstimateView = typeof repairEstimates.$inferSelect & {
  lines: (typeof repairEstimateLines.$inferSelect)[];
};

/**
 * A ticket with its history (oldest first), its intake photos and its estimates (newest first,
 * with lines).
 */
export async function getTicket(db: Database, number: number) {
  const [ticket] = await db.select().from(repairTickets).where(eq(repairTickets.number, number));
  if (!ticket) return null;
  const events = await db
    .select()
    .from(repairTicketEvents)
    .where(eq(repairTicketEvents.ticketNumber, number))
    .orderBy(asc(repairTicketEvents.id));
  const estimates = await db
    .select()
    .from(repairEstimates)
    .where(eq(repairEstimates.ticketNumber, number))
    .orderBy(desc(repairEstimates.version));
  const lines = estimates.length
    ? await db
        .select()
        .from(repairEstimateLines)
        .where(
          inArray(
            repairEstimateLines.estimateId,
            estimates.map((estimate) => estimate.id),
          ),
        )
        .orderBy(asc(repairEstimateLines.position))
    : [];
  return {
    ticket,
    events,
    photos: await photosOfTicket(db, number),
    estimates: estimates.map((estimate): EstimateView => ({
      ...estimate,
      lines: lines.filter((line) => line.estimateId === estimate.id),
    })),
  };
}

export type BoardRow = Pick<
  Ticket,
  | "number"
  | "customerName"
  | "customerPhone"
  | "deviceKind"
  | "deviceBrand"
  | "deviceModel"
  | "deviceSerial"
  | "promisedDate"
  | "status"
  | "updatedAt"
> & { overdue: boolean };

/**
 * The repair board: counts per status, and a page of the tickets of one status (or, with a
 * search, of any), oldest promise first. A search finds a ticket number ("R-1042", "1042"), or
 * text in the customer's name, phone digits or the serial; its matches are counted up to
 * COUNT_CAP, as the other back-office lists' are.
 */
export async function repairBoard(
  db: Database,
  input: {
    status: TicketStatus | "open";
    query: string;
    today: string;
    page?: number;
    pageSize?: number;
  },
) {
  const counts = Object.fromEntries(TICKET_STATUSES.map((status) => [status, 0])) as Record<
    TicketStatus,
    number
  >;
  for (const row of await db
    .select({ status: repairTickets.status, n: count() })
    .from(repairTickets)
    .groupBy(repairTickets.status)) {
    counts[row.status] = row.n;
  }
  const open = inArray(repairTickets.status, OPEN_STATUSES);
  const overdue = overdueAt(input.today);
  const query = input.query.trim();
  let where;
  if (query) {
    const number = parseTicketLabel(query);
    const text = query.toLowerCase();
    const digits = query.replace(/\D/g, "");
    const like = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matches = [sql`${repairSearchText(repairTickets)} like ${like(text)}`];
    if (digits.length >= 4 && digits !== text) {
      matches.push(sql`${repairSearchText(repairTickets)} like ${like(digits)}`);
    }
    where =
      number !== undefined
        ? sql`(${repairTickets.number} = ${number} or ${sql.join(matches, sql` or `)})`
        : sql`(${sql.join(matches, sql` or `)})`;
  } else {
    where = input.status === "open" ? open : eq(repairTickets.status, input.status);
  }
  const { total, capped } = query
    ? await countUpTo(
        db,
        db
          .select({ one: sql`1` })
          .from(repairTickets)
          .where(where)
          .limit(COUNT_CAP + 1)
          .as("matches"),
      )
    : {
        // The tab's count is already known from the counts per status.
        total: (input.status === "open" ? OPEN_STATUSES : [input.status]).reduce(
          (sum, status) => sum + counts[status],
          0,
        ),
        capped: false,
      };
  const { page, pageCount, offset, limit } = pageWindow(total, input.page ?? 1, input.pageSize);
  const rows = await db
    .select({
      number: repairTickets.number,
      customerName: repairTickets.customerName,
      customerPhone: repairTickets.customerPhone,
      deviceKind: repairTickets.deviceKind,
      deviceBrand: repairTickets.deviceBrand,
      deviceModel: repairTickets.deviceModel,
      deviceSerial: repairTickets.deviceSerial,
      promisedDate: repairTickets.promisedDate,
      status: repairTickets.status,
      updatedAt: repairTickets.updatedAt,
      overdue: sql<boolean>`coalesce(${overdue}, false)`,
    })
    .from(repairTickets)
    .where(where)
    .orderBy(asc(repairTickets.promisedDate), asc(repairTickets.number))
    .limit(limit)
    .offset(offset);
  const [{ n: overdueCount } = { n: 0 }] = await db
    .select({ n: count() })
    .from(repairTickets)
    .where(overdue);
  return { counts, overdueCount, rows: rows as BoardRow[], total, capped, page, pageCount };
}

/** A ticket whose work is still ahead on a day after the one promised. */
function overdueAt(today: string) {
  return and(
    inArray(repairTickets.status, [...WORK_AHEAD_STATUSES]),
    lt(repairTickets.promisedDate, today),
  )!;
}

/**
 * The dashboard's numbers for the repair bench: ready, waiting for approval, overdue, and
 * collected in the last OTHER_AMOUNT_DAYS days for an amount other than the approved total.
 */
export async function repairSummary(db: Database, today: string) {
  const approved = sql`(select ${repairEstimates.totalCents} from ${repairEstimates}
    where ${repairEstimates.ticketNumber} = ${repairTickets.number} and ${repairEstimates.status} = 'approved')`;
  const [row] = await db
    .select({
      ready: sql<number>`count(*) filter (where ${repairTickets.status} = 'ready')::int`,
      awaitingApproval: sql<number>`count(*) filter (where ${repairTickets.status} = 'estimate_sent')::int`,
      overdue: sql<number>`count(*) filter (where ${overdueAt(today)})::int`,
      collectedOtherAmount: sql<number>`count(*) filter (where ${repairTickets.status} = 'collected'
        and ${repairTickets.closedAt} >= now() - make_interval(days => ${OTHER_AMOUNT_DAYS})
        and ${repairTickets.paidCents} <> coalesce(${approved}, 0))::int`,
    })
    .from(repairTickets);
  return row ?? { ready: 0, awaitingApproval: 0, overdue: 0, collectedOtherAmount: 0 };
}

/** A signed-in customer's tickets: those linked to the account, newest first. */
export async function ticketsForCustomer(db: Database, userId: string) {
  return db
    .select({
      number: repairTickets.number,
      deviceKind: repairTickets.deviceKind,
      deviceBrand: repairTickets.deviceBrand,
      deviceModel: repairTickets.deviceModel,
      status: repairTickets.status,
      promisedDate: repairTickets.promisedDate,
      createdAt: repairTickets.createdAt,
    })
    .from(repairTickets)
    .where(eq(repairTickets.customerId, userId))
    .orderBy(desc(repairTickets.createdAt));
}

/**
 * A confirmed booking as the intake form's starting point, with the ticket already opened from
 * it (if any). Null when there is no such confirmed booking.
 */
export async function bookingForTicket(db: Database, serviceRequestId: number) {
  const [booking] = await db
    .select({
      id: serviceRequests.id,
      name: serviceRequests.name,
      email: serviceRequests.email,
      phone: serviceRequests.phone,
      serviceType: serviceRequests.serviceType,
      issue: serviceRequests.issue,
      confirmedAt: serviceRequests.confirmedAt,
      cancelledAt: serviceRequests.cancelledAt,
      ticket: repairTickets.number,
    })
    .from(serviceRequests)
    .leftJoin(repairTickets, eq(repairTickets.serviceRequestId, serviceRequests.id))
    .where(eq(serviceRequests.id, serviceRequestId));
  return booking?.confirmedAt ? booking : null;
}
