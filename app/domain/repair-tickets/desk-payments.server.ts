// Payments taken at the repair desk (decision 023, point 8), the steps the ticket's forms and
// intake share: a payment checked before anything is written (cash needs the open till, held
// until the transaction ends), written with the key of the form that took it, and the form's
// earlier payments found when it is sent again.
import { asc, eq, isNull, sql } from "drizzle-orm";
import type { Transaction } from "#app/db/client.server.ts";
import { repairPayments, tillSessions } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { formatUsd } from "#app/lib/money.ts";
import { cashChange } from "./invoice.ts";
import { ticketLabel, type RepairPaymentKind, type RepairPaymentMethod } from "./status.ts";

export type RepairPayment = typeof repairPayments.$inferSelect;

/** A payment taken at the desk: cash (with what was handed over) or card (with its reference). */
export type DeskPayment = {
  method: "cash" | "card";
  amountCents: number;
  tenderedCents?: number;
  reference?: string;
};

const NO_TILL =
  "The till is closed: open it at the counter to take cash, or take the payment by card.";

/** A desk payment checked and ready to be written: its till and tender. */
export type CheckedPayment = Omit<DeskPayment, "tenderedCents"> & {
  tillSessionId: number | null;
  tenderedCents: number | null;
  changeCents: number | null;
};

/**
 * Checks a payment taken at the desk before anything is written, in the transaction `tx`: cash
 * needs the open till, whose row is held until `tx` ends so it cannot close without the
 * payment, and at least the amount handed over; a card goes into the till when one is open.
 */
export async function checkDeskPayment(
  tx: Transaction,
  payment: DeskPayment,
): Promise<{ ok: true; payment: CheckedPayment } | { ok: false; field: string; message: string }> {
  const till = await openTillHeld(tx);
  if (payment.method === "card") {
    return {
      ok: true,
      payment: { ...payment, tillSessionId: till, tenderedCents: null, changeCents: null },
    };
  }
  if (till === null) return { ok: false, field: "paymentMethod", message: NO_TILL };
  const change = cashChange(payment.amountCents, payment.tenderedCents);
  if (!change.ok) return { ok: false, field: "tendered", message: change.message };
  return {
    ok: true,
    payment: {
      ...payment,
      tillSessionId: till,
      tenderedCents: change.tenderedCents,
      changeCents: change.changeCents,
    },
  };
}

/** The open till's id, its row held (`for share`) until the transaction ends; null if closed. */
export async function openTillHeld(tx: Transaction): Promise<number | null> {
  const [till] = await tx
    .select({ id: tillSessions.id })
    .from(tillSessions)
    .where(isNull(tillSessions.closedAt))
    .for("share");
  return till?.id ?? null;
}

/** Writes a checked desk payment of a ticket, with the key of the form that took it. */
export async function insertDeskPayment(
  tx: Transaction,
  number: number,
  kind: Exclude<RepairPaymentKind, "refund">,
  payment: CheckedPayment,
  options: { staff: Staff; formKey: string; now: Date },
): Promise<RepairPayment> {
  const [row] = await tx
    .insert(repairPayments)
    .values({
      ticketNumber: number,
      kind,
      method: payment.method,
      amountCents: payment.amountCents,
      tenderedCents: payment.tenderedCents,
      changeCents: payment.changeCents,
      providerReference: payment.method === "card" ? payment.reference || null : null,
      tillSessionId: payment.tillSessionId,
      staffId: options.staff.id,
      staffName: options.staff.name,
      formKey: options.formKey,
      createdAt: options.now,
    })
    .returning();
  return row!;
}

/**
 * The payments a desk form recorded already, when it is sent again (a double press, a replayed
 * request). Its key is held until the transaction ends, so the same form sent twice at once
 * waits for the first to finish and then finds what it recorded.
 */
export async function recordedByForm(tx: Transaction, formKey: string): Promise<RepairPayment[]> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`repair-form:${formKey}`}, 0))`,
  );
  return tx
    .select()
    .from(repairPayments)
    .where(eq(repairPayments.formKey, formKey))
    .orderBy(asc(repairPayments.id));
}

export const changeNote = (changeCents: number) =>
  changeCents > 0 ? ` Give ${formatUsd(changeCents)} in change.` : "";

/** What the desk is told when a deposit is recorded. */
export function depositTaken(
  number: number,
  deposit: { amountCents: number; method: RepairPaymentMethod; changeCents: number | null },
): string {
  return `A deposit of ${formatUsd(deposit.amountCents)} by ${deposit.method} is recorded on ticket ${ticketLabel(number)}.${changeNote(deposit.changeCents ?? 0)}`;
}
