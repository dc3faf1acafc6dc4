// `npm run check:money`: every paid order's ledger, its refunds and the payments that were not
// the order's, checked against the payment provider's own records. What the shop believes it
// took and gave back must be what the provider took and gave back, to the cent.
import { and, asc, eq, gt, inArray, isNotNull, like, ne, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import {
  counterPayments,
  extraPayments,
  orders,
  repairEstimates,
  repairPayments,
  repairTickets,
  returns,
} from "#app/db/schema.ts";
import type { PaymentProvider, ProviderMoney } from "#app/domain/payments/provider.server.ts";
import { reconcileCounter } from "#app/domain/counter/reconcile-counter.server.ts";
import { saleNumber } from "#app/domain/counter/status.ts";
import { orderLedger } from "#app/domain/returns/ledger.ts";
import { ticketLabel } from "#app/domain/repair-tickets/status.ts";
import { returnLabel } from "#app/domain/returns/status.ts";
import { formatUsd } from "#app/lib/money.ts";

export type MoneyDifference = {
  /** The order the difference is about (null: a repair, or a payment the shop has no order for). */
  orderId: number | null;
  /** The repair it is about ("R-1002"). */
  repair?: string;
  /** The counter sale ("S-100001") or till ("Till 3") it is about. */
  counter?: string;
  what: string;
};

export type MoneyReport = {
  orders: number;
  /** Repairs collected: paid at the counter, held to their approved estimate. */
  repairs: number;
  /** Counter sales paid, and tills closed, each held to its own rows (decision 023). */
  counterSales: number;
  /** Counter returns, each held to its lines and its sale. */
  counterReturns: number;
  tills: number;
  /** Orders checked against a provider's records (the rest against the ledger's rules alone). */
  againstProvider: number;
  differences: MoneyDifference[];
};

/** A refund claimed this long ago with no outcome: its process died (see `refundReturn`). */
const STALE_CLAIM_MS = 2 * 60_000;
const BATCH = 1_000;

type OrderRow = typeof orders.$inferSelect;
type ReturnRow = typeof returns.$inferSelect;
type ExtraPaymentRow = typeof extraPayments.$inferSelect;

/** What one reconciliation carries from step to step. */
type Reconciliation = {
  db: Database;
  since: Date | null;
  now: Date;
  differences: MoneyDifference[];
  /** Each provider's records, read once (null: the provider keeps none). */
  records: Map<string, ProviderMoney | null>;
  providers: (name: string) => PaymentProvider | null;
  /** Which provider payment each of the shop's records points at, to find the provider's strays. */
  known: Set<string>;
};

/**
 * Reconciles every paid order (paid since `since`, when given) with the provider it was paid
 * through: the payment's amount, and each refund the shop recorded (a cancelled order's, each
 * return's, each payment that was not the order's) against the refunds the provider made on
 * that payment, both ways. Orders paid through a provider without records of its own (the test
 * provider) are held to the ledger's own rules: never more refunded than paid.
 */
export async function reconcileMoney(
  db: Database,
  options: {
    providers: (name: string) => PaymentProvider | null;
    since?: Date | null;
    now?: Date;
  },
): Promise<MoneyReport> {
  const run: Reconciliation = {
    db,
    since: options.since ?? null,
    now: options.now ?? new Date(),
    differences: [],
    records: new Map(),
    providers: options.providers,
    known: new Set(),
  };
  let count = 0;
  let againstProvider = 0;
  let after = 0;
  for (;;) {
    const batch = await paidOrdersAfter(run, after);
    if (batch.length === 0) break;
    after = batch[batch.length - 1]!.id;
    const ids = batch.map((order) => order.id);
    const [orderReturns, extras] = await Promise.all([
      db
        .select()
        .from(returns)
        .where(and(inArray(returns.orderId, ids), ne(returns.status, "rejected"))),
      db.select().from(extraPayments).where(inArray(extraPayments.orderId, ids)),
    ]);
    for (const order of batch) {
      count += 1;
      const mine = orderReturns.filter((row) => row.orderId === order.id);
      if (await checkOrder(run, order, mine)) againstProvider += 1;
    }
    for (const extra of extras) await checkExtraPayment(run, extra);
    if (batch.length < BATCH) break;
  }
  await checkOnlineRepairPayments(run);
  await findUnrecordedPayments(run);
  await checkCounterCards(run);
  const repairs = await checkRepairs(run);
  const counter = await reconcileCounter(db, run.since);
  for (const difference of counter.differences)
    run.differences.push({ orderId: null, ...difference });
  return {
    orders: count,
    repairs,
    counterSales: counter.sales,
    counterReturns: counter.returns,
    tills: counter.tills,
    againstProvider,
    differences: run.differences,
  };
}

async function recordsOf(run: Reconciliation, name: string) {
  if (!run.records.has(name)) {
    const provider = run.providers(name);
    run.records.set(name, provider?.listMoney ? await provider.listMoney(run.since) : null);
  }
  return run.records.get(name)!;
}

/** The next batch of paid orders, by id. */
function paidOrdersAfter(run: Reconciliation, after: number) {
  return run.db
    .select()
    .from(orders)
    .where(
      and(
        isNotNull(orders.paidAt),
        gt(orders.id, after),
        run.since ? gt(orders.paidAt, run.since) : undefined,
      ),
    )
    .orderBy(asc(orders.id))
    .limit(BATCH);
}

/**
 * Holds one order to the ledger's rules and, when its provider keeps records, to them;
 * true when it was checked against the provider.
 */
async function checkOrder(
  run: Reconciliation,
  order: OrderRow,
  mine: ReturnRow[],
): Promise<boolean> {
  const ledger = orderLedger(order, mine);
  const say = (what: string) => run.differences.push({ orderId: order.id, what });
  if (ledger.leftCents < 0) {
    say(
      `refunded ${formatUsd(ledger.refundedCents)}, more than the ${formatUsd(ledger.paidCents)} paid`,
    );
  }
  for (const row of mine) {
    if (
      row.status === "received" &&
      row.refundStartedAt &&
      run.now.getTime() - row.refundStartedAt.getTime() > STALE_CLAIM_MS
    ) {
      say(
        `the refund of ${returnLabel(row.number)} was started ${row.refundStartedAt.toISOString()} and never finished: press Refund again on the return`,
      );
    }
  }
  const money = order.paymentProvider ? await recordsOf(run, order.paymentProvider) : null;
  if (!money || !order.paymentProvider) return false;
  if (!order.paymentReference) {
    say(`paid through ${order.paymentProvider} with no payment reference recorded`);
    return true;
  }
  run.known.add(order.paymentReference);
  const payment = money.payments.find((paid) => paid.reference === order.paymentReference);
  if (!payment) {
    say(`${order.paymentProvider} has no payment ${order.paymentReference}`);
  } else if (payment.amountCents !== ledger.paidCents) {
    say(
      `paid ${formatUsd(ledger.paidCents)} here, ${formatUsd(payment.amountCents)} at ${order.paymentProvider}`,
    );
  }
  compareRefunds(order, mine, money, say);
  return true;
}

/**
 * The refunds the shop recorded for an order against those its provider made on the order's
 * payment, both ways.
 */
function compareRefunds(
  order: OrderRow,
  mine: ReturnRow[],
  money: ProviderMoney,
  say: (what: string) => void,
) {
  const made = money.refunds.filter((refund) => refund.paymentReference === order.paymentReference);
  const recorded = [
    ...(order.refundedAt
      ? [
          {
            label: "the order's refund",
            reference: order.refundReference,
            cents: order.totalCents,
          },
        ]
      : []),
    ...mine
      .filter((row) => row.status === "refunded")
      .map((row) => ({
        label: `the refund of ${returnLabel(row.number)}`,
        reference: row.refundReference,
        cents: row.refundCents ?? 0,
      })),
  ];
  for (const refund of recorded) {
    const there = made.find((candidate) => candidate.id === refund.reference);
    if (!there) {
      say(
        `${refund.label} (${formatUsd(refund.cents)}) is not among ${order.paymentProvider}'s refunds`,
      );
    } else if (there.amountCents !== refund.cents) {
      say(
        `${refund.label} is ${formatUsd(refund.cents)} here, ${formatUsd(there.amountCents)} at ${order.paymentProvider}`,
      );
    }
  }
  for (const refund of made) {
    if (!recorded.some((candidate) => candidate.reference === refund.id)) {
      say(
        `${order.paymentProvider} refunded ${formatUsd(refund.amountCents)} (${refund.id}) that the shop has no record of`,
      );
    }
  }
}

/** A payment that was not the order's: refunded here exactly when its provider refunded it. */
async function checkExtraPayment(run: Reconciliation, extra: ExtraPaymentRow) {
  const money = await recordsOf(run, extra.provider);
  if (!money || !extra.paymentReference) return;
  run.known.add(extra.paymentReference);
  const refunded = money.refunds
    .filter((refund) => refund.paymentReference === extra.paymentReference)
    .reduce((sum, refund) => sum + refund.amountCents, 0);
  const owed = extra.amountCents ?? 0;
  if (extra.refundedAt && refunded !== owed) {
    run.differences.push({
      orderId: extra.orderId,
      what: `a second payment (${extra.paymentReference}) is marked refunded here; ${extra.provider} refunded ${formatUsd(refunded)} of ${formatUsd(owed)}`,
    });
  } else if (!extra.refundedAt && refunded > 0) {
    run.differences.push({
      orderId: extra.orderId,
      what: `a second payment (${extra.paymentReference}) was refunded at ${extra.provider} (${formatUsd(refunded)}) but is still due here`,
    });
  }
}

/**
 * Repairs paid through their pay link: each payment a provider keeps records of is in them, for
 * the amount recorded, and each repair payment in the provider's records is one of the shop's.
 */
async function checkOnlineRepairPayments(run: Reconciliation) {
  const online = await run.db
    .select()
    .from(repairPayments)
    .where(
      and(
        eq(repairPayments.method, "online"),
        run.since ? gt(repairPayments.createdAt, run.since) : undefined,
      ),
    );
  for (const payment of online) {
    const records = await recordsOf(run, payment.provider!);
    if (!records || !payment.providerReference) continue;
    run.known.add(payment.providerReference);
    const taken = records.payments.find((paid) => paid.reference === payment.providerReference);
    if (taken?.amountCents !== payment.amountCents) {
      run.differences.push({
        orderId: null,
        repair: ticketLabel(payment.ticketNumber),
        what: taken
          ? `paid ${formatUsd(payment.amountCents)} online, ${payment.provider} took ${formatUsd(taken.amountCents)} (${taken.reference})`
          : `paid ${formatUsd(payment.amountCents)} online (${payment.providerReference}), which ${payment.provider} has no record of`,
      });
    }
  }
  for (const [name, money] of run.records) {
    for (const payment of money?.payments ?? []) {
      if (payment.repairTicket == null || run.known.has(payment.reference)) continue;
      run.differences.push({
        orderId: null,
        repair: ticketLabel(payment.repairTicket),
        what: `${name} took ${formatUsd(payment.amountCents)} (${payment.reference}) for it, which the shop has not recorded`,
      });
    }
  }
}

/** Payments a provider took for an order of this shop that the shop never recorded as paid. */
async function findUnrecordedPayments(run: Reconciliation) {
  for (const [name, money] of run.records) {
    for (const payment of money?.payments ?? []) {
      if (payment.orderId === null || run.known.has(payment.reference)) continue;
      const [order] = await run.db
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.id, payment.orderId));
      run.differences.push({
        orderId: order ? order.id : null,
        what: `${name} took ${formatUsd(payment.amountCents)} (${payment.reference}) for order #${payment.orderId}, which the shop ${order ? "does not have as paid by it" : "does not have"}`,
      });
    }
  }
}

