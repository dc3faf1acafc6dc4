import { sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { saleTotals } from "./sale-money.ts";
import { counterReturnNumber, saleNumber } from "./status.ts";
import { keptReport, RETURN_FIELDS, zReport, type ZReport } from "./z-report.server.ts";

// The counter's part of `npm run check:money` (decision 023): every paid sale adds up and was paid
// exactly its total, nothing was paid on a sale that was not, and every closed till's kept Z
// report is what its rows still say.

export type CounterDifference = { counter: string; what: string };

type SaleRow = {
  id: string;
  status: string;
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  total_cents: number;
  tax_rate: number;
  paid: string | null;
  lines: { unitPriceCents: number; quantity: number; discountCents: number; taxable: boolean }[];
};

async function checkSales(db: Database, since: Date | null, differences: CounterDifference[]) {
  const { rows } = await db.execute<SaleRow>(sql`
    select s.id, s.status, s.subtotal_cents, s.discount_cents, s.tax_cents, s.total_cents,
           s.tax_rate,
           (select sum(p.amount_cents) from counter_payments p where p.sale_id = s.id) as paid,
           coalesce((select json_agg(json_build_object('unitPriceCents', l.unit_price_cents,
                                                       'quantity', l.quantity,
                                                       'discountCents', l.discount_cents,
                                                       'taxable', l.taxable))
                       from counter_sale_lines l where l.sale_id = s.id), '[]') as lines
      from counter_sales s
     where (s.status = 'paid' ${since ? sql`and s.paid_at > ${since}` : sql``})
        or (s.status <> 'paid' and exists (select 1 from counter_payments p where p.sale_id = s.id))
     order by s.id`);
  let sales = 0;
  for (const sale of rows) {
    const counter = saleNumber(Number(sale.id));
    const paid = Number(sale.paid ?? 0);
    if (sale.status !== "paid") {
      differences.push({
        counter,
        what: `${formatUsd(paid)} taken on a sale that is ${sale.status}`,
      });
      continue;
    }
    sales += 1;
    const expected = saleTotals(sale.lines, sale.tax_rate);
    const stored = {
      subtotalCents: sale.subtotal_cents,
      discountCents: sale.discount_cents,
      taxCents: sale.tax_cents,
      totalCents: sale.total_cents,
    };
    if (JSON.stringify(expected) !== JSON.stringify(stored)) {
      differences.push({
        counter,
        what: `its lines come to ${formatUsd(expected.totalCents)} (tax ${formatUsd(expected.taxCents)}), the sale says ${formatUsd(stored.totalCents)} (tax ${formatUsd(stored.taxCents)})`,
      });
    }
    if (paid !== sale.total_cents) {
      differences.push({
        counter,
        what: `paid ${formatUsd(paid)} for a total of ${formatUsd(sale.total_cents)}`,
      });
    }
  }
  return sales;
}

/** What a closed till's kept report must still say (one kept before returns reads 0 for them). */
const KEPT: (keyof ZReport)[] = [
  "sales",
  "subtotalCents",
  "discountCents",
  "taxCents",
  "totalCents",
  "cashCents",
  "cardCents",
  "expectedCashCents",
  "countedCents",
  "overShortCents",
  ...RETURN_FIELDS,
];

/** The repair takings and refunds a report keeps (0 in one kept before them, as it had none). */
const REPAIRS_KEPT: (keyof ZReport)[] = [
  "repairCashCents",
  "repairCardCents",
  "repairOnlineCents",
  "repairCashRefundCents",
  "repairCardRefundCents",
];

async function checkTills(db: Database, since: Date | null, differences: CounterDifference[]) {
  const { rows } = await db.execute<{
    id: number;
    opened_at: Date;
    opened_by_name: string;
    float_cents: number;
    closed_at: Date;
    closed_by_name: string | null;
    counted_cents: number | null;
    report: unknown;
  }>(sql`
    select id, opened_at, opened_by_name, float_cents, closed_at, closed_by_name, counted_cents,
           report
      from till_sessions
     where closed_at is not null ${since ? sql`and closed_at > ${since}` : sql``}
     order by id`);
  for (const till of rows) {
    const now = await zReport(
      db,
      {
        id: till.id,
        openedAt: new Date(till.opened_at),
        openedByName: till.opened_by_name,
        floatCents: till.float_cents,
        closedAt: new Date(till.closed_at),
        closedByName: till.closed_by_name,
        countedCents: till.counted_cents,
      },
      new Date(till.closed_at),
    );
    const kept = till.report ? keptReport(till.report) : null;
    const changed = [...KEPT, ...REPAIRS_KEPT].filter((key) => kept?.[key] !== now[key]);
    if (changed.length > 0) {
      differences.push({
        counter: `Till ${till.id}`,
        what: `its Z report no longer matches its sales and payments (${changed.join(", ")})`,
      });
    }
  }
  return rows.length;
}

type ReturnRow = {
  id: string;
  sale_id: string;
  amount_cents: number;
  lines: string;
  refunds: string;
  sale_total: number;
  sale_returned: string;
  over_returned: boolean;
};

/**
 * Every counter return's refunds add up to its lines' amounts and to the amount it records, and
 * a sale's returns never give back more than it took nor take back more than it sold.
 */
async function checkReturns(db: Database, since: Date | null, differences: CounterDifference[]) {
  const { rows } = await db.execute<ReturnRow>(sql`
    select r.id, r.sale_id, r.amount_cents, s.total_cents as sale_total,
           (select coalesce(sum(l.amount_cents), 0) from counter_return_lines l
             where l.return_id = r.id) as lines,
           (select coalesce(sum(f.amount_cents), 0) from counter_refunds f
             where f.return_id = r.id) as refunds,
           (select sum(o.amount_cents) from counter_returns o where o.sale_id = r.sale_id)
             as sale_returned,
           exists (select 1 from counter_sale_lines sl
                    where sl.sale_id = r.sale_id
                      and sl.quantity < (select coalesce(sum(l.quantity), 0)
                                           from counter_return_lines l
                                          where l.sale_line_id = sl.id)) as over_returned
      from counter_returns r join counter_sales s on s.id = r.sale_id
     ${since ? sql`where r.created_at > ${since}` : sql``}
     order by r.id`);
  for (const row of rows) {
    const counter = counterReturnNumber(Number(row.id));
    const lines = Number(row.lines);
    const refunds = Number(row.refunds);
    if (lines !== row.amount_cents || refunds !== row.amount_cents) {
      differences.push({
        counter,
        what: `its lines come to ${formatUsd(lines)} and its refunds to ${formatUsd(refunds)}, the return says ${formatUsd(row.amount_cents)}`,
      });
    }
    if (Number(row.sale_returned) > row.sale_total) {
      differences.push({
        counter,
        what: `the returns of ${saleNumber(Number(row.sale_id))} give back ${formatUsd(Number(row.sale_returned))} of a ${formatUsd(row.sale_total)} sale`,
      });
    }
    if (row.over_returned) {
      differences.push({
        counter,
        what: `more of a line of ${saleNumber(Number(row.sale_id))} came back than was sold`,
      });
    }
  }
  return rows.length;
}

/** The counter's sales, returns and closed tills (since `since`), with every difference found. */
export async function reconcileCounter(db: Database, since: Date | null) {
  const differences: CounterDifference[] = [];
  const sales = await checkSales(db, since, differences);
  const returns = await checkReturns(db, since, differences);
  const tills = await checkTills(db, since, differences);
  return { sales, returns, tills, differences };
}
