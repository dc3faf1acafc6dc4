import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import {
  counterPayments,
  counterRefunds,
  counterReturnLines,
  counterReturns,
  counterSaleLines,
  counterSales,
  tillSessions,
} from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { returnStock } from "#app/domain/orders/stock.server.ts";
import type { PaymentProvider } from "#app/domain/payments/provider.server.ts";
import { refundOverLimit, returnWindowEnd } from "#app/domain/returns/returns.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { refuse, type Refusal, type Result } from "#app/lib/reply.server.ts";
import { formatShopLongDate } from "#app/lib/shop-time.ts";
import { quantityField } from "./return-input.ts";
import { returnAmounts, splitRefund, type ReturnLineAmount } from "./return-money.ts";
import {
  lineColumns,
  openSaleIdOf,
  paySale,
  type CounterConfig,
  type SaleLine,
} from "./sales.server.ts";
import { counterReturnNumber, saleNumber, type RefundMethod } from "./status.ts";

// Returns at the counter (decision 023, point 7): lines of a paid sale brought back with the
// receipt, within the web's returns window. One transaction records the return, puts its units
// back on stock (the ledger naming the return) and gives the money back the way it came: to the
// card that paid (through the card provider, last, so its refusal undoes the rest) and the rest
// in cash out of the open till; or, for an exchange, as credit paying the till's open sale. The
// form's key is unique on the return, so a double press or a replay records it once.

export type CounterReturnsConfig = CounterConfig & { windowDays: number };

/** A sale line as a return sees it: how many came back already and how many still can. */
export type ReturnableLine = SaleLine & { returned: number; returnable: number };

export type SaleForReturn = {
  id: number;
  number: string;
  paidAt: Date;
  totalCents: number;
  lines: ReturnableLine[];
  windowEndsAt: Date;
  /** Why nothing can be returned now; null when something can. */
  why: string | null;
  cardPaidCents: number;
  cardRefundedCents: number;
  returns: { id: number; number: string; amountCents: number; createdAt: Date }[];
};

async function returnedQuantities(db: Database | Transaction, saleId: number) {
  const rows = await db
    .select({
      saleLineId: counterReturnLines.saleLineId,
      quantity: sql<number>`sum(${counterReturnLines.quantity})::int`,
    })
    .from(counterReturnLines)
    .innerJoin(counterReturns, eq(counterReturns.id, counterReturnLines.returnId))
    .where(eq(counterReturns.saleId, saleId))
    .groupBy(counterReturnLines.saleLineId);
  return new Map(rows.map((row) => [row.saleLineId, row.quantity]));
}

/** Whether a sale (a receipt's number, scanned) is one that was paid. */
export async function isPaidSale(db: Database | Transaction, saleId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: counterSales.id })
    .from(counterSales)
    .where(and(eq(counterSales.id, saleId), eq(counterSales.status, "paid")));
  return row !== undefined;
}

/** A paid sale with what of it can still be returned, and if nothing, why. */
export async function saleForReturn(
  db: Database | Transaction,
  saleId: number,
  config: Pick<CounterReturnsConfig, "windowDays" | "timeZone">,
  now = new Date(),
): Promise<SaleForReturn | undefined> {
  const [sale] = await db
    .select({
      id: counterSales.id,
      status: counterSales.status,
      paidAt: counterSales.paidAt,
      totalCents: counterSales.totalCents,
    })
    .from(counterSales)
    .where(eq(counterSales.id, saleId));
  if (!sale || sale.status !== "paid" || !sale.paidAt) return undefined;
  // One query after another: in a transaction they share its one connection.
  const lines = await db
    .select(lineColumns)
    .from(counterSaleLines)
    .where(eq(counterSaleLines.saleId, saleId))
    .orderBy(asc(counterSaleLines.id));
  const returned = await returnedQuantities(db, saleId);
  const card = await db.execute<{ paid: string; refunded: string }>(sql`
      select (select coalesce(sum(amount_cents), 0) from counter_payments
               where sale_id = ${saleId} and method = 'card') as paid,
             (select coalesce(sum(f.amount_cents), 0) from counter_refunds f
                join counter_returns r on r.id = f.return_id
               where r.sale_id = ${saleId} and f.method = 'card') as refunded`);
  const returns = await db
    .select({
      id: counterReturns.id,
      amountCents: counterReturns.amountCents,
      createdAt: counterReturns.createdAt,
    })
    .from(counterReturns)
    .where(eq(counterReturns.saleId, saleId))
    .orderBy(asc(counterReturns.id));
  const windowEndsAt = returnWindowEnd(sale.paidAt, config.windowDays, config.timeZone);
  const returnable = lines.map((line) => {
    const back = returned.get(line.id) ?? 0;
    return { ...line, returned: back, returnable: line.quantity - back };
  });
  const number = saleNumber(sale.id);
  let why: string | null = null;
  if (now > windowEndsAt) {
    why = `The ${config.windowDays}-day return window for sale ${number} closed on ${formatShopLongDate(windowEndsAt, config.timeZone)}.`;
  } else if (returnable.every((line) => line.returnable === 0)) {
    why = `Everything on sale ${number} has been returned.`;
  }
  return {
    id: sale.id,
    number,
    paidAt: sale.paidAt,
    totalCents: sale.totalCents,
    lines: returnable,
    windowEndsAt,
    why,
    cardPaidCents: Number(card.rows[0]!.paid),
    cardRefundedCents: Number(card.rows[0]!.refunded),
    returns: returns.map((row) => ({ ...row, number: counterReturnNumber(row.id) })),
  };
}