/**
 * The counter's card payments (the Stripe Terminal reader, decision 023) against Stripe's own
 * records, both ways: each one the shop recorded was taken, for the same amount; each one Stripe
 * took for a counter sale is recorded on it.
 */
async function checkCounterCards(run: Reconciliation) {
  const money = await recordsOf(run, "stripe");
  if (!money) return;
  const cards = await run.db
    .select({
      saleId: counterPayments.saleId,
      amountCents: counterPayments.amountCents,
      reference: counterPayments.providerReference,
    })
    .from(counterPayments)
    .where(
      and(
        eq(counterPayments.method, "card"),
        like(counterPayments.providerReference, "pi\\_%"),
        run.since ? gt(counterPayments.createdAt, run.since) : undefined,
      ),
    );
  const recorded = new Set(cards.map((card) => card.reference));
  for (const card of cards) {
    const there = money.payments.find((payment) => payment.reference === card.reference);
    if (!there || there.amountCents !== card.amountCents) {
      run.differences.push({
        orderId: null,
        counter: saleNumber(card.saleId),
        what: there
          ? `the card paid ${formatUsd(card.amountCents)} here, ${formatUsd(there.amountCents)} at Stripe (${card.reference})`
          : `a card payment of ${formatUsd(card.amountCents)} (${card.reference}) that Stripe has no record of`,
      });
    }
  }
  for (const payment of money.payments) {
    if (payment.counterSaleId == null || recorded.has(payment.reference)) continue;
    run.differences.push({
      orderId: null,
      counter: saleNumber(payment.counterSaleId),
      what: `Stripe took ${formatUsd(payment.amountCents)} (${payment.reference}) that the sale does not have as paid by card: refund it or record it`,
    });
  }
}

