import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders } from "#app/db/schema.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import {
  adminOrderFilter,
  exportOrdersCsv,
  listOrdersForAdmin,
  ORDER_CSV_COLUMNS,
} from "./admin-orders.server.ts";
import { releaseOrder } from "./fulfilment.server.ts";
import { placeOrder } from "./place-order.server.ts";
import {
  createCustomer,
  createRegularTitle,
  orderInput,
  TEST_ADDRESS,
  UNTAXED_PRICING,
} from "#tests/support/order-fixtures.ts";
import { ledgersOf } from "#app/domain/returns/returns.server.ts";

const db = testDatabase();
const config = UNTAXED_PRICING;

/**
 * Three orders to one new address, from three accounts (one open checkout each): two pending
 * (one with 3 copies), one expired.
 */
async function threeOrders() {
  const email = `list-${randomUUID()}@example.test`;
  const film = await createRegularTitle(db, { qty: 10, priceCents: 1000 });
  const ids: number[] = [];
  for (const quantity of [1, 3, 2]) {
    const customer = await createCustomer(db);
    const placed = await placeOrder(
      db,
      orderInput(customer, [{ productType: "regular", serialNo: film.serialNo, quantity }], {
        shipping: { ...TEST_ADDRESS, name: "Grace Hopper", email },
      }),
      config,
    );
    if (!placed.ok) throw new Error(placed.reason);
    ids.push(placed.order.id);
  }
  await releaseOrder(db, { orderId: ids[2]!, reason: "expired" });
  return { email, ids };
}

const filter = (query: Record<string, string>) => adminOrderFilter(new URLSearchParams(query));

describe("the back office's order list", () => {
  it("finds orders by e-mail, newest first, with item counts, and filters by status", async () => {
    const { email, ids } = await threeOrders();
    const all = await listOrdersForAdmin(db, filter({ q: email.toUpperCase() }), 1);
    expect(all.total).toBe(3);
    expect(all.rows.map((row) => [row.id, row.itemCount, row.status])).toEqual([
      [ids[2], 2, "expired"],
      [ids[1], 3, "pending"],
      [ids[0], 1, "pending"],
    ]);
    const pending = await listOrdersForAdmin(db, filter({ q: email, status: "pending" }), 1);
    expect(pending.rows.map((row) => row.id)).toEqual([ids[1], ids[0]]);
    const byNumber = await listOrdersForAdmin(db, filter({ q: `#${ids[1]}` }), 1);
    expect(byNumber.rows.map((row) => row.id)).toEqual([ids[1]]);
    // A page past the end shows the last page; an unknown status filters nothing out.
    expect((await listOrdersForAdmin(db, filter({ q: email, status: "lost" }), 9)).page).toBe(1);
  });

  it("exports the filtered orders as CSV, one row each, in batches", async () => {
    const { email, ids } = await threeOrders();
    let csv = "";
    for await (const chunk of exportOrdersCsv(db, filter({ q: email }), {
      batchSize: 2,
      moneyBack: ledgersOf,
    })) {
      csv += chunk;
    }
    const rows = parse(csv.replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(ORDER_CSV_COLUMNS);
    expect(rows.map((row) => [Number(row.Order), row.Status, row.Items, row.Email])).toEqual([
      [ids[2], "expired", "2", email],
      [ids[1], "pending", "3", email],
      [ids[0], "pending", "1", email],
    ]);
    expect(rows[1]).toMatchObject({ Customer: "Grace Hopper", Subtotal: "30.00", State: "TX" });
  });

  it("neutralises shipping details a spreadsheet would run as formulas", async () => {
    const { email, ids } = await threeOrders();
    // What a shopper can type at checkout; whatever the form allows, the export must not run it.
    await db
      .update(orders)
      .set({
        shippingName: '=HYPERLINK("http://evil.test","Click")',
        shippingAddress: "+1 Analytical Way",
        shippingCity: "-Austin",
        shippingPhone: "@SUM(1)",
        shippingPostalCode: "\t78701",
        shippingMethod: "\rstandard",
      })
      .where(eq(orders.id, ids[0]!));
    let csv = "";
    for await (const chunk of exportOrdersCsv(db, filter({ q: email }), { moneyBack: ledgersOf }))
      csv += chunk;
    const rows = parse(csv.replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    const row = rows.find((candidate) => Number(candidate.Order) === ids[0])!;
    expect(row).toMatchObject({
      Customer: `'=HYPERLINK("http://evil.test","Click")`,
      Address: "'+1 Analytical Way",
      City: "'-Austin",
      Phone: "'@SUM(1)",
    });
    expect(Object.values(row).filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
  });
});
