import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { counterPayments, counterSaleLines, counterSales, tillSessions } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { stockShortfall } from "#app/domain/orders/stock.server.ts";
import { nameStockMove, type StockMove } from "#app/domain/stock/ledger.server.ts";
import type { StockProduct } from "#app/domain/stock/status.ts";
import { PgTransaction } from "drizzle-orm/pg-core";
import { adultBornBy } from "#app/domain/orders/adult-buyer.ts";
import { shopCalendarDate } from "#app/lib/shop-time.ts";
import { refuse, type Refusal, type Result } from "#app/lib/reply.server.ts";
import type { CounterProduct } from "./lookup.server.ts";
import { saleTotals, settle, type SaleTotals, type Settlement, type Tender } from "./sale-money.ts";
import { MAX_LINE_QUANTITY } from "./sale-limits.ts";
import { saleNumber, type SaleStatus, type TenderMethod } from "./status.ts";
import { idCheckRefusal } from "./id-check.server.ts";

// A sale at the counter (decision 023, points 3 and 5): lines scanned into the till's one open
// sale, then paid in one transaction that takes the stock as a web order does, so of the counter
// and the web selling the last copy at once exactly one wins.

export type SaleLine = {
  id: number;
  productType: StockProduct;
  productId: number;
  name: string;
  quantity: number;
  unitPriceCents: number;
  discountCents: number;
  discountReason: string | null;
  taxable: boolean;
};

export type Sale = {
  id: number;
  number: string;
  status: SaleStatus;
  tillSessionId: number;
  clerkName: string;
  lines: SaleLine[];
  totals: SaleTotals;
  /** The rate of the sale's tax, in millionths (an open sale's: the store's rate now). */
  taxRate: number;
  /** Adult titles need the clerk's ID check before the sale can be paid. */
  hasAdult: boolean;
  idCheckBirthDate: string | null;
  /** While awaiting the card: what the reader charges, and the cash handed over beside it. */
  cardCents: number | null;
  cashTenderedCents: number | null;
  cardAttempt: number;
  /** Why the last card attempt did not pay, for the clerk. */
  cardMessage: string | null;
  createdAt: Date;
  paidAt: Date | null;
  payments: {
    method: TenderMethod;
    amountCents: number;
    tenderedCents: number | null;
    changeCents: number | null;
  }[];
};

/** A sale line's columns, as `SaleLine` has them. */
export const lineColumns = {
  id: counterSaleLines.id,
  productType: counterSaleLines.productType,
  productId: counterSaleLines.productId,
  name: counterSaleLines.name,
  quantity: counterSaleLines.quantity,
  unitPriceCents: counterSaleLines.unitPriceCents,
  discountCents: counterSaleLines.discountCents,
  discountReason: counterSaleLines.discountReason,
  taxable: counterSaleLines.taxable,
};

async function saleLines(db: Database | Transaction, saleId: number): Promise<SaleLine[]> {
  return db
    .select(lineColumns)
    .from(counterSaleLines)
    .where(eq(counterSaleLines.saleId, saleId))
    .orderBy(asc(counterSaleLines.id));
}

/** A sale with its lines and payments; an open sale's totals at the given rate. */
export async function getSale(
  db: Database | Transaction,
  id: number,
  taxRate: number,
): Promise<Sale | undefined> {
  const [row] = await db.select().from(counterSales).where(eq(counterSales.id, id));
  if (!row) return undefined;
  const [lines, payments] = await Promise.all([
    saleLines(db, id),
    db
      .select({
        method: counterPayments.method,
        amountCents: counterPayments.amountCents,
        tenderedCents: counterPayments.tenderedCents,
        changeCents: counterPayments.changeCents,
      })
      .from(counterPayments)
      .where(eq(counterPayments.saleId, id))
      .orderBy(asc(counterPayments.id)),
  ]);
  const totals =
    row.status === "open"
      ? saleTotals(lines, taxRate)
      : {
          subtotalCents: row.subtotalCents,
          discountCents: row.discountCents,
          taxCents: row.taxCents,
          totalCents: row.totalCents,
        };
  return {
    id: row.id,
    number: saleNumber(row.id),
    status: row.status,
    tillSessionId: row.tillSessionId,
    clerkName: row.clerkName,
    lines,
    totals,
    taxRate: row.status === "open" ? taxRate : row.taxRate,
    hasAdult: lines.some((line) => line.productType === "adult"),
    idCheckBirthDate: row.idCheckBirthDate,
    cardCents: row.cardCents,
    cashTenderedCents: row.cashTenderedCents,
    cardAttempt: row.cardAttempt,
    cardMessage: row.cardMessage,
    createdAt: row.createdAt,
    paidAt: row.paidAt,
    payments,
  };
}

