import { sql } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";

// The Z report (decision 023, point 7): what one till session took, by method, against the cash
// counted when it closed. Computed from the rows by the database's own sums, so it reconciles
// to the sales by construction and stays fast for a busy day.

export type ZReport = {
  tillId: number;
  openedAt: string;
  openedByName: string;
  /** While the till is open: the report so far (an X report). */
  closedAt: string | null;
  closedByName: string | null;
  /** Counter sales paid in the session, and those abandoned. */
  sales: number;
  voided: number;
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
  cashCents: number;
  cardCents: number;
  /**
   * Counter returns made while the till was open, and what they gave back by method: cash out
   * of the drawer, to cards, and as credit toward exchanges (which `creditCents` of the sales
   * took in).
   */
  creditCents: number;
  returns: number;
  cashRefundCents: number;
  cardRefundCents: number;
  creditRefundCents: number;
  /** Web orders paid while the till was open, for the day's picture. */
  onlineOrders: number;
  onlineCents: number;
  /**
   * Pickup orders handed over at the counter while the till was open (the money was taken
   * online, so none of it is in the drawer).
   */
  pickupOrders: number;
  pickupCents: number;
  /**
   * Repair payments (decision 023, point 8): cash and card taken at the desk into this till,
   * and pay-link payments made online while it was open.
   */
  repairCashCents: number;
  repairCardCents: number;
  repairOnlineCents: number;
  /**
   * Repair deposits given back at the desk (a device returned unrepaired): cash out of this
   * till's drawer, and to cards while it was open.
   */
  repairCashRefundCents: number;
  repairCardRefundCents: number;
  floatCents: number;
  /**
   * The float, the cash the sales kept and repair cash, less cash refunds (counter returns and
   * repairs): what the drawer should hold.
   */
  expectedCashCents: number;
  countedCents: number | null;
  /** Counted less expected: positive is over, negative short. */
  overShortCents: number | null;
};

type Totals = {
  sales: string;
  voided: string;
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  cash: string;
  card: string;
  credit: string;
  returns: string;
  cash_refund: string;
  card_refund: string;
  credit_refund: string;
  online_orders: string;
  online: string;
  pickup_orders: string;
  pickup: string;
  repair_cash: string;
  repair_card: string;
  repair_cash_refund: string;
  repair_card_refund: string;
  repair_online: string;
};

export type TillRow = {
  id: number;
  openedAt: Date;
  openedByName: string;
  floatCents: number;
  closedAt: Date | null;
  closedByName: string | null;
  countedCents: number | null;
};

