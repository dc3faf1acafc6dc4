// `npm run bench:admin-orders`: how fast the back office lists, filters, searches and exports
// orders at 100,000 orders (and 20,000 customers). Prints p50 / p95 per query over repeated runs
// on its own embedded PostgreSQL, and the time of a whole CSV export.
//
//   node bench/admin-orders.ts [--orders 100000] [--customers 20000] [--repeat 30]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { createDatabase } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import {
  adminOrderFilter,
  exportOrdersCsv,
  listOrdersForAdmin,
} from "#app/domain/orders/admin-orders.server.ts";
import { ledgersOf } from "#app/domain/returns/returns.server.ts";
import { startEmbeddedPostgres } from "#server/embedded-postgres.ts";
import { printQueryTimings } from "./query-timings.ts";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "100000" },
    customers: { type: "string", default: "20000" },
    repeat: { type: "string", default: "30" },
  },
});
const ORDERS = Number(args.orders);
const CUSTOMERS = Number(args.customers);
const REPEAT = Number(args.repeat);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-admin-orders-"));
fs.chmodSync(dataDir, 0o755);
const server = await startEmbeddedPostgres(dataDir);
const { db, pool } = createDatabase(server.url, 2);

/** Customers and orders spread over a year, with one to three lines each, in a few statements. */
async function seed() {
  await db.execute(sql`
    insert into users (id, name, email, email_verified, created_at, updated_at)
    select 'bench-' || n, 'Customer ' || n, 'customer' || n || '@example.test', true,
           now() - make_interval(days => (n % 365)), now()
      from generate_series(1, ${CUSTOMERS}) as n`);
  await db.execute(sql`
    insert into customers (id, email, first_name, last_name, created_at, updated_at)
    select 'bench-' || n, 'customer' || n || '@example.test',
           (array['Ada','Grace','Alan','Edsger','Barbara','Donald','Frances','Ken'])[1 + n % 8],
           (array['Lovelace','Hopper','Turing','Dijkstra','Liskov','Knuth','Allen','Thompson'])[1 + (n / 8) % 8] || n,
           now() - make_interval(days => (n % 365)), now()
      from generate_series(1, ${CUSTOMERS}) as n`);
  // A customer has one pending order at most (orders_one_pending_per_user): the first CUSTOMERS
  // orders go to distinct customers, so only they can be pending; later ones in that slot are paid.
  await db.execute(sql`
    insert into orders (user_id, status, shipping_name, shipping_address, shipping_city,
                        shipping_state, shipping_postal_code, shipping_phone, shipping_email,
                        shipping_method, subtotal_cents, shipping_cents, tax_cents, total_cents,
                        paid_at, created_at, updated_at)
    select 'bench-' || c, s.status, c.first_name || ' ' || c.last_name, '1 Main St', 'Arlington',
           'TX', '76012', '(817) 555-0100', c.email, 'standard', 2000 + n % 5000, 599, 0,
           2599 + n % 5000,
           case when s.status in ('paid','shipped','completed','refunded') then t end, t, t
      from generate_series(1, ${ORDERS}) as n
      cross join lateral (select 1 + (n * 7919) % ${CUSTOMERS} as c) as pick
      join customers c on c.id = 'bench-' || pick.c
      cross join lateral (select now() - make_interval(mins => ${ORDERS} - n) as t) as at
      cross join lateral (select case when n % 10 = 6 and n > ${CUSTOMERS} then 'paid'
                                 else (array['completed','completed','completed','shipped','paid',
                                             'paid','pending','cancelled','expired','refunded'])[1 + n % 10]
                                 end as status) as s`);
  await db.execute(sql`
    insert into order_items (order_id, product_type, product_serial_no, title, quantity, unit_price_cents)
    select o.id, 'regular', line, 'Bench Title ' || line, 1 + o.id % 2, 1000
      from orders o cross join lateral generate_series(1, 1 + o.id % 3) as line`);
  await pool.query("analyze");
}

try {
  await runMigrations(db);
  console.log(`Seeding ${CUSTOMERS} customers and ${ORDERS} orders…`);
  const seeding = performance.now();
  await seed();
  console.log(`Seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s.`);

  const list = (query: Record<string, string>) => () => {
    const params = new URLSearchParams(query);
    return listOrdersForAdmin(db, adminOrderFilter(params), Number(query.page ?? "1"));
  };
  const cases: [string, () => Promise<{ total: number }>][] = [
    ["orders: first page", list({})],
    ["orders: page 2,500 (the last ones)", list({ page: "2500" })],
    ["orders: status paid, first page", list({ status: "paid" })],
    ["orders: status pending, page 200", list({ status: "pending", page: "200" })],
    ["orders: order number #54321", list({ q: "#54321" })],
    ["orders: search e-mail 'customer1234@'", list({ q: "customer1234@" })],
    ["orders: search name 'hopper'", list({ q: "hopper" })],
    ["orders: search 'zzqx' (nothing)", list({ q: "zzqx" })],
  ];

  await printQueryTimings(cases, REPEAT);

  for (const [label, query] of [
    ["all orders", {}],
    ["status shipped", { status: "shipped" }],
  ] as const) {
    const started = performance.now();
    let bytes = 0;
    let rows = -1;
    const filter = adminOrderFilter(new URLSearchParams(query));
    for await (const chunk of exportOrdersCsv(db, filter, { moneyBack: ledgersOf })) {
      bytes += Buffer.byteLength(chunk);
      rows += chunk.split("\n").length - 1;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `\nCSV export, ${label}: ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s (${Math.round(rows / seconds)} rows/s)`,
    );
  }
} finally {
  await pool.end();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