export type CounterReturnInput = {
  saleId: number;
  /** The return form's own key: the same key records the return once. */
  key: string;
  reason: string;
  /** Sale line id → how many come back. */
  quantities: ReadonlyMap<number, number>;
  /** An exchange: the credit pays the till's open sale, with this cash for any difference. */
  exchange?: { cashTenderedCents: number; idCheckBirthDate: string | null };
};

export type CounterReturnOptions = {
  staff: Staff;
  /** The most the staff member acting may refund (`refundCeiling`): a clerk's limit. */
  limitCents: number | undefined;
  /** The card provider the counter's card payments go through (null: none set up). */
  cardProvider: PaymentProvider | null;
  config: CounterReturnsConfig;
  now?: Date;
};

export type CounterReturnDone = {
  returnId: number;
  /** A replay of a return recorded already: nothing was done again. */
  replayed: boolean;
};

/** A refusal found inside the return's transaction, which undoes everything it did. */
class ReturnRefused extends Error {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

function checkQuantities(sale: SaleForReturn, quantities: ReadonlyMap<number, number>) {
  for (const [lineId, quantity] of quantities) {
    const line = sale.lines.find((l) => l.id === lineId);
    if (!line) throw new ReturnRefused(refuse("invalid", "That line is not on this sale."));
    if (quantity > line.returnable) {
      throw new ReturnRefused(
        refuse(
          "invalid",
          line.returnable === 0
            ? `Every “${line.name}” of this sale has come back already.`
            : `At most ${line.returnable} of “${line.name}” can come back.`,
          quantityField(lineId),
        ),
      );
    }
  }
  if (![...quantities.values()].some((quantity) => quantity > 0)) {
    throw new ReturnRefused(refuse("invalid", "Choose how many of a line come back.", "lines"));
  }
}

/** Puts the returned units back on stock, the ledger naming the return. */
async function restock(
  tx: Transaction,
  sale: SaleForReturn,
  amounts: ReturnLineAmount[],
  label: string,
) {
  const back = amounts.map((amount) => ({
    line: sale.lines.find((line) => line.id === amount.saleLineId)!,
    quantity: amount.quantity,
  }));
  await returnStock(
    tx,
    back.flatMap(({ line, quantity }) =>
      line.productType === "item"
        ? []
        : [{ productType: line.productType, serialNo: line.productId, quantity }],
    ),
    { reason: "counter_return", reference: `return ${label}` },
  );
  // Store items after the titles, by id, as a sale takes them (never locked by the web).
  const items = back
    .filter(({ line }) => line.productType === "item")
    .sort((a, b) => a.line.productId - b.line.productId);
  for (const { line, quantity } of items) {
    await tx.execute(
      sql`update store_items set stock = stock + ${quantity}, updated_at = now() where id = ${line.productId}`,
    );
  }
}

/**
 * Records a return of some of a paid sale's lines in one transaction (see the top of the file).
 * Refused, changing nothing: outside the returns window, more of a line than can come back, a
 * clerk above the refund limit, cash with no till open, a card refund the provider refuses, an
 * exchange with no sale open at the till or a difference not covered.
 */
export async function recordCounterReturn(
  db: Database,
  input: CounterReturnInput,
  options: CounterReturnOptions,
): Promise<Result<CounterReturnDone>> {
  const now = options.now ?? new Date();
  try {
    return await db.transaction(async (tx): Promise<Result<CounterReturnDone>> => {
      await withActor(tx, options.staff);
      // The sale's returns are worked out one after the other, under its lock.
      const [locked] = await tx
        .select({ id: counterSales.id })
        .from(counterSales)
        .where(and(eq(counterSales.id, input.saleId), eq(counterSales.status, "paid")))
        .for("update");
      if (!locked) return refuse("not-found", "There is no such paid sale.");
      const [recorded] = await tx
        .select({ id: counterReturns.id, saleId: counterReturns.saleId })
        .from(counterReturns)
        .where(eq(counterReturns.idempotencyKey, input.key));
      if (recorded) {
        if (recorded.saleId !== input.saleId)
          return refuse("conflict", "This form was used already.");
        const number = counterReturnNumber(recorded.id);
        return {
          ok: true,
          message: `Return ${number} was recorded already.`,
          returnId: recorded.id,
          replayed: true,
        };
      }
      const sale = (await saleForReturn(tx, input.saleId, options.config, now))!;
      if (now > sale.windowEndsAt) return refuse("conflict", sale.why!);
      checkQuantities(sale, input.quantities);
      const earlier = new Map(sale.lines.map((line) => [line.id, line.returned]));
      const amounts = returnAmounts(
        { lines: sale.lines, taxCents: await saleTax(tx, sale.id) },
        earlier,
        input.quantities,
      );
      const amountCents = amounts.reduce((sum, amount) => sum + amount.amountCents, 0);
      const earlierCents = sale.returns.reduce((sum, made) => sum + made.amountCents, 0);
      const overLimit = refundOverLimit(
        "This return",
        { amountCents, earlierCents, of: "sale" },
        options.limitCents,
      );
      if (overLimit) return overLimit;
      const [till] = await tx
        .select({ id: tillSessions.id })
        .from(tillSessions)
        .where(isNull(tillSessions.closedAt))
        .for("share");

      let creditCents = 0;
      let exchangeSaleId: number | null = null;
      if (input.exchange) {
        exchangeSaleId = (till && (await openSaleIdOf(tx, till.id))) ?? null;
        if (exchangeSaleId === null || !(await hasLines(tx, exchangeSaleId))) {
          const message = "Scan the new title into a sale at the counter first.";
          return refuse("conflict", message, "exchange");
        }
      }

      const [created] = await tx
        .insert(counterReturns)
        .values({
          saleId: sale.id,
          tillSessionId: till?.id ?? null,
          idempotencyKey: input.key,
          reason: input.reason,
          clerkId: options.staff.id,
          clerkName: options.staff.name,
          amountCents,
          exchangeSaleId,
        })
        .returning({ id: counterReturns.id });
      const returnId = created!.id;
      const label = counterReturnNumber(returnId);
      await tx
        .insert(counterReturnLines)
        .values(amounts.map((amount) => ({ returnId, ...amount })));
      await restock(tx, sale, amounts, label);

      if (exchangeSaleId !== null) {
        const paid = await paySale(
          tx,
          {
            saleId: exchangeSaleId,
            cashTenderedCents: input.exchange!.cashTenderedCents,
            creditCents: amountCents,
            idCheckBirthDate: input.exchange!.idCheckBirthDate,
          },
          options.config,
          options.staff,
          now,
        );
        if (!paid.ok) {
          throw new ReturnRefused({
            ...paid,
            field: paid.field === "cashTenderedCents" ? "cashTendered" : paid.field,
          });
        }
        const [credit] = await tx
          .select({ amountCents: counterPayments.amountCents })
          .from(counterPayments)
          .where(
            and(eq(counterPayments.saleId, exchangeSaleId), eq(counterPayments.method, "credit")),
          );
        creditCents = credit?.amountCents ?? 0;
      }

      const split = splitRefund(amountCents - creditCents, sale);
      const refunds: (typeof counterRefunds.$inferInsert)[] = [];
      const row = (
        method: RefundMethod,
        cents: number,
        more: Partial<typeof counterRefunds.$inferInsert> = {},
      ) => {
        if (cents > 0)
          refunds.push({
            returnId,
            method,
            amountCents: cents,
            tillSessionId: till?.id ?? null,
            ...more,
          });
      };
      row("credit", creditCents);
      if (split.cashCents > 0 && !till) {
        throw new ReturnRefused(refuse("conflict", "Open the till to refund cash."));
      }
      row("cash", split.cashCents);
      if (split.cardCents > 0) {
        const reference = await refundToCard(
          tx,
          sale,
          label,
          split.cardCents,
          input.key,
          options.cardProvider,
        );
        row("card", split.cardCents, { providerReference: reference });
      }
      if (refunds.length > 0) await tx.insert(counterRefunds).values(refunds);
      const parts = [
        creditCents > 0
          ? `${formatUsd(creditCents)} toward sale ${saleNumber(exchangeSaleId!)}`
          : null,
        split.cardCents > 0 ? `${formatUsd(split.cardCents)} to the card` : null,
        split.cashCents > 0 ? `${formatUsd(split.cashCents)} in cash` : null,
      ].filter(Boolean);
      return {
        ok: true,
        message: `Return ${label} recorded: ${parts.length > 0 ? parts.join(", ") : "nothing to give back"}.`,
        returnId,
        replayed: false,
      };
    });
  } catch (error) {
    if (error instanceof ReturnRefused) return error.refusal;
    throw error;
  }
}

async function saleTax(tx: Transaction, saleId: number): Promise<number> {
  const [row] = await tx
    .select({ taxCents: counterSales.taxCents })
    .from(counterSales)
    .where(eq(counterSales.id, saleId));
  return row!.taxCents;
}

async function hasLines(tx: Transaction, saleId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: counterSaleLines.id })
    .from(counterSaleLines)
    .where(eq(counterSaleLines.saleId, saleId))
    .limit(1);
  return rows.length > 0;
}

