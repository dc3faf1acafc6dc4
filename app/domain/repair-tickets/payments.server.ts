// A repair ticket's money (decision 023, point 8): its invoice from the approved estimate, a
// deposit at intake, the balance at collection (at the counter, or online through the pay link),
// and collection itself, allowed only when the balance is paid or with a reason for the
// difference. Every payment is one transaction with what it changes; cash goes into the open
// till, which stays open until the transaction commits.
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import {
  paymentEvents,
  repairCheckouts,
  repairEstimateLines,
  repairEstimates,
  repairPayments,
  repairTickets,
  tillSessions,
} from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import type { PaymentProvider } from "#app/domain/payments/provider.server.ts";
import { repairReceiptMessage } from "#app/emails/repair-ticket-emails.ts";
import { formatUsd } from "#app/lib/money.ts";
import { refuse } from "#app/lib/reply.server.ts";
import { formatShopLongDate } from "#app/lib/shop-time.ts";
import { cashChange, repairAccount, repairInvoice, type Account, type Invoice } from "./invoice.ts";
import {
  paidByLabel,
  paidDifference,
  REPAIR_PAYMENT_KIND_LABELS,
  REPAIR_PAYMENT_LABELS,
  STATUS_LABELS,
  ticketLabel,
  type PaymentMethod,
  type RepairPaymentKind,
  type RepairPaymentMethod,
} from "./status.ts";
import { ticketReceiptPath } from "./status-link.server.ts";
import {
  deviceName,
  movedMeanwhile,
  notFound,
  statusUrl,
  type TicketLinks,
  type TicketResult,
} from "./tickets.server.ts";

export type RepairPayment = typeof repairPayments.$inferSelect;

/** The approved estimate as an invoice, its lines, and what was paid toward it so far. */
export type TicketMoney = {
  invoice: (Invoice & { taxRate: number; version: number }) | null;
  lines: { kind: "labour" | "part"; description: string; quantity: number; unitCents: number }[];
  payments: RepairPayment[];
  account: Account;
};

export async function ticketMoney(
  db: Database | Transaction,
  number: number,
): Promise<TicketMoney> {
  const [approved] = await db
    .select()
    .from(repairEstimates)
    .where(and(eq(repairEstimates.ticketNumber, number), eq(repairEstimates.status, "approved")));
  const lines = approved
    ? await db
        .select({
          kind: repairEstimateLines.kind,
          description: repairEstimateLines.description,
          quantity: repairEstimateLines.quantity,
          unitCents: repairEstimateLines.unitCents,
        })
        .from(repairEstimateLines)
        .where(eq(repairEstimateLines.estimateId, approved.id))
        .orderBy(asc(repairEstimateLines.position))
    : [];
  const payments = await db
    .select()
    .from(repairPayments)
    .where(eq(repairPayments.ticketNumber, number))
    .orderBy(asc(repairPayments.id));
  const invoice = approved
    ? {
        ...repairInvoice(lines, Number(approved.taxRate)),
        // The customer approved the total kept with the estimate: that is what is owed.
        taxCents: approved.taxCents,
        totalCents: approved.totalCents,
        taxRate: Number(approved.taxRate),
        version: approved.version,
      }
    : null;
  return { invoice, lines, payments, account: repairAccount(invoice?.totalCents ?? 0, payments) };
}

/** A payment taken at the desk: cash (with what was handed over) or card (with its reference). */
export type DeskPayment = {
  method: "cash" | "card";
  amountCents: number;
  tenderedCents?: number;
  reference?: string;
};

const NO_TILL =
  "The till is closed: open it at the counter to take cash, or take the payment by card.";

/**
 * Records a payment taken at the desk in the transaction `tx`. Cash goes into the open till,
 * locked until `tx` ends so it cannot close without it; a card goes into it when one is open.
 */
