// A repair ticket's money (decision 023, point 8): its invoice from the approved estimate, a
// deposit at intake, the balance at collection (at the counter, or online through the pay link),
// collection itself, allowed only when the balance is paid or with a reason for the difference,
// and the refund of what was taken when the device goes back unrepaired. Every payment is one
// transaction with what it changes; cash goes into (or out of) the open till, which stays open
// until the transaction commits. Each desk form carries its own key: sent twice, it records its
// money once and answers the second time as it did the first.
import { and, asc, eq, gt } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import {
  paymentEvents,
  repairCheckouts,
  repairEstimateLines,
  repairEstimates,
  repairPayments,
  repairTickets,
} from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import type { PaymentProvider } from "#app/domain/payments/provider.server.ts";
import { repairReceiptMessage } from "#app/emails/repair-ticket-emails.ts";
import { formatUsd } from "#app/lib/money.ts";
import { refuse } from "#app/lib/reply.server.ts";
import { formatShopLongDate } from "#app/lib/shop-time.ts";
import { refundWords, splitRefund, type RefundPart } from "./deposit-refund.ts";
import { repairAccount, repairInvoice, type Account, type Invoice } from "./invoice.ts";
import {
  paidByLabel,
  paidDifference,
  REPAIR_PAYMENT_KIND_LABELS,
  REPAIR_PAYMENT_LABELS,
  STATUS_LABELS,
  ticketLabel,
  UNREPAIRED_STATUSES,
  type PaymentMethod,
  type RepairPaymentKind,
  type RepairPaymentMethod,
} from "./status.ts";
import {
  changeNote,
  checkDeskPayment,
  depositTaken,
  insertDeskPayment,
  openTillHeld,
  recordedByForm,
  type DeskPayment,
  type RepairPayment,
} from "./desk-payments.server.ts";
import { ticketReceiptPath } from "./status-link.server.ts";
import {
  deviceName,
  movedMeanwhile,
  notFound,
  statusUrl,
  type TicketFailure,
  type TicketLinks,
  type TicketResult,
} from "./tickets.server.ts";

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

/** Checks and records a payment taken at the desk in the transaction `tx`. */
async function recordDeskPayment(
  tx: Transaction,
  number: number,
  kind: Exclude<RepairPaymentKind, "refund">,
  payment: DeskPayment,
  options: { staff: Staff; formKey: string; now: Date },
): Promise<{ ok: true; changeCents: number } | { ok: false; field: string; message: string }> {
  const checked = await checkDeskPayment(tx, payment);
  if (!checked.ok) return checked;
  await insertDeskPayment(tx, number, kind, checked.payment, options);
  return { ok: true, changeCents: checked.payment.changeCents ?? 0 };
}

/**
 * The answer to a form sent again: the first answer, worked out from what it recorded; refused
 * when the key was used by another ticket's or another kind of form (a hand-made request).
 */
function answerAgain(
  recorded: readonly RepairPayment[],
  number: number,
  kind: RepairPaymentKind,
): TicketResult {
  const first = recorded[0]!;
  if (first.ticketNumber !== number || first.kind !== kind) {
    return refuse("conflict", "This form was used already: open the ticket again.");
  }
  if (kind === "deposit") return { ok: true, message: depositTaken(number, first) };
  if (kind === "balance")
    return { ok: true, message: collectedMessage(number, first.changeCents ?? 0) };
  return { ok: true, message: refundedMessage(number, recorded) };
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

const collectedMessage = (number: number, changeCents: number) =>
  `Ticket ${ticketLabel(number)} is collected and closed.${changeNote(changeCents)}`;

const refundedMessage = (
  number: number,
  parts: readonly { method: string; amountCents: number }[],
) =>
  `Refunded ${formatUsd(parts.reduce((sum, part) => sum + part.amountCents, 0))} on ticket ${ticketLabel(number)}: ${refundWords(parts)}.`;

/** The deposit form's method field is `method`; the collect form's, `paymentMethod`. */
const depositField = (field: string) => (field === "paymentMethod" ? "method" : field);

/**
 * A deposit taken at the desk while the ticket is open, before it is ready for pickup (the
 * balance is taken at collection). Cash needs the till open. `formKey` is the form's own key.
 */
export async function takeDeposit(
  db: Database,
  number: number,
  input: DeskPayment & { formKey: string },
  options: { staff: Staff; now?: Date },
): Promise<TicketResult> {
  const now = options.now ?? new Date();
  const { formKey, ...payment } = input;
  return db.transaction(async (tx): Promise<TicketResult> => {
    const recorded = await recordedByForm(tx, formKey);
    if (recorded.length > 0) return answerAgain(recorded, number, "deposit");
    const ticket = await lockTicket(tx, number);
    if (!ticket) return notFound(number);
    if (["ready", "collected", "returned"].includes(ticket.status)) {
      return refuse(
        "conflict",
        `A deposit is taken before the repair is done; ticket ${ticketLabel(number)} is "${STATUS_LABELS[ticket.status]}".`,
      );
    }
    const checked = await checkDeskPayment(tx, payment);
    if (!checked.ok) return refuse("invalid", checked.message, depositField(checked.field));
    const row = await insertDeskPayment(tx, number, "deposit", checked.payment, {
      staff: options.staff,
      formKey,
      now,
    });
    return { ok: true, message: depositTaken(number, row) };
  });
}

export type CollectInput = {
  /** The collect form's own key. */
  formKey: string;
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
    const recorded = await recordedByForm(tx, input.formKey);
    if (recorded.length > 0) return answerAgain(recorded, number, "balance");
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
        { staff: options.staff, formKey: input.formKey, now },
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
    return { ok: true, message: collectedMessage(number, changeCents) };
  });
}