/** The sale the till is on: being scanned, or waiting for the card reader. */
const ON_THE_TILL = ["open", "awaiting_card"] as const;

/** The id of the sale the till is on, if one is being scanned or paid by card. */
export async function openSaleIdOf(
  db: Database | Transaction,
  tillId: number,
): Promise<number | undefined> {
  const [row] = await db
    .select({ id: counterSales.id })
    .from(counterSales)
    .where(and(eq(counterSales.tillSessionId, tillId), inArray(counterSales.status, ON_THE_TILL)));
  return row?.id;
}

/**
 * The open till and the sale it is on, if any, in one query: what every press at the counter
 * starts from. Undefined when the till is closed.
 */
export async function openTillAndSale(
  db: Database | Transaction,
): Promise<{ tillId: number; saleId: number | undefined } | undefined> {
  const [row] = await db
    .select({ tillId: tillSessions.id, saleId: counterSales.id })
    .from(tillSessions)
    .leftJoin(
      counterSales,
      and(
        eq(counterSales.tillSessionId, tillSessions.id),
        inArray(counterSales.status, ON_THE_TILL),
      ),
    )
    .where(isNull(tillSessions.closedAt));
  return row && { tillId: row.tillId, saleId: row.saleId ?? undefined };
}

/** The sale the till is on (being scanned, or waiting for the card), with lines and totals. */
export async function openSaleOf(
  db: Database | Transaction,
  tillId: number,
  taxRate: number,
): Promise<Sale | undefined> {
  const id = await openSaleIdOf(db, tillId);
  return id === undefined ? undefined : getSale(db, id, taxRate);
}

export const AWAITING_CARD =
  "The card reader is taking this sale's payment: wait for it, or cancel the card payment.";

export async function tillIsOpen(tx: Transaction, tillId: number): Promise<boolean> {
  const [till] = await tx
    .select({ closedAt: tillSessions.closedAt })
    .from(tillSessions)
    .where(eq(tillSessions.id, tillId))
    .for("share");
  return !!till && till.closedAt === null;
}

export const TILL_CLOSED = "The till is closed: open it to sell.";

export const NO_SALE = "There is no sale in progress: scan something to start one.";

/**
 * A press at the counter names no till or sale: it acts on the open till and the sale it is on,
 * found by the press's own statement rather than read first in a round trip of their own.
 */
export const AT_THE_TILL = "at the till";

function shortOf(name: string, left: number): string {
  return left === 0 ? `“${name}” is sold out.` : `Only ${left} of “${name}” left.`;
}