async function recordDeskPayment(
  tx: Transaction,
  number: number,
  kind: RepairPaymentKind,
  payment: DeskPayment,
  staff: Staff,
  now: Date,
): Promise<{ ok: true; changeCents: number } | { ok: false; field: string; message: string }> {
  const [till] = await tx
    .select({ id: tillSessions.id })
    .from(tillSessions)
    .where(isNull(tillSessions.closedAt))
    .for("share");
  let tender: { tenderedCents: number | null; changeCents: number | null } = {
    tenderedCents: null,
    changeCents: null,
  };
  if (payment.method === "cash") {
    if (!till) return { ok: false, field: "paymentMethod", message: NO_TILL };
    const change = cashChange(payment.amountCents, payment.tenderedCents);
    if (!change.ok) return { ok: false, field: "tendered", message: change.message };
    tender = change;
  }
  await tx.insert(repairPayments).values({
    ticketNumber: number,
    kind,
    method: payment.method,
    amountCents: payment.amountCents,
    ...tender,
    providerReference: payment.method === "card" ? payment.reference || null : null,
    tillSessionId: till?.id ?? null,
    staffId: staff.id,
    staffName: staff.name,
    createdAt: now,
  });
  return { ok: true, changeCents: tender.changeCents ?? 0 };
}

/** Locks a ticket for a change of its money; the row, or null when there is none. */
async function lockTicket(tx: Transaction, number: number) {
  const [ticket] = await tx
    .select()
    .from(repairTickets)
    .where(eq(repairTickets.number, number))
    .for("update");
  return ticket ?? null;
}

const changeNote = (changeCents: number) =>
  changeCents > 0 ? ` Give ${formatUsd(changeCents)} in change.` : "";

/**
 * A deposit taken at the desk while the ticket is open, before it is ready for pickup (the
 * balance is taken at collection). Cash needs the till open.
 */
export async function takeDeposit(
  db: Database,
  number: number,
  input: DeskPayment,
  options: { staff: Staff; now?: Date },
): Promise<TicketResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<TicketResult> => {
    const ticket = await lockTicket(tx, number);
    if (!ticket) return notFound(number);
    if (["ready", "collected", "returned"].includes(ticket.status)) {
      return refuse(
        "conflict",
        `A deposit is taken before the repair is done; ticket ${ticketLabel(number)} is "${STATUS_LABELS[ticket.status]}".`,
      );
    }
    const taken = await recordDeskPayment(tx, number, "deposit", input, options.staff, now);
    // The deposit form names its method field `method`.
    if (!taken.ok) {
      return refuse(
        "invalid",
        taken.message,
        taken.field === "paymentMethod" ? "method" : taken.field,
      );
    }
    return {
      ok: true,
      message: `A deposit of ${formatUsd(input.amountCents)} by ${input.method} is recorded on ticket ${ticketLabel(number)}.${changeNote(taken.changeCents)}`,
    };
  });
}

export type CollectInput = {
  paymentMethod: PaymentMethod;
  /** Taken now, at collection (the deposit and online payments were taken before). */
  paid: number;
  reason: string;
  tendered?: number;
  reference?: string;
};

/**
 * Ready for pickup → collected, with what is taken now at the counter; the ticket closes. It
 * goes through only when everything paid (deposit, online, now) comes to the approved total, or
 * with a reason for the difference, kept with the ticket and in its history. The customer's
 * receipt is queued in the same transaction.
 */