/**
 * Repairs (decision 023, point 8): each collected one was paid its approved estimate's total, or
 * staff recorded why not, and what it says was paid is what its payments add up to; no ticket
 * has been paid more than its invoice without a recorded reason. Returns how many were checked.
 */
async function checkRepairs(run: Reconciliation): Promise<number> {
  const repairs = await run.db.execute<{
    number: number;
    status: string;
    paid_cents: number | null;
    reason: string | null;
    approved_cents: number | null;
    payments_cents: string;
    payments_count: string;
    refunds_astray: string;
  }>(sql`
    select t.number, t.status, t.paid_cents, t.paid_difference_reason as reason,
           e.total_cents as approved_cents,
           coalesce((select sum(case when p.kind = 'refund' then -p.amount_cents else p.amount_cents end)
                       from repair_payments p where p.ticket_number = t.number), 0) as payments_cents,
           (select count(*) from repair_payments p where p.ticket_number = t.number) as payments_count,
           (select count(*) from repair_payments p
             where p.ticket_number = t.number and p.kind <> 'refund'
               and (p.amount_cents < (select coalesce(sum(f.amount_cents), 0) from repair_payments f
                                        where f.refunded_payment_id = p.id)
                    or exists (select 1 from repair_payments f
                                where f.refunded_payment_id = p.id and f.method <> p.method)))
             as refunds_astray
    from ${repairTickets} t
    left join ${repairEstimates} e on e.ticket_number = t.number and e.status = 'approved'
    where (t.status = 'collected' ${run.since ? sql`and t.closed_at > ${run.since}` : sql``})
       or exists (select 1 from repair_payments p where p.ticket_number = t.number
                   ${run.since ? sql`and p.created_at > ${run.since}` : sql``})`);
  for (const repair of repairs.rows) {
    const approved = repair.approved_cents ?? 0;
    const payments = Number(repair.payments_cents);
    const label = ticketLabel(repair.number);
    const reason = repair.reason?.trim();
    if (Number(repair.refunds_astray) > 0) {
      run.differences.push({
        orderId: null,
        repair: label,
        what: `${repair.refunds_astray} of its payments had back more than they took, or not the way they were paid`,
      });
    }
    if (repair.status === "collected") {
      const paid = repair.paid_cents ?? 0;
      if (paid !== approved && !reason) {
        run.differences.push({
          orderId: null,
          repair: label,
          what: `collected ${formatUsd(paid)} against an approved ${formatUsd(approved)}, with no reason recorded`,
        });
      }
      // Tickets collected before repairs kept their payments have none to add up.
      if (Number(repair.payments_count) > 0 && paid !== payments) {
        run.differences.push({
          orderId: null,
          repair: label,
          what: `says ${formatUsd(paid)} was paid, its payments add up to ${formatUsd(payments)}`,
        });
      }
    } else if (payments > approved && (approved > 0 || repair.status === "ready")) {
      // A deposit before any estimate is approved is not more than the invoice yet.
      run.differences.push({
        orderId: null,
        repair: label,
        what: `paid ${formatUsd(payments)}, more than its invoice of ${formatUsd(approved)}`,
      });
    }
  }
  return repairs.rows.length;
}