/**
 * Gives part of the sale back to the card that paid, through the card provider: the last step of
 * the return's transaction, so its refusal undoes the rest. The provider is asked under the
 * form's key, so a replay after a crash between its answer and the commit refunds once.
 */
async function refundToCard(
  tx: Transaction,
  sale: SaleForReturn,
  label: string,
  amountCents: number,
  key: string,
  provider: PaymentProvider | null,
): Promise<string> {
  const [payment] = await tx
    .select({ reference: counterPayments.providerReference })
    .from(counterPayments)
    .where(and(eq(counterPayments.saleId, sale.id), eq(counterPayments.method, "card")));
  if (!payment?.reference || !provider) {
    throw new ReturnRefused(
      refuse(
        "refund-failed",
        `The card payment of sale ${sale.number} cannot be refunded here (no card provider for it).`,
      ),
    );
  }
  try {
    const refund = await provider.refundPayment({
      orderId: sale.id,
      paymentReference: payment.reference,
      paymentSessionId: null,
      amountCents,
      idempotencyKey: `counter-return-${key}`,
    });
    return refund.id;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ReturnRefused(
      refuse(
        "refund-failed",
        `The refund of ${label} to the card did not go through (${why}). Nothing was recorded; try again.`,
      ),
    );
  }
}

/** A counter return as its slip prints it. */
export type CounterReturnSlip = {
  id: number;
  number: string;
  saleNumber: string;
  exchangeSaleNumber: string | null;
  reason: string;
  clerkName: string;
  createdAt: Date;
  amountCents: number;
  lines: { id: number; name: string; quantity: number; amountCents: number; taxable: boolean }[];
  refunds: { method: RefundMethod; amountCents: number }[];
};