export async function collectTicket(
  db: Database,
  number: number,
  input: CollectInput,
  options: { staff: Staff; links: TicketLinks; timeZone: string; now?: Date },
): Promise<TicketResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<TicketResult> => {
    const ticket = await lockTicket(tx, number);
    if (!ticket) return notFound(number);
    if (ticket.status !== "ready") return movedMeanwhile(tx, number);
    const before = await ticketMoney(tx, number);
    const dueCents = before.invoice?.totalCents ?? null;
    const paidBefore = before.account.paidCents;
    const paidCents = paidBefore + input.paid;
    const difference = paidDifference(paidCents, dueCents ?? 0);
    const reason = input.reason.trim();
    if (difference && !reason) {
      return refuse(
        "invalid",
        paidBefore === 0
          ? `The approved total is ${formatUsd(dueCents ?? 0)}: say why ${formatUsd(input.paid)} was taken.`
          : `The balance due is ${formatUsd(before.account.balanceCents)} (${formatUsd(paidBefore)} paid before): say why ${formatUsd(input.paid)} was taken.`,
        "reason",
      );
    }
    let changeCents = 0;
    if (input.paymentMethod !== "no_charge" && input.paid > 0) {
      const taken = await recordDeskPayment(
        tx,
        number,
        "balance",
        {
          method: input.paymentMethod,
          amountCents: input.paid,
          tenderedCents: input.tendered,
          reference: input.reference,
        },
        options.staff,
        now,
      );
      if (!taken.ok) return refuse("invalid", taken.message, taken.field);
      changeCents = taken.changeCents;
    }
    const takenNow =
      input.paymentMethod === "no_charge"
        ? "no charge"
        : `${formatUsd(input.paid)} by ${input.paymentMethod}`;
    const earlier = paidBefore ? `, ${formatUsd(paidBefore)} paid before` : "";
    await withActor(
      tx,
      options.staff,
      `Collected: ${takenNow}${earlier}${difference ? ` (${difference}: ${reason})` : ""}`,
    );
    const [collected] = await tx
      .update(repairTickets)
      .set({
        status: "collected",
        paymentMethod: input.paymentMethod,
        paidCents,
        paidDifferenceReason: difference ? reason : null,
        closedAt: now,
        updatedAt: now,
      })
      .where(and(eq(repairTickets.number, number), eq(repairTickets.status, "ready")))
      .returning();
    if (!collected) return movedMeanwhile(tx, number);
    const methods = before.payments.map((payment) => payment.method);
    if (input.paymentMethod !== "no_charge" && input.paid > 0) methods.push(input.paymentMethod);
    const receipt = repairReceiptMessage({
      label: ticketLabel(number),
      name: collected.customerName,
      device: deviceName(collected),
      statusUrl: statusUrl(number, options.links),
      receiptUrl: new URL(
        ticketReceiptPath(number, options.links.secret),
        options.links.publicUrl,
      ).toString(),
      collectedOn: formatShopLongDate(now, options.timeZone),
      paidCents,
      paidBy: paidByLabel(methods),
      approvedCents: dueCents,
    });
    await queueMail({ to: collected.customerEmail, ...receipt }, { tx });
    return {
      ok: true,
      message: `Ticket ${ticketLabel(number)} is collected and closed.${changeNote(changeCents)}`,
    };
  });
}

/** How long a pay link's checkout session takes payment (the link itself opens a new one). */
export const PAY_SESSION_MINUTES = 60;

/**
 * Opens (or reopens) a checkout session at the web checkout's provider for a ticket's balance,
 * from its pay link: one that is still open for the same amount is reused. Refused when there
 * is nothing to pay, or the ticket is not ready for pickup.
 */
export async function startRepairCheckout(
  db: Database,
  number: number,
  options: {
    provider: PaymentProvider;
    /** The customer's status page, where the provider returns to. */
    statusUrl: string;
    now?: Date;
  },
): Promise<TicketResult<{ url: string }>> {
  const now = options.now ?? new Date();
  const [ticket] = await db.select().from(repairTickets).where(eq(repairTickets.number, number));
  if (!ticket) return notFound(number);
  if (ticket.status !== "ready") {
    return refuse("conflict", "This repair can be paid online once it is ready for pickup.");
  }
  const { account } = await ticketMoney(db, number);
  if (account.balanceCents <= 0) return refuse("conflict", "There is nothing left to pay.");
  const [open] = await db
    .select({ url: repairCheckouts.url })
    .from(repairCheckouts)
    .where(
      and(
        eq(repairCheckouts.ticketNumber, number),
        eq(repairCheckouts.provider, options.provider.name),
        eq(repairCheckouts.amountCents, account.balanceCents),
        gt(repairCheckouts.expiresAt, new Date(now.getTime() + 5 * 60_000)),
      ),
    );
  if (open) return { ok: true, message: "", url: open.url };
  const label = ticketLabel(number);
  const session = await options.provider.createCheckoutSession({
    orderId: null,
    repairTicket: number,
    customerEmail: ticket.customerEmail,
    lines: [
      {
        title: `Repair ${label}: balance (${deviceName(ticket)})`,
        quantity: 1,
        unitPriceCents: account.balanceCents,
      },
    ],
    shippingCents: 0,
    shippingLabel: "",
    // The balance includes the estimate's tax already.
    taxCents: 0,
    totalCents: account.balanceCents,
    successUrl: `${options.statusUrl}?paid=1`,
    cancelUrl: options.statusUrl,
    expiresAt: new Date(now.getTime() + PAY_SESSION_MINUTES * 60_000),
    idempotencyKey: `repair-${number}-${crypto.randomUUID()}`,
  });
  await db.insert(repairCheckouts).values({
    sessionId: session.id,
    ticketNumber: number,
    provider: options.provider.name,
    amountCents: account.balanceCents,
    url: session.url,
    expiresAt: session.expiresAt,
    createdAt: now,
  });
  return { ok: true, message: "", url: session.url };
}