/** The report of a till session, as of `until` (its close, or now while it is open). */
export async function zReport(
  db: Database | Transaction,
  till: TillRow,
  until: Date,
): Promise<ZReport> {
  const { rows } = await db.execute<Totals>(sql`
    select s.sales, s.voided, s.subtotal, s.discount, s.tax, s.total, p.cash, p.card, p.credit,
           r.returns, r.cash_refund, r.card_refund, r.credit_refund,
           o.online_orders, o.online, o.pickup_orders, o.pickup,
           rp.repair_cash, rp.repair_card, rp.repair_cash_refund, rp.repair_card_refund,
           ro.repair_online
    from (select count(*) filter (where status = 'paid') as sales,
                 count(*) filter (where status = 'voided') as voided,
                 coalesce(sum(subtotal_cents) filter (where status = 'paid'), 0) as subtotal,
                 coalesce(sum(discount_cents) filter (where status = 'paid'), 0) as discount,
                 coalesce(sum(tax_cents) filter (where status = 'paid'), 0) as tax,
                 coalesce(sum(total_cents) filter (where status = 'paid'), 0) as total
            from counter_sales where till_session_id = ${till.id}) as s,
         (select coalesce(sum(amount_cents) filter (where method = 'cash'), 0) as cash,
                 coalesce(sum(amount_cents) filter (where method = 'card'), 0) as card,
                 coalesce(sum(amount_cents) filter (where method = 'credit'), 0) as credit
            from counter_payments where till_session_id = ${till.id}) as p,
         (select count(distinct return_id) as returns,
                 coalesce(sum(amount_cents) filter (where method = 'cash'), 0) as cash_refund,
                 coalesce(sum(amount_cents) filter (where method = 'card'), 0) as card_refund,
                 coalesce(sum(amount_cents) filter (where method = 'credit'), 0) as credit_refund
            from counter_refunds where till_session_id = ${till.id}) as r,
         (select count(*) filter (where paid_at >= ${till.openedAt} and paid_at < ${until})
                   as online_orders,
                 coalesce(sum(total_cents) filter (where paid_at >= ${till.openedAt}
                                                     and paid_at < ${until}), 0) as online,
                 count(*) filter (where collected_at >= ${till.openedAt}
                                    and collected_at < ${until}) as pickup_orders,
                 coalesce(sum(total_cents) filter (where collected_at >= ${till.openedAt}
                                                     and collected_at < ${until}), 0) as pickup
            from orders
           where (paid_at >= ${till.openedAt} and paid_at < ${until})
              or (collected_at >= ${till.openedAt} and collected_at < ${until})) as o,
         (select coalesce(sum(amount_cents) filter (where method = 'cash' and kind <> 'refund'), 0)
                   as repair_cash,
                 coalesce(sum(amount_cents) filter (where method = 'card' and kind <> 'refund'), 0)
                   as repair_card,
                 coalesce(sum(amount_cents) filter (where method = 'cash' and kind = 'refund'), 0)
                   as repair_cash_refund,
                 coalesce(sum(amount_cents) filter (where method = 'card' and kind = 'refund'), 0)
                   as repair_card_refund
            from repair_payments where till_session_id = ${till.id}) as rp,
         (select coalesce(sum(amount_cents), 0) as repair_online
            from repair_payments where method = 'online' and kind <> 'refund'
             and created_at >= ${till.openedAt} and created_at < ${until}) as ro`);
  const t = rows[0]!;
  const cashCents = Number(t.cash);
  const cashRefundCents = Number(t.cash_refund);
  const repairCashCents = Number(t.repair_cash);
  const repairCashRefundCents = Number(t.repair_cash_refund);
  const expectedCashCents =
    till.floatCents + cashCents + repairCashCents - cashRefundCents - repairCashRefundCents;
  return {
    tillId: till.id,
    openedAt: till.openedAt.toISOString(),
    openedByName: till.openedByName,
    closedAt: till.closedAt?.toISOString() ?? null,
    closedByName: till.closedByName,
    sales: Number(t.sales),
    voided: Number(t.voided),
    subtotalCents: Number(t.subtotal),
    discountCents: Number(t.discount),
    taxCents: Number(t.tax),
    totalCents: Number(t.total),
    cashCents,
    cardCents: Number(t.card),
    creditCents: Number(t.credit),
    returns: Number(t.returns),
    cashRefundCents,
    cardRefundCents: Number(t.card_refund),
    creditRefundCents: Number(t.credit_refund),
    onlineOrders: Number(t.online_orders),
    onlineCents: Number(t.online),
    pickupOrders: Number(t.pickup_orders),
    pickupCents: Number(t.pickup),
    repairCashCents,
    repairCardCents: Number(t.repair_card),
    repairOnlineCents: Number(t.repair_online),
    repairCashRefundCents,
    repairCardRefundCents: Number(t.repair_card_refund),
    floatCents: till.floatCents,
    expectedCashCents,
    countedCents: till.countedCents,
    overShortCents: till.countedCents === null ? null : till.countedCents - expectedCashCents,
  };
}

/** The fields of the Z report that count the counter's returns and what they gave back. */
export const RETURN_FIELDS = [
  "creditCents",
  "returns",
  "cashRefundCents",
  "cardRefundCents",
  "creditRefundCents",
] as const satisfies readonly (keyof ZReport)[];

/**
 * The fields the Z report gained after the first tills closed (returns, pickups, repairs). A
 * report is kept as it stood when its till closed, so one kept before a field existed lacks it.
 * A field added to the report later goes here too.
 */
const ADDED_FIELDS = [
  ...RETURN_FIELDS,
  "pickupOrders",
  "pickupCents",
  "repairCashCents",
  "repairCardCents",
  "repairOnlineCents",
  "repairCashRefundCents",
  "repairCardRefundCents",
] as const satisfies readonly (keyof ZReport)[];

type AddedField = (typeof ADDED_FIELDS)[number];

/**
 * A Z report as kept with its till, in the one complete shape the screens, the printed report,
 * the CSV and `check:money` read: a field added after it was kept reads as 0 (that till had none
 * of it).
 */
export function keptReport(kept: unknown): ZReport {
  const report = kept as Omit<ZReport, AddedField> & Partial<Pick<ZReport, AddedField>>;
  const added = {} as Pick<ZReport, AddedField>;
  for (const field of ADDED_FIELDS) added[field] = report[field] ?? 0;
  return { ...report, ...added };
}
