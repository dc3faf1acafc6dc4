import { and, eq } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { counterPayments, counterSales } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import type { CardReader } from "#app/domain/payments/card-reader.server.ts";
import { refuse, type Result } from "#app/lib/reply.server.ts";
import { settle } from "./sale-money.ts";
import {
  getSale,
  giveBackSaleStock,
  paymentRows,
  refusable,
  SaleRefused,
  takeForPayment,
  type CounterConfig,
} from "./sales.server.ts";
import { saleNumber } from "./status.ts";

// Card at the counter (decision 023, point 6): the card's part of a sale goes to the card reader,
// and the sale is paid only when the reader's provider says the card paid. Meanwhile the sale is
// `awaiting_card` with its stock taken, so the web cannot sell a copy the customer is paying for;
// a card that does not pay gives the stock back and leaves the sale open for another tender.

export type ChargeCardInput = {
  saleId: number;
  /** The card's part; null: whatever the cash handed over does not cover. */
  cardCents: number | null;
  /** Cash handed over beside the card (a split payment), or 0. */
  cashTenderedCents: number;
  idCheckBirthDate: string | null;
};

const READER_UNREACHABLE =
  "The card reader could not be reached: try again, or take the payment in cash.";

/**
 * Hands the card's part of the open sale to the reader. The stock is taken and the sale waits
 * for the card in one transaction; the reader is called after it commits (a payment provider is
 * never called inside a transaction). If the reader cannot be reached, the stock goes back.
 */
export async function chargeCard(
  db: Database,
  reader: CardReader,
  input: ChargeCardInput,
  config: CounterConfig,
  staff: Staff,
  now = new Date(),
): Promise<Result<{ saleId: number; attempt: number }>> {
  const waiting = await refusable(db, async (tx) => {
    await withActor(tx, staff);
    const { sale, birthDate, settlement } = await takeForPayment(
      tx,
      input,
      (total) => ({
        cardCents: input.cardCents ?? Math.max(total - input.cashTenderedCents, 0),
        cashTenderedCents: input.cashTenderedCents,
      }),
      config,
      now,
    );
    if (settlement.cardCents === 0) {
      throw new SaleRefused(
        refuse("invalid", "The cash covers the total: pay in cash.", "cardCents"),
      );
    }
    const [updated] = await tx
      .update(counterSales)
      .set({
        status: "awaiting_card",
        ...sale.totals,
        taxRate: config.taxRate,
        idCheckBirthDate: birthDate,
        cardCents: settlement.cardCents,
        cashTenderedCents: settlement.cashTenderedCents,
        cardAttempt: sale.cardAttempt + 1,
        cardReference: null,
        cardMessage: null,
      })
      .where(eq(counterSales.id, sale.id))
      .returning({ attempt: counterSales.cardAttempt });
    return {
      ok: true as const,
      message: "",
      attempt: updated!.attempt,
      cardCents: settlement.cardCents,
    };
  });
  if (!waiting.ok) return waiting;
  const { attempt, cardCents } = waiting;
  const number = saleNumber(input.saleId);
  let reference: string;
  try {
    ({ reference } = await reader.charge({
      saleId: input.saleId,
      saleNumber: number,
      attempt,
      amountCents: cardCents,
      idempotencyKey: `counter-sale-${input.saleId}-card-${attempt}`,
    }));
  } catch (error) {
    console.error(`Counter sale ${number}: the card reader refused the charge.`, error);
    await giveBack(db, input.saleId, attempt, READER_UNREACHABLE);
    return refuse("unavailable", READER_UNREACHABLE);
  }
  await db
    .update(counterSales)
    .set({ cardReference: reference })
    .where(
      and(
        eq(counterSales.id, input.saleId),
        eq(counterSales.status, "awaiting_card"),
        eq(counterSales.cardAttempt, attempt),
      ),
    );
  return {
    ok: true,
    message: `Waiting for the card: ${number}.`,
    saleId: input.saleId,
    attempt,
  };
}

/**
 * The sale waiting for this attempt, locked; undefined when it no longer waits for it (paid,
 * given back, or waiting for a later attempt).
 */
async function waitingSale(tx: Transaction, saleId: number, attempt: number) {
  const [row] = await tx
    .select({
      id: counterSales.id,
      tillSessionId: counterSales.tillSessionId,
      totalCents: counterSales.totalCents,
      cardCents: counterSales.cardCents,
      cashTenderedCents: counterSales.cashTenderedCents,
    })
    .from(counterSales)
    .where(
      and(
        eq(counterSales.id, saleId),
        eq(counterSales.status, "awaiting_card"),
        eq(counterSales.cardAttempt, attempt),
      ),
    )
    .for("update");
  return row;
}