/** A repair's checkout session by its id, for the provider's confirmation and the test page. */
export async function repairCheckout(db: Database | Transaction, sessionId: string) {
  const [checkout] = await db
    .select()
    .from(repairCheckouts)
    .where(eq(repairCheckouts.sessionId, sessionId));
  return checkout ?? null;
}

/** Whether a pay-link session has paid (its payment is recorded on the ticket). */
export async function repairCheckoutPaid(db: Database, sessionId: string): Promise<boolean> {
  const [payment] = await db
    .select({ id: repairPayments.id })
    .from(repairPayments)
    .where(eq(repairPayments.checkoutSessionId, sessionId));
  return Boolean(payment);
}

export type OnlineRepairOutcome =
  | { status: "paid"; ticketNumber: number }
  | { status: "duplicate-event"; ticketNumber: number }
  | { status: "amount-mismatch"; ticketNumber: number }
  | { status: "unknown-checkout" };

/**
 * The provider confirms a pay link's payment (Stripe's webhook, the test provider's page): one
 * transaction records the provider's event and the ticket's payment, once per event and once
 * per session, so a replayed confirmation never pays twice. An amount other than the session's
 * is recorded as an event only, for a person to look at.
 */
export async function recordOnlineRepairPayment(
  db: Database,
  input: {
    provider: string;
    eventId: string;
    sessionId: string;
    paymentReference: string | null;
    amountCents: number | null;
  },
): Promise<OnlineRepairOutcome> {
  return db.transaction(async (tx): Promise<OnlineRepairOutcome> => {
    const checkout = await repairCheckout(tx, input.sessionId);
    if (!checkout) return { status: "unknown-checkout" };
    const ticketNumber = checkout.ticketNumber;
    const [event] = await tx
      .insert(paymentEvents)
      .values({ provider: input.provider, eventId: input.eventId, orderId: null })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    if (!event) return { status: "duplicate-event", ticketNumber };
    if (input.amountCents !== checkout.amountCents) {
      return { status: "amount-mismatch", ticketNumber };
    }
    await lockTicket(tx, ticketNumber);
    const [payment] = await tx
      .insert(repairPayments)
      .values({
        ticketNumber,
        kind: "balance",
        method: "online" satisfies RepairPaymentMethod,
        amountCents: checkout.amountCents,
        provider: input.provider,
        providerReference: input.paymentReference,
        checkoutSessionId: input.sessionId,
      })
      .onConflictDoNothing()
      .returning({ id: repairPayments.id });
    if (!payment) return { status: "duplicate-event", ticketNumber };
    return { status: "paid", ticketNumber };
  });
}

/** A ticket's invoice and payments as the ticket's pages show them (staff and customer). */
export function invoiceShown(money: TicketMoney, when: (date: Date) => string) {
  if (!money.invoice && money.payments.length === 0) return null;
  return {
    labourCents: money.invoice?.labourCents ?? 0,
    partsCents: money.invoice?.partsCents ?? 0,
    taxCents: money.invoice?.taxCents ?? 0,
    taxRate: String(money.invoice?.taxRate ?? 0),
    totalCents: money.account.totalCents,
    approved: money.invoice !== null,
    payments: money.payments.map((payment) => ({
      id: payment.id,
      what: `${REPAIR_PAYMENT_KIND_LABELS[payment.kind]} (${REPAIR_PAYMENT_LABELS[payment.method].toLowerCase()})`,
      when: when(payment.createdAt),
      amountCents: payment.kind === "refund" ? -payment.amountCents : payment.amountCents,
    })),
    paidCents: money.account.paidCents,
    balanceCents: money.account.balanceCents,
  };
}
