// `npm run bench:counter`: the counter's numbers (decision 023). The Z report of a till that took
// 10,000 sales in a day (goal ≤ 1 s), computed while the till is open and when it closes, and
// the server's time for a counter sale from scan to paid, one clerk after another, on its own
// embedded PostgreSQL.
//
//   node bench/counter.ts [--sales 10000] [--web-orders 2000] [--repeat 20] [--checkouts 300]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { createDatabase } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { findByCode } from "#app/domain/counter/lookup.server.ts";
import { addToSale, paySale } from "#app/domain/counter/sales.server.ts";
import { closeTillSession, openTill, openTillSession } from "#app/domain/counter/till.server.ts";
import { zReport } from "#app/domain/counter/z-report.server.ts";
import { startEmbeddedPostgres } from "#server/embedded-postgres.ts";
import { percentile } from "./query-timings.ts";

const { values: args } = parseArgs({
  options: {
    sales: { type: "string", default: "10000" },
    "web-orders": { type: "string", default: "2000" },
    repeat: { type: "string", default: "20" },
    checkouts: { type: "string", default: "300" },
  },
});
const SALES = Number(args.sales);
const WEB_ORDERS = Number(args["web-orders"]);
const REPEAT = Number(args.repeat);
const CHECKOUTS = Number(args.checkouts);
const CONFIG = { taxRate: 82_500, timeZone: "America/Chicago" };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-counter-"));
fs.chmodSync(dataDir, 0o755);
const server = await startEmbeddedPostgres(dataDir);
const { db, pool } = createDatabase(server.url, 4);
const clerk = { id: "bench-clerk", name: "Bench Clerk" };

/** A day at the till: SALES paid sales of one to three lines, cash, card or both; web orders. */
async function seed(tillId: number) {
  await db.execute(sql`
    insert into counter_sales (id, till_session_id, status, clerk_id, clerk_name, subtotal_cents,
                               discount_cents, tax_cents, total_cents, tax_rate, paid_at)
    select 100000 + n, ${tillId}, case when n % 50 = 0 then 'voided' else 'paid' end,
           ${clerk.id}, ${clerk.name}, 1000 + n % 3000, (n % 7) * 50, 100 + n % 250,
           1000 + n % 3000 - (n % 7) * 50 + 100 + n % 250, 82500,
           case when n % 50 = 0 then null else now() - make_interval(secs => ${SALES} - n) end
      from generate_series(1, ${SALES}) as n`);
  await db.execute(sql`select setval('counter_sales_id_seq', 100000 + ${SALES})`);
  await db.execute(sql`
    insert into counter_sale_lines (sale_id, product_type, product_id, name, quantity,
                                    unit_price_cents, taxable)
    select s.id, 'item', line, 'Bench item ' || line, 1, 1000, true
      from counter_sales s cross join lateral generate_series(1, 1 + s.id % 3) as line`);
  await db.execute(sql`
    insert into counter_payments (sale_id, till_session_id, method, amount_cents, tendered_cents,
                                  change_cents)
    select s.id, ${tillId}, m.method,
           case when s.id % 5 = 0 then s.total_cents / 2
                when m.method = 'cash' then s.total_cents else s.total_cents end,
           case when m.method = 'cash' then s.total_cents + 100 end,
           case when m.method = 'cash' then 100 end
      from counter_sales s
      cross join lateral (select unnest(case when s.id % 5 = 0 then array['card', 'cash']
                                             when s.id % 2 = 0 then array['card']
                                             else array['cash'] end) as method) as m
     where s.status = 'paid'`);
  await db.execute(sql`
    insert into customers (id, email, first_name, last_name)
    values (${clerk.id}, 'bench-clerk@example.test', 'Web', 'Buyer')`);
  await db.execute(sql`
    insert into orders (user_id, status, shipping_name, shipping_address, shipping_city,
                        shipping_state, shipping_postal_code, shipping_phone, shipping_email,
                        shipping_method, subtotal_cents, shipping_cents, tax_cents, total_cents,
                        paid_at, created_at, updated_at)
    select ${clerk.id}, 'paid', 'Web Buyer', '1 Main St', 'Arlington', 'TX', '76012',
           '(817) 555-0100', 'web@example.test', 'standard', 2000, 599, 0, 2599,
           now() - make_interval(secs => n), now(), now()
      from generate_series(1, ${WEB_ORDERS}) as n`);
  await pool.query("analyze");
}

async function timed(run: () => Promise<unknown>, repeat: number) {
  await run();
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

function row(label: string, times: number[]) {
  console.log(
    `| ${label} | ${times.length} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${times.at(-1)!.toFixed(1)} |`,
  );
}

try {
  await runMigrations(db);
  await db.execute(
    sql`insert into users (id, name, email, email_verified) values (${clerk.id}, ${clerk.name}, 'bench-clerk@example.test', true)`,
  );
  const opened = await openTillSession(db, 20_000, clerk);
  if (!opened.ok) throw new Error(opened.message);
  console.log(`Seeding a till with ${SALES} sales and ${WEB_ORDERS} web orders…`);
  const seeding = performance.now();
  await seed(opened.tillId);
  console.log(`Seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s.`);

  console.log("\n| measure | runs | p50 ms | p95 ms | max ms |");
  console.log("|---|---:|---:|---:|---:|");
  const till = (await openTill(db))!;
  row(
    `X report of the open till (${SALES} sales)`,
    await timed(() => zReport(db, till, new Date()), REPEAT),
  );

  // A counter sale from scan to paid, as the server does it: the code looked up, the line
  // added, the sale paid in cash (stock taken, ledger written).
  await db.execute(sql`
    insert into store_items (sku, name, price_cents, stock)
    select 'BENCH-' || n, 'Bench shelf item ' || n, 1299, 1000000 from generate_series(1, 50) as n`);
  const sales: number[] = [];
  for (let n = 0; n < CHECKOUTS; n++) {
    const started = performance.now();
    const product = (await findByCode(db, `BENCH-${1 + (n % 50)}`))!;
    const added = await addToSale(db, till.id, product, 1, clerk);
    if (!added.ok) throw new Error(added.message);
    const paid = await paySale(
      db,
      {
        saleId: added.saleId,
        cashTenderedCents: 2000,
        idCheckBirthDate: null,
      },
      CONFIG,
      clerk,
    );
    if (!paid.ok) throw new Error(paid.message);
    sales.push(performance.now() - started);
  }
  row(
    "counter sale, scan to paid (one line, cash)",
    sales.sort((a, b) => a - b),
  );

  const closing = performance.now();
  const closed = await closeTillSession(db, till.id, 0, clerk);
  if (!closed.ok) throw new Error(closed.message);
  row(`closing the till: Z report computed and kept (${closed.report.sales} sales)`, [
    performance.now() - closing,
  ]);
} finally {
  await pool.end();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