/** Gives back the stock of a sale (locked, waiting for its card) and opens it again. */
async function reopen(tx: Transaction, saleId: number, message: string): Promise<void> {
  const { lines } = (await getSale(tx, saleId, 0))!;
  await giveBackSaleStock(tx, lines, {
    reason: "counter_unpaid",
    reference: `sale ${saleNumber(saleId)}`,
  });
  await tx
    .update(counterSales)
    .set({
      status: "open",
      subtotalCents: 0,
      discountCents: 0,
      taxCents: 0,
      totalCents: 0,
      cardCents: null,
      cashTenderedCents: null,
      cardReference: null,
      cardMessage: message,
    })
    .where(eq(counterSales.id, saleId));
}

/** Opens again the sale waiting for this attempt, its stock given back; false if it was not. */
async function giveBack(
  db: Database,
  saleId: number,
  attempt: number,
  message: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await waitingSale(tx, saleId, attempt))) return false;
    await reopen(tx, saleId, message);
    return true;
  });
}

/** What the provider said about a card handed to the reader. */
export type CardOutcome = {
  saleId: number;
  attempt: number;
  /** The provider's payment (Stripe: the PaymentIntent). */
  reference: string;
} & ({ paid: true; amountCents: number } | { paid: false; message: string });

export type CardOutcomeResult =
  /** The sale is paid: its tenders are written. */
  | "paid"
  /** The card did not pay: the stock went back and the sale is open again. */
  | "declined"
  /** The sale no longer waits for this attempt (answered before, or cancelled): no change. */
  | "unchanged"
  /**
   * The card paid for a sale that no longer waits for it, or another amount than asked: the
   * money must go back to the card (see the log).
   */
  | "needs-refund";

/**
 * Applies the provider's outcome for one hand-over, once: a paid card writes the sale's tenders
 * and pays it, a declined one gives the stock back. Safe to run again, in any order, with
 * outcomes of older attempts (they change nothing).
 */
export async function cardOutcome(
  db: Database,
  outcome: CardOutcome,
  now = new Date(),
): Promise<CardOutcomeResult> {
  if (!outcome.paid) {
    const declined = await giveBack(db, outcome.saleId, outcome.attempt, outcome.message);
    return declined ? "declined" : "unchanged";
  }
  return db.transaction(async (tx) => {
    const sale = await waitingSale(tx, outcome.saleId, outcome.attempt);
    if (!sale) {
      const [paid] = await tx
        .select({ id: counterPayments.id })
        .from(counterPayments)
        .where(
          and(
            eq(counterPayments.saleId, outcome.saleId),
            eq(counterPayments.providerReference, outcome.reference),
          ),
        );
      return paid ? "unchanged" : "needs-refund";
    }
    const settled = settle(sale.totalCents, {
      cardCents: sale.cardCents ?? 0,
      cashTenderedCents: sale.cashTenderedCents ?? 0,
    });
    if (!settled.ok || outcome.amountCents !== sale.cardCents) {
      // Never seen from our own reader; the card's money goes back and the sale starts over.
      await reopen(tx, sale.id, "The card paid another amount than asked: it is being refunded.");
      return "needs-refund";
    }
    await tx
      .update(counterSales)
      .set({ status: "paid", paidAt: now, cardReference: outcome.reference })
      .where(eq(counterSales.id, sale.id));
    await tx
      .insert(counterPayments)
      .values(paymentRows(sale, settled.settlement, outcome.reference));
    return "paid";
  });
}

/**
 * The clerk stops the card payment: the reader stops asking, and the stock goes back. When the
 * card paid before the cancel reached the reader, the sale keeps waiting for that outcome.
 */
export async function cancelCard(
  db: Database,
  reader: CardReader,
  saleId: number,
): Promise<Result> {
  const [sale] = await db
    .select({ attempt: counterSales.cardAttempt, reference: counterSales.cardReference })
    .from(counterSales)
    .where(and(eq(counterSales.id, saleId), eq(counterSales.status, "awaiting_card")));
  if (!sale) return refuse("conflict", "This sale is not waiting for a card.");
  if (sale.reference && (await reader.cancel(sale.reference)) === "already-paid") {
    return refuse("conflict", "The card has paid already: its confirmation is on its way.");
  }
  await giveBack(db, saleId, sale.attempt, "Card payment cancelled.");
  return { ok: true, message: "Card payment cancelled." };
}

/** The sale the test reader is asked to charge: the one waiting for the test reader's card. */
export async function testReaderCharge(db: Database) {
  const [sale] = await db
    .select({
      id: counterSales.id,
      attempt: counterSales.cardAttempt,
      reference: counterSales.cardReference,
      cardCents: counterSales.cardCents,
    })
    .from(counterSales)
    .where(eq(counterSales.status, "awaiting_card"))
    .limit(1);
  if (!sale?.reference?.startsWith("test_reader_") || sale.cardCents === null) return undefined;
  return {
    saleId: sale.id,
    number: saleNumber(sale.id),
    attempt: sale.attempt,
    reference: sale.reference,
    amountCents: sale.cardCents,
  };
}