/** A refusal found inside a transaction, which undoes everything the transaction did. */
export class SaleRefused extends Error {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

/** Runs a transaction whose refusals (thrown as SaleRefused) undo it and are answered. */
export async function refusable<T extends object>(
  db: Database | Transaction,
  work: (tx: Transaction) => Promise<Result<T>>,
): Promise<Result<T>> {
  try {
    return await db.transaction(work);
  } catch (error) {
    if (error instanceof SaleRefused) return error.refusal;
    throw error;
  }
}

/**
 * Adds a product to the till's open sale (one more of it when it is there already), at its
 * price now, in one statement (`counter_add_line`, migration 0041). A product with too few copies
 * left is refused here, so the clerk knows at once; the payment takes the stock for good.
 */
export async function addToSale(
  db: Database,
  /** The till's id, or `AT_THE_TILL` for whichever till is open. */
  till: number | typeof AT_THE_TILL,
  product: CounterProduct,
  quantity: number,
  staff: Staff,
): Promise<Result<{ saleId: number }>> {
  const args = sql`${product.type}, ${product.id}, ${product.name}, ${product.priceCents},
    ${product.taxable}, ${product.stock}, ${quantity}, ${MAX_LINE_QUANTITY}, ${staff.id},
    ${staff.name}`;
  const { rows } = await db.execute<{ code: string; sale_id: string | null }>(
    till === AT_THE_TILL
      ? sql`select a.code, a.sale_id from till_sessions as t
              cross join lateral counter_add_line(t.id, ${args}) as a
             where t.closed_at is null`
      : sql`select code, sale_id from counter_add_line(${till}, ${args})`,
  );
  const { code, sale_id: saleId } = rows[0] ?? { code: "till-closed", sale_id: null };
  switch (code) {
    case "added":
      return { ok: true, message: `Added “${product.name}”.`, saleId: Number(saleId) };
    case "till-closed":
      return refuse("conflict", TILL_CLOSED);
    case "awaiting-card":
      return refuse("conflict", AWAITING_CARD, "code");
    case "short":
      return refuse("conflict", shortOf(product.name, product.stock), "code");
    case "too-many":
      return refuse("invalid", `At most ${MAX_LINE_QUANTITY} of one product per sale.`, "code");
    default:
      throw new Error(`counter_add_line answered ${code}.`);
  }
}

/** A line changed: its quantity, and a discount with its reason. */
export type LineChange = {
  quantity: number;
  discountCents: number;
  discountReason: string | null;
};

/** Changes a line of the open sale; a discount above the line's price is refused. */
export async function changeLine(
  db: Database,
  saleId: number,
  lineId: number,
  change: LineChange,
): Promise<Result> {
  const [line] = await db
    .select({ unitPriceCents: counterSaleLines.unitPriceCents, status: counterSales.status })
    .from(counterSaleLines)
    .innerJoin(counterSales, eq(counterSales.id, counterSaleLines.saleId))
    .where(and(eq(counterSaleLines.id, lineId), eq(counterSaleLines.saleId, saleId)));
  if (!line || line.status !== "open") return refuse("conflict", "This sale is no longer open.");
  if (change.discountCents > line.unitPriceCents * change.quantity) {
    return refuse("invalid", "The discount cannot be more than the line comes to.", "discount");
  }
  await db
    .update(counterSaleLines)
    .set({
      quantity: change.quantity,
      discountCents: change.discountCents,
      discountReason: change.discountCents > 0 ? change.discountReason : null,
    })
    .where(eq(counterSaleLines.id, lineId));
  return { ok: true, message: "Line changed." };
}

/** Takes a line off the open sale. */
export async function removeLine(db: Database, saleId: number, lineId: number): Promise<Result> {
  const removed = await db
    .delete(counterSaleLines)
    .where(
      and(
        eq(counterSaleLines.id, lineId),
        eq(counterSaleLines.saleId, saleId),
        sql`exists (select 1 from counter_sales as s where s.id = ${saleId} and s.status = 'open')`,
      ),
    )
    .returning({ name: counterSaleLines.name });
  if (removed.length === 0) return refuse("conflict", "This sale is no longer open.");
  return { ok: true, message: `Removed “${removed[0]!.name}”.` };
}

/** Abandons the open sale: nothing was taken, so nothing goes back. */
export async function voidSale(db: Database, saleId: number): Promise<Result> {
  const voided = await db
    .update(counterSales)
    .set({ status: "voided" })
    .where(and(eq(counterSales.id, saleId), eq(counterSales.status, "open")))
    .returning({ id: counterSales.id });
  if (voided.length === 0) return refuse("conflict", "This sale is no longer open.");
  return { ok: true, message: `Sale ${saleNumber(saleId)} voided.` };
}

export type PaySaleInput = {
  /** The sale's id, or `AT_THE_TILL` for the sale the open till is on. */
  saleId: number | typeof AT_THE_TILL;
  /** The cash the customer handed over. */
  cashTenderedCents: number;
  /** An exchange's credit: the goods returned for this sale, paying first (decision 023). */
  creditCents?: number;
  /** The birth date on the customer's ID, as the clerk typed it; needed for adult titles. */
  idCheckBirthDate: string | null;
};

export type CounterConfig = { taxRate: number; timeZone: string };

export function idCheck(sale: Sale, birthDate: string | null, config: CounterConfig, now: Date) {
  if (!sale.hasAdult) return null;
  const refusal = idCheckRefusal(birthDate, now, config.timeZone);
  if (refusal) throw new SaleRefused(refusal);
  return birthDate;
}

/**
 * Takes the sale's stock: the titles through `take_stock` (the same conditional updates, in the
 * same order, as a web order), then the store items, which the web never sells, by id.
 */
export async function takeSaleStock(tx: Transaction, sale: Sale): Promise<void> {
  await nameStockMove(tx, { reason: "counter_sale", reference: `sale ${sale.number}` });
  const titles = sale.lines.filter((line) => line.productType !== "item");
  const items = sale.lines
    .filter((line) => line.productType === "item")
    .sort((a, b) => a.productId - b.productId);
  if (titles.length > 0) {
    try {
      await tx.transaction(async (savepoint) => {
        await savepoint.execute(
          sql`select take_stock(${sql.param(titles.map((l) => l.productType))}::text[], ${sql.param(titles.map((l) => l.productId))}::integer[], ${sql.param(titles.map((l) => l.quantity))}::integer[])`,
        );
      });
    } catch (error) {
      const [short] = stockShortfall(error) ?? [];
      const line =
        short &&
        titles.find((l) => l.productType === short.productType && l.productId === short.serialNo);
      if (!line) throw error;
      throw new SaleRefused(refuse("conflict", shortOf(line.name, short.available)));
    }
  }
  for (const line of items) {
    const { rows } = await tx.execute<{ id: number }>(
      sql`update store_items set stock = stock - ${line.quantity}, updated_at = now()
           where id = ${line.productId} and stock >= ${line.quantity} returning id`,
    );
    if (rows.length === 0) {
      const { rows: left } = await tx.execute<{ stock: number }>(
        sql`select stock from store_items where id = ${line.productId}`,
      );
      throw new SaleRefused(refuse("conflict", shortOf(line.name, left[0]?.stock ?? 0)));
    }
  }
}

/**
 * Puts back stock a sale took (a card that did not pay), named in the ledger as `move` says.
 * In the order stock is taken (regular titles, adult titles, then items, each by id), so it
 * cannot deadlock with a web order or another sale.
 */
export async function giveBackSaleStock(
  tx: Transaction,
  lines: readonly Pick<SaleLine, "productType" | "productId" | "quantity">[],
  move: StockMove,
): Promise<void> {
  await nameStockMove(tx, move);
  const rank = { regular: 0, adult: 1, item: 2 } as const;
  const ordered = [...lines].sort(
    (a, b) => rank[a.productType] - rank[b.productType] || a.productId - b.productId,
  );
  for (const line of ordered) {
    if (line.productType === "regular") {
      await tx.execute(
        sql`update regular_titles set qty_to_list = qty_to_list + ${line.quantity}
             where reg_serial_no = ${line.productId}`,
      );
    } else if (line.productType === "adult") {
      await tx.execute(
        sql`update adult_titles set quantity = quantity + ${line.quantity}
             where adult_serial_no = ${line.productId}`,
      );
    } else {
      await tx.execute(
        sql`update store_items set stock = stock + ${line.quantity}, updated_at = now()
             where id = ${line.productId}`,
      );
    }
  }
}

/** The tenders a settlement writes: the card's part, then the cash's with its change. */
export function paymentRows(
  sale: Pick<Sale, "id" | "tillSessionId">,
  settlement: Settlement,
  cardReference: string | null = null,
) {
  const base = { saleId: sale.id, tillSessionId: sale.tillSessionId };
  const rows: (typeof counterPayments.$inferInsert)[] = [];
  if (settlement.creditCents) {
    rows.push({ ...base, method: "credit", amountCents: settlement.creditCents });
  }
  if (settlement.cardCents > 0) {
    rows.push({
      ...base,
      method: "card",
      amountCents: settlement.cardCents,
      providerReference: cardReference,
    });
  }
  if (settlement.cashCents > 0) {
    rows.push({
      ...base,
      method: "cash",
      amountCents: settlement.cashCents,
      tenderedCents: settlement.cashTenderedCents,
      changeCents: settlement.changeCents,
    });
  }
  return rows;
}

/**
 * The first half of every payment, inside its transaction: the open sale locked, the till open,
 * the ID check for adult titles, the tender checked against the total, the stock taken. A
 * refusal is thrown (SaleRefused) and undoes the transaction.
 */
export async function takeForPayment(
  tx: Transaction,
  input: { saleId: number; idCheckBirthDate: string | null },
  tender: Tender | ((totalCents: number) => Tender),
  config: CounterConfig,
  now: Date,
): Promise<{ sale: Sale; birthDate: string | null; settlement: Settlement }> {
  const [locked] = await tx
    .select({ id: counterSales.id, tillSessionId: counterSales.tillSessionId })
    .from(counterSales)
    .where(and(eq(counterSales.id, input.saleId), eq(counterSales.status, "open")))
    .for("update");
  if (!locked) throw new SaleRefused(refuse("conflict", "This sale was paid or voided already."));
  if (!(await tillIsOpen(tx, locked.tillSessionId))) {
    throw new SaleRefused(refuse("conflict", TILL_CLOSED));
  }
  const sale = (await getSale(tx, locked.id, config.taxRate))!;
  if (sale.lines.length === 0) {
    throw new SaleRefused(refuse("invalid", "Scan something to sell first.", "code"));
  }
  const birthDate = idCheck(sale, input.idCheckBirthDate, config, now);
  const total = sale.totals.totalCents;
  const settled = settle(total, typeof tender === "function" ? tender(total) : tender);
  if (!settled.ok) throw new SaleRefused(refuse("invalid", settled.message, settled.field));
  await takeSaleStock(tx, sale);
  return { sale, birthDate, settlement: settled.settlement };
}

/** Why `counter_pay_cash` did not pay, as the clerk reads it. */
function payRefusal(code: string, input: PaySaleInput, config: CounterConfig, now: Date): Refusal {
  switch (code) {
    case "not-open":
      return refuse("conflict", "This sale was paid or voided already.");
    case "till-closed":
      return refuse("conflict", TILL_CLOSED);
    case "empty":
      return refuse("invalid", "Scan something to sell first.", "code");
    case "id-required":
    case "under-age":
      return idCheckRefusal(
        code === "under-age" ? input.idCheckBirthDate : null,
        now,
        config.timeZone,
      )!;
    case "cash-short":
      return refuse("invalid", "The cash handed over must cover the total.", "cashTenderedCents");
    case "cash-not-needed":
      return refuse(
        "invalid",
        "Nothing is left to pay in cash: leave the cash empty.",
        "cashTenderedCents",
      );
    default:
      throw new Error(`counter_pay_cash answered ${code}.`);
  }
}

/**
 * Pays the till's open sale in cash (with an exchange's credit first, if any): the ID check for
 * adult titles, the stock taken, the totals and the tenders written, the sale paid, all in one
 * statement (`counter_pay_cash`, migration 0040: one round trip, so a sale stays quick while the
 * web shop is busy). A refusal (short stock, cash that does not cover the total, no ID check)
 * changes nothing and leaves the sale open. A card goes through the card reader instead
 * (`card-payments.server.ts`), whose arithmetic is `sale-money.ts`, as this one's is.
 */
export async function paySale(
  /** A transaction too: an exchange pays its new sale in the return's (a savepoint). */
  db: Database | Transaction,
  input: PaySaleInput,
  config: CounterConfig,
  staff: Staff,
  now = new Date(),
): Promise<Result<{ saleId: number; changeCents: number }>> {
  const args = sql`${input.cashTenderedCents}, ${input.creditCents ?? 0},
      ${input.idCheckBirthDate}::date,
      ${adultBornBy(shopCalendarDate(now, config.timeZone))}::date, ${config.taxRate},
      ${staff.id}, ${staff.name}, ${now.toISOString()}::timestamptz`;
  const statement =
    input.saleId === AT_THE_TILL
      ? sql`select p.code, p.change_cents, s.id as sale_id
              from till_sessions as t
              join counter_sales as s on s.till_session_id = t.id and s.status = 'open'
             cross join lateral counter_pay_cash(s.id, ${args}) as p
             where t.closed_at is null`
      : sql`select code, change_cents, ${input.saleId}::bigint as sale_id
              from counter_pay_cash(${input.saleId}, ${args})`;
  type Answer = { code: string; change_cents: number; sale_id: string };
  let answer: Answer | undefined;
  try {
    // Inside a transaction, in a savepoint, so short stock undoes only this payment.
    const { rows } =
      db instanceof PgTransaction
        ? await db.transaction((savepoint) => savepoint.execute<Answer>(statement))
        : await db.execute<Answer>(statement);
    answer = rows[0];
  } catch (error) {
    const [short] = stockShortfall(error) ?? [];
    if (!short) throw error;
    const saleId =
      input.saleId === AT_THE_TILL ? (await openTillAndSale(db))?.saleId : input.saleId;
    // The sale's line names the product; with no sale open any more, it is "A product".
    const [line] =
      saleId === undefined
        ? []
        : await db
            .select({ name: counterSaleLines.name })
            .from(counterSaleLines)
            .where(
              and(
                eq(counterSaleLines.saleId, saleId),
                eq(counterSaleLines.productType, short.productType),
                eq(counterSaleLines.productId, short.serialNo),
              ),
            );
    return refuse("conflict", shortOf(line?.name ?? "A product", short.available));
  }
  if (!answer) return nothingToPay(db);
  if (answer.code !== "paid") return payRefusal(answer.code, input, config, now);
  const saleId = Number(answer.sale_id);
  return {
    ok: true,
    message: `Sale ${saleNumber(saleId)} paid.`,
    saleId,
    changeCents: answer.change_cents,
  };
}

/** Why the open till had no sale to pay: the till closed, no sale, or one with the card reader. */
async function nothingToPay(db: Database | Transaction): Promise<Refusal> {
  const till = await openTillAndSale(db);
  if (!till) return refuse("conflict", TILL_CLOSED);
  if (till.saleId === undefined) return refuse("conflict", NO_SALE);
  return refuse("conflict", AWAITING_CARD);
}