export async function getCounterReturn(
  db: Database,
  id: number,
): Promise<CounterReturnSlip | undefined> {
  const [row] = await db.select().from(counterReturns).where(eq(counterReturns.id, id));
  if (!row) return undefined;
  const lines = await db
    .select({
      id: counterReturnLines.id,
      name: counterSaleLines.name,
      quantity: counterReturnLines.quantity,
      amountCents: counterReturnLines.amountCents,
      taxable: counterSaleLines.taxable,
    })
    .from(counterReturnLines)
    .innerJoin(counterSaleLines, eq(counterSaleLines.id, counterReturnLines.saleLineId))
    .where(eq(counterReturnLines.returnId, id))
    .orderBy(asc(counterReturnLines.id));
  const refunds = await db
    .select({ method: counterRefunds.method, amountCents: counterRefunds.amountCents })
    .from(counterRefunds)
    .where(eq(counterRefunds.returnId, id))
    .orderBy(asc(counterRefunds.id));
  return {
    id: row.id,
    number: counterReturnNumber(row.id),
    saleNumber: saleNumber(row.saleId),
    exchangeSaleNumber: row.exchangeSaleId === null ? null : saleNumber(row.exchangeSaleId),
    reason: row.reason,
    clerkName: row.clerkName,
    createdAt: row.createdAt,
    amountCents: row.amountCents,
    lines,
    refunds,
  };
}
