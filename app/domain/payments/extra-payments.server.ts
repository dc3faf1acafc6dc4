import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { extraPayments, paymentEvents } from "#app/db/schema.ts";
import type { ProviderLookup } from "./provider.server.ts";

export type ExtraPayment = {
  id: number;
  provider: string;
  sessionId: string;
  paymentReference: string | null;
  amountCents: number | null;
  reason: "other-session" | "already-paid";
  receivedAt: string;
  refundedAt: string | null;
};

/**
 * Keeps a payment that is not the order's (see `extraPayments`), with the provider's event, in
 * one transaction; false when this event or session was recorded before (a retry).
 */
export async function recordExtraPayment(
  db: Database,
  input: {
    eventId: string;
    orderId: number;
    provider: string;
    sessionId: string;
    paymentReference: string | null;
    amountCents: number | null;
    reason: ExtraPayment["reason"];
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [event] = await tx
      .insert(paymentEvents)
      .values({ provider: input.provider, eventId: input.eventId, orderId: input.orderId })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    if (!event) return false;
    const [row] = await tx
      .insert(extraPayments)
      .values({
        orderId: input.orderId,
        provider: input.provider,
        sessionId: input.sessionId,
        paymentReference: input.paymentReference,
        amountCents: input.amountCents,
        reason: input.reason,
      })
      .onConflictDoNothing()
      .returning({ id: extraPayments.id });
    if (row) {
      console.warn(
        `Refund due: order ${input.orderId} was paid through ${input.provider} session ${input.sessionId} (${input.reason}).`,
      );
    }
    return Boolean(row);
  });
}

/** The payments of an order that are not the order's, oldest first. */
export async function listExtraPayments(db: Database, orderId: number): Promise<ExtraPayment[]> {
  const rows = await db
    .select()
    .from(extraPayments)
    .where(eq(extraPayments.orderId, orderId))
    .orderBy(asc(extraPayments.id));
  return rows.map((row) => ({
    id: row.id,
    provider: row.provider,
    sessionId: row.sessionId,
    paymentReference: row.paymentReference,
    amountCents: row.amountCents,
    reason: row.reason,
    receivedAt: row.receivedAt.toISOString(),
    refundedAt: row.refundedAt?.toISOString() ?? null,
  }));
}

/**
 * Pays an extra payment back through its provider, once: the row stays locked while the
 * provider is asked (its idempotency key is the row's), so two staff refunding at once refund
 * once, and a refusal leaves it due with the provider's message.
 */
export async function refundExtraPayment(
  db: Database,
  input: {
    orderId: number;
    extraPaymentId: number;
    providerNamed: ProviderLookup;
  },
): Promise<{ ok: true } | { ok: false; message: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(extraPayments)
      .where(
        and(eq(extraPayments.id, input.extraPaymentId), eq(extraPayments.orderId, input.orderId)),
      )
      .for("update");
    if (!row) return { ok: false, message: "There is no such payment on this order." };
    if (row.refundedAt) return { ok: false, message: "This payment was refunded already." };
    const provider = input.providerNamed(row.provider);
    if (!provider) {
      return { ok: false, message: `Refund it in the ${row.provider} dashboard: not set up here.` };
    }
    try {
      await provider.refundPayment({
        orderId: row.orderId,
        paymentReference: row.paymentReference,
        paymentSessionId: row.sessionId,
        amountCents: row.amountCents ?? 0,
        idempotencyKey: `extra-payment-${row.id}`,
      });
    } catch (error) {
      console.error(`Could not refund extra payment ${row.id}`, error);
      return { ok: false, message: "The payment provider refused the refund. Try again later." };
    }
    await tx
      .update(extraPayments)
      .set({ refundedAt: new Date() })
      .where(and(eq(extraPayments.id, row.id), isNull(extraPayments.refundedAt)));
    return { ok: true };
  });
}