const NO_TILL_FOR_REFUND =
  "The till is closed: open it at the counter to give the cash back from it.";

/**
 * Gives back what a ticket took (a deposit) once the device goes back unrepaired: declined or
 * returned unrepaired. The server splits the amount over the payments the way they were paid
 * (`splitRefund`: to the card first, then cash) and never past what each took less what it had
 * back. Cash comes out of the open till; a card is refunded through the card provider on the
 * payment's reference, under a key that names the payment and what it had back before, so a
 * retry after a failure (from this form or a new one) never refunds it twice. The refund's rows
 * and the ticket's history are one transaction.
 */
export async function refundDeposit(
  db: Database,
  number: number,
  input: { formKey: string; amountCents: number },
  options: { staff: Staff; cardProvider: PaymentProvider | null; now?: Date },
): Promise<TicketResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx): Promise<TicketResult> => {
    const recorded = await recordedByForm(tx, input.formKey);
    if (recorded.length > 0) return answerAgain(recorded, number, "refund");
    const ticket = await lockTicket(tx, number);
    if (!ticket) return notFound(number);
    if (!UNREPAIRED_STATUSES.includes(ticket.status)) {
      return refuse(
        "conflict",
        `A deposit is refunded when the device goes back unrepaired; ticket ${ticketLabel(number)} is "${STATUS_LABELS[ticket.status]}".`,
      );
    }
    const payments = await tx
      .select()
      .from(repairPayments)
      .where(eq(repairPayments.ticketNumber, number))
      .orderBy(asc(repairPayments.id));
    const split = splitRefund(payments, input.amountCents);
    if (!split.ok) return refuse("invalid", split.message, "amount");
    const till = await openTillHeld(tx);
    if (till === null && split.parts.some((part) => part.method === "cash")) {
      return refuse("invalid", NO_TILL_FOR_REFUND, "amount");
    }
    const rows: (typeof repairPayments.$inferInsert)[] = [];
    for (const part of split.parts) {
      const row = {
        ticketNumber: number,
        kind: "refund" as const,
        method: part.method,
        amountCents: part.amountCents,
        tillSessionId: till,
        staffId: options.staff.id,
        staffName: options.staff.name,
        formKey: input.formKey,
        refundedPaymentId: part.paymentId,
        createdAt: now,
      };
      if (part.method === "cash") {
        rows.push({ ...row, tenderedCents: part.amountCents, changeCents: 0 });
        continue;
      }
      const card = await refundToCard(number, part, payments, options.cardProvider);
      if (!card.ok) return card;
      rows.push({ ...row, provider: card.provider, providerReference: card.refundId });
    }
    await tx.insert(repairPayments).values(rows);
    // The history keeps the refund: a change that keeps the status but carries a note.
    await withActor(
      tx,
      options.staff,
      `Refunded ${formatUsd(input.amountCents)}: ${refundWords(split.parts)}`,
    );
    await tx
      .update(repairTickets)
      .set({ status: ticket.status, updatedAt: now })
      .where(eq(repairTickets.number, number));
    return { ok: true, message: refundedMessage(number, split.parts) };
  });
}

/** Gives one card payment's part of a refund back through the card provider. */
async function refundToCard(
  number: number,
  part: RefundPart,
  payments: readonly RepairPayment[],
  provider: PaymentProvider | null,
): Promise<{ ok: true; provider: string; refundId: string } | TicketFailure> {
  const payment = payments.find((row) => row.id === part.paymentId)!;
  const taken = `The card payment of ${formatUsd(payment.amountCents)}`;
  if (!provider) {
    return refuse("refund-failed", `${taken} cannot be refunded here: no card provider is set up.`);
  }
  if (!payment.providerReference) {
    return refuse(
      "refund-failed",
      `${taken} was recorded without the card's reference, so the card provider cannot find it: refund it from the provider's dashboard.`,
    );
  }
  try {
    const refund = await provider.refundPayment({
      orderId: null,
      repairTicket: number,
      paymentReference: payment.providerReference,
      paymentSessionId: null,
      amountCents: part.amountCents,
      // What the payment had back before this part: the same refund asked again has the same key.
      idempotencyKey: `repair-refund-${payment.id}-${payment.amountCents - part.leftCents}`,
    });
    return { ok: true, provider: provider.name, refundId: refund.id };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return refuse(
      "refund-failed",
      `The refund of ${formatUsd(part.amountCents)} to the card did not go through (${why}). Nothing was recorded; try again.`,
    );
  }
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
