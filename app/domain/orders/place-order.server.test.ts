import { randomUUID } from "node:crypto";
import { and, eq, sql, TransactionRollbackError } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "#app/db/client.server.ts";
import { orderItems, orders, regularTitles } from "#app/db/schema.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { mergeOrderLines, placeOrderInputSchema } from "./checkout-input.ts";
import { getCustomerOrder, listCustomerOrders } from "./customer-orders.server.ts";
import { placeOrder } from "./place-order.server.ts";
import { placeOrderStatement } from "./place-order-statement.server.ts";
import { reserveStock } from "./stock.server.ts";
import {
  adultStock,
  createAdultTitle,
  createCustomer,
  createRegularTitle,
  orderInput,
  regularStock,
  TEXAS_PRICING,
  TEST_ADDRESS,
} from "#tests/support/order-fixtures.ts";

const db = testDatabase();
const config = TEXAS_PRICING;

async function orderCount(customerId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(eq(orders.userId, customerId));
  return row!.n;
}

/** How many of an account's orders stand in each status. */
async function statuses(customerId: string) {
  const { rows } = await db.$client.query<{ status: string; count: number }>(
    "select status, count(*)::int as count from orders where user_id = $1 group by 1 order by 1",
    [customerId],
  );
  return rows;
}

/** `customer` orders `quantity` copies of one new title (through `database`: the shared one). */
function orderCopies(customer: string, serialNo: number, quantity: number, database = db) {
  return placeOrder(
    database,
    orderInput(customer, [{ productType: "regular", serialNo, quantity }]),
    config,
  );
}

/**
 * Expects `customer`'s order of `quantity` copies of a new title to fail while its line is
 * written, as a failure after the stock was taken would; the failure is removed afterwards,
 * whatever happened.
 */
async function expectOrderToFailAfterReserving(
  customer: string,
  serialNo: number,
  quantity: number,
) {
  const fn = `fail_items_${randomUUID().replaceAll("-", "")}`;
  await db.execute(
    sql.raw(`create function ${fn}() returns trigger language plpgsql as $$
      begin raise exception 'simulated failure'; end $$`),
  );
  await db.execute(
    sql.raw(`create trigger ${fn} before insert on order_items for each row
      when (new.product_serial_no = ${serialNo} and new.product_type = 'regular'
        and new.quantity = ${quantity}) execute function ${fn}()`),
  );
  try {
    await expect(orderCopies(customer, serialNo, quantity)).rejects.toThrow();
  } finally {
    await db.execute(sql.raw(`drop trigger ${fn} on order_items`));
    await db.execute(sql.raw(`drop function ${fn}()`));
  }
}

describe("placing an order", () => {
  it("prices from the catalogue, reserves stock and creates a pending order", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 5, priceCents: 1999 });
    const adult = await createAdultTitle(db, { qty: 2, priceCents: 2500 });
    const now = new Date();
    const result = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: film.serialNo, quantity: 1 },
        { productType: "adult", serialNo: adult.serialNo, quantity: 1 },
        { productType: "regular", serialNo: film.serialNo, quantity: 1 },
      ]),
      { ...config, now },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.created).toBe(true);
    const { order } = result;
    expect(order.status).toBe("pending");
    // 2 × 19.99 + 25.00 = 64.98; + 5.99 standard = 70.97; × 8.25 % = 5.855… → 5.86.
    expect(order).toMatchObject({
      subtotalCents: 6498,
      shippingCents: 599,
      taxCents: 586,
      totalCents: 7683,
      paymentExpiresAt: new Date(now.getTime() + 45 * 60_000).toISOString(),
      paidAt: null,
    });
    expect(order.items).toEqual([
      {
        productType: "regular",
        serialNo: film.serialNo,
        title: film.title,
        quantity: 2,
        unitPriceCents: 1999,
      },
      {
        productType: "adult",
        serialNo: adult.serialNo,
        title: adult.title,
        quantity: 1,
        unitPriceCents: 2500,
      },
    ]);
    expect(order.shipping).toEqual({ ...TEST_ADDRESS, method: "standard" });
    expect(await regularStock(db, film.serialNo)).toBe(3);
    expect(await adultStock(db, adult.serialNo)).toBe(1);

    // The customer sees it, with its tax; nobody else does.
    const [listed] = await listCustomerOrders(db, customer);
    expect(listed).toMatchObject({ id: order.id, taxCents: 586 });
    expect(await getCustomerOrder(db, customer, order.id)).toEqual(order);
    const stranger = await createCustomer(db);
    expect(await getCustomerOrder(db, stranger, order.id)).toBeNull();
    expect(await getCustomerOrder(db, customer, 999_999_999)).toBeNull();
  });

  it("ignores anything price-like sent along with the lines", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 5, priceCents: 4200 });
    const tampered = {
      ...orderInput(customer, [
        { productType: "regular", serialNo: film.serialNo, quantity: 1, priceCents: 1 },
      ] as never),
      totalCents: 1,
      shippingCents: 0,
      taxCents: 0,
    };
    const result = await placeOrder(db, tampered, config);
    expect(result.ok && result.order).toMatchObject({
      subtotalCents: 4200,
      shippingCents: 599,
      taxCents: 396,
      totalCents: 5195,
      items: [expect.objectContaining({ unitPriceCents: 4200 })],
    });
  });

  it("charges no tax outside the configured states, and ships standard free from the threshold", async () => {
    const customer = await createCustomer(db);
    const box = await createRegularTitle(db, { qty: 5, priceCents: 10_000 });
    const result = await placeOrder(
      db,
      orderInput(customer, [{ productType: "regular", serialNo: box.serialNo, quantity: 2 }], {
        shipping: { ...TEST_ADDRESS, state: "ok", postalCode: "73102" },
      }),
      config,
    );
    expect(result.ok && result.order).toMatchObject({
      subtotalCents: 20_000,
      shippingCents: 0,
      taxCents: 0,
      totalCents: 20_000,
      shipping: expect.objectContaining({ state: "OK" }),
    });
  });

  it("refuses unknown products and bad input without touching anything", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 5, priceCents: 1000 });
    const unknown = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: film.serialNo, quantity: 1 },
        { productType: "adult", serialNo: 999_999_999, quantity: 1 },
      ]),
      config,
    );
    expect(unknown).toMatchObject({
      ok: false,
      reason: "unknown-products",
      products: [{ productType: "adult", serialNo: 999_999_999 }],
    });
    const tooMany = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: film.serialNo, quantity: 60 },
        { productType: "regular", serialNo: film.serialNo, quantity: 60 },
      ]),
      config,
    );
    expect(tooMany).toMatchObject({ ok: false, reason: "invalid-input" });
    const badAddress = await placeOrder(
      db,
      orderInput(customer, [{ productType: "regular", serialNo: film.serialNo, quantity: 1 }], {
        shipping: { ...TEST_ADDRESS, state: "Texas" },
      }),
      config,
    );
    expect(badAddress).toMatchObject({
      ok: false,
      reason: "invalid-input",
      issues: [expect.objectContaining({ path: "shipping.state" })],
    });
    const nobody = await orderCopies(randomUUID(), film.serialNo, 1);
    expect(nobody).toMatchObject({ ok: false, reason: "unknown-customer" });
    expect(await regularStock(db, film.serialNo)).toBe(5);
    expect(await orderCount(customer)).toBe(0);
  });

  it("sells adult titles only to customers whose date of birth says 18 or older", async () => {
    const adult = await createAdultTitle(db, { qty: 5, priceCents: 3000 });
    // The exact birthday boundary is unit-tested (checkout-input.test.ts); here: real dates.
    const year = new Date().getUTCFullYear();
    const line = [{ productType: "adult" as const, serialNo: adult.serialNo, quantity: 1 }];
    const minor = await createCustomer(db, `${year - 17}-01-01`);
    const undated = await createCustomer(db, null);
    const grownUp = await createCustomer(db, `${year - 19}-12-31`);
    expect(await placeOrder(db, orderInput(minor, line), config)).toMatchObject({
      ok: false,
      reason: "under-age",
    });
    expect(await placeOrder(db, orderInput(undated, line), config)).toMatchObject({
      ok: false,
      reason: "date-of-birth-required",
    });
    expect(await adultStock(db, adult.serialNo)).toBe(5);
    // The undated customer can still buy regular titles.
    const film = await createRegularTitle(db, { qty: 1, priceCents: 1000 });
    const regular = await orderCopies(undated, film.serialNo, 1);
    expect(regular.ok).toBe(true);
    const allowed = await placeOrder(db, orderInput(grownUp, line), config);
    expect(allowed.ok).toBe(true);
    expect(await adultStock(db, adult.serialNo)).toBe(4);
  });

  it("starts a birthday at midnight in the shop's configured time zone", async () => {
    const adult = await createAdultTitle(db, { qty: 2, priceCents: 3000 });
    const line = [{ productType: "adult" as const, serialNo: adult.serialNo, quantity: 1 }];
    const birthday = await createCustomer(db, "2008-06-15");
    // 23:30 UTC on 14 June: already the 15th in Berlin, still the 14th in Texas.
    const now = new Date("2026-06-14T23:30:00Z");
    expect(
      await placeOrder(db, orderInput(birthday, line), {
        ...config,
        now,
        timeZone: "America/Chicago",
      }),
    ).toMatchObject({ ok: false, reason: "under-age" });
    const berlin = await placeOrder(db, orderInput(birthday, line), {
      ...config,
      now,
      timeZone: "Europe/Berlin",
    });
    expect(berlin.ok).toBe(true);
  });

  it("reserves nothing when any line is short, and names every short title", async () => {
    const customer = await createCustomer(db);
    const plenty = await createRegularTitle(db, { qty: 10, priceCents: 1000 });
    const few = await createRegularTitle(db, { qty: 2, priceCents: 1000 });
    const none = await createAdultTitle(db, { qty: 0, priceCents: 1000 });
    const result = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: plenty.serialNo, quantity: 4 },
        { productType: "regular", serialNo: few.serialNo, quantity: 3 },
        { productType: "adult", serialNo: none.serialNo, quantity: 1 },
      ]),
      config,
    );
    expect(result).toEqual({
      ok: false,
      reason: "out-of-stock",
      shortages: [
        {
          productType: "regular",
          serialNo: few.serialNo,
          title: few.title,
          requested: 3,
          available: 2,
        },
        {
          productType: "adult",
          serialNo: none.serialNo,
          title: none.title,
          requested: 1,
          available: 0,
        },
      ],
      message: `Only 2 of "${few.title}" left (you asked for 3). "${none.title}" is sold out.`,
    });
    expect(await regularStock(db, plenty.serialNo)).toBe(10);
    expect(await regularStock(db, few.serialNo)).toBe(2);
    expect(await orderCount(customer)).toBe(0);
  });

  it("leaves stock untouched when the transaction fails after reserving", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 4, priceCents: 1000 });
    // A failure after the stock was taken: the order's lines cannot be written.
    await expectOrderToFailAfterReserving(customer, film.serialNo, 3);
    expect(await regularStock(db, film.serialNo)).toBe(4);
    expect(await orderCount(customer)).toBe(0);
  });

  it("keeps its database connection when it refuses a sold-out order", async () => {
    // One connection: a refusal that closed it would show as a new server process.
    const single = createDatabase(inject("databaseUrl"), 1);
    try {
      const backend = async () =>
        (await single.pool.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
      const customer = await createCustomer(single.db);
      const film = await createRegularTitle(single.db, { qty: 1, priceCents: 1000 });
      const before = await backend();
      for (let i = 0; i < 3; i++) {
        const result = await orderCopies(customer, film.serialNo, 2, single.db);
        expect(result).toMatchObject({ ok: false, reason: "out-of-stock" });
      }
      expect(await backend()).toBe(before);
      expect(await regularStock(single.db, film.serialNo)).toBe(1);
    } finally {
      await single.pool.end();
    }
  });

  it("refuses an order for a customer without a profile, and takes no stock", async () => {
    const film = await createRegularTitle(db, { qty: 3, priceCents: 1000 });
    const result = await orderCopies(randomUUID(), film.serialNo, 1);
    expect(result).toMatchObject({ ok: false, reason: "unknown-customer" });
    expect(await regularStock(db, film.serialNo)).toBe(3);
  });
});

describe("checkout keys", () => {
  it("returns the order already placed when the same checkout is sent again", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 5, priceCents: 1000 });
    const input = orderInput(customer, [
      { productType: "regular", serialNo: film.serialNo, quantity: 2 },
    ]);
    const first = await placeOrder(db, input, config);
    const again = await placeOrder(db, input, config);
    expect(first).toMatchObject({ ok: true, created: true });
    expect(again).toMatchObject({ ok: true, created: false });
    expect(again.ok && first.ok && again.order.id === first.order.id).toBe(true);
    expect(await regularStock(db, film.serialNo)).toBe(3);
    expect(await orderCount(customer)).toBe(1);

    // The same key with a different cart is a stale form, not a replay.
    const changed = await placeOrder(
      db,
      { ...input, lines: [{ productType: "regular", serialNo: film.serialNo, quantity: 1 }] },
      config,
    );
    expect(changed).toMatchObject({ ok: false, reason: "checkout-key-reused" });
    // Keys are per customer: another customer's identical key is their own checkout.
    const other = await createCustomer(db);
    const theirs = await placeOrder(db, { ...input, customerId: other }, config);
    expect(theirs).toMatchObject({ ok: true, created: true });
    expect(await regularStock(db, film.serialNo)).toBe(1);
  });

  it("makes one order of simultaneous submissions of one checkout", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 10, priceCents: 1000 });
    const input = orderInput(customer, [
      { productType: "regular", serialNo: film.serialNo, quantity: 1 },
    ]);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => placeOrder(db, input, config)),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    const ids = new Set(results.map((result) => result.ok && result.order.id));
    expect(ids.size).toBe(1);
    expect(results.filter((result) => result.ok && result.created)).toHaveLength(1);
    expect(await orderCount(customer)).toBe(1);
    expect(await regularStock(db, film.serialNo)).toBe(9);
  });

  it("keeps one open checkout per account when new checkouts arrive at once", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 50, priceCents: 1000 });
    const line = [{ productType: "regular" as const, serialNo: film.serialNo, quantity: 3 }];
    const results = await Promise.all(
      Array.from({ length: 8 }, () => placeOrder(db, orderInput(customer, line), config)),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(await statuses(customer)).toEqual([
      { status: "cancelled", count: 7 },
      { status: "pending", count: 1 },
    ]);
    // Only the open checkout holds copies.
    expect(await regularStock(db, film.serialNo)).toBe(47);
  });
});

describe("one open checkout per account", () => {
  /** A new account's open checkout of 2 copies of a new $10.00 title, `stock` on the shelf. */
  async function openCheckout(stock: number) {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: stock, priceCents: 1000 });
    const first = await orderCopies(customer, film.serialNo, 2);
    expect(first.ok).toBe(true);
    return { customer, film, first };
  }

  it("releases the earlier unpaid order in the statement that places the new one", async () => {
    const { customer, film: held, first } = await openCheckout(5);
    const wanted = await createRegularTitle(db, { qty: 5, priceCents: 1000 });
    const second = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: held.serialNo, quantity: 1 },
        { productType: "regular", serialNo: wanted.serialNo, quantity: 3 },
      ]),
      config,
    );
    expect(second).toMatchObject({
      ok: true,
      created: true,
      released: [{ orderId: first.ok && first.order.id, provider: null, sessionId: null }],
    });
    expect(await statuses(customer)).toEqual([
      { status: "cancelled", count: 1 },
      { status: "pending", count: 1 },
    ]);
    // The released copies went back and the new ones were taken, nothing more.
    expect(await regularStock(db, held.serialNo)).toBe(4);
    expect(await regularStock(db, wanted.serialNo)).toBe(2);
  });

  it("keeps the earlier unpaid order open when the new one fails after reserving", async () => {
    const { customer, film } = await openCheckout(6);
    await expectOrderToFailAfterReserving(customer, film.serialNo, 3);
    // Nothing half done: the earlier checkout still holds its copies and can still be paid.
    expect(await statuses(customer)).toEqual([{ status: "pending", count: 1 }]);
    expect(await regularStock(db, film.serialNo)).toBe(4);
  });

  it("still releases the earlier unpaid order when the new one is short, counting its copies as left", async () => {
    const { customer, film } = await openCheckout(2);
    expect(await regularStock(db, film.serialNo)).toBe(0);
    const more = await orderCopies(customer, film.serialNo, 3);
    expect(more).toMatchObject({
      ok: false,
      reason: "out-of-stock",
      message: `Only 2 of "${film.title}" left (you asked for 3).`,
    });
    expect(await statuses(customer)).toEqual([{ status: "cancelled", count: 1 }]);
    expect(await regularStock(db, film.serialNo)).toBe(2);
  });

  it("never deadlocks checkouts that give back what other checkouts take", async () => {
    const pool = createDatabase(inject("databaseUrl"), 20);
    try {
      const titles = await Promise.all(
        [0, 1, 2].map(() => createRegularTitle(pool.db, { qty: 1000, priceCents: 1000 })),
      );
      const adult = await createAdultTitle(pool.db, { qty: 1000, priceCents: 1000 });
      const customers = await Promise.all(
        Array.from({ length: 60 }, () => createCustomer(pool.db)),
      );
      const line = (i: number) => ({
        productType: "regular" as const,
        serialNo: titles[i % titles.length]!.serialNo,
        quantity: 1,
      });
      const adultLine = { productType: "adult" as const, serialNo: adult.serialNo, quantity: 1 };
      // Each account holds one title (and the adult one); its next checkout gives that back and
      // takes the next title, which other accounts are giving back at the same moment.
      for (const [i, customer] of customers.entries()) {
        const held = await placeOrder(pool.db, orderInput(customer, [line(i), adultLine]), config);
        expect(held.ok).toBe(true);
      }
      for (let round = 1; round <= 3; round++) {
        const results = await Promise.all(
          customers.map((customer, i) =>
            placeOrder(
              pool.db,
              orderInput(customer, round % 2 ? [line(i + round)] : [line(i + round), adultLine]),
              config,
            ),
          ),
        );
        expect(results.every((result) => result.ok)).toBe(true);
      }
      // Only each account's last checkout holds copies: one regular title each, no adult one.
      const held = await Promise.all(titles.map((title) => regularStock(pool.db, title.serialNo)));
      expect(held.reduce((sum, qty) => sum + (1000 - qty), 0)).toBe(60);
      expect(await adultStock(pool.db, adult.serialNo)).toBe(1000);
    } finally {
      await pool.pool.end();
    }
  });
});

/**
 * How often each trigger function of the two title tables ran while `statement` ran, by name
 * (those that did not run left out), and what `inside` read afterwards: on a connection of its
 * own, in a transaction rolled back at the end, so nothing else is counted and nothing stays.
 */
async function titleTriggerCalls<T>(
  statement: pg.QueryConfig,
  inside: (client: pg.Client) => Promise<T>,
) {
  const client = new pg.Client(inject("databaseUrl"));
  await client.connect();
  try {
    await client.query("begin");
    await client.query("set local track_functions = 'pl'");
    const counts = async () => {
      const { rows } = await client.query<{ name: string; calls: number }>(
        `select p.proname as name, coalesce(pg_stat_get_xact_function_calls(p.oid), 0)::int as calls
           from pg_proc as p
          where p.oid in (select tgfoid from pg_trigger
                           where tgrelid in ('regular_titles'::regclass, 'adult_titles'::regclass))`,
      );
      return new Map(rows.map((row) => [row.name, row.calls]));
    };
    const before = await counts();
    await client.query(statement);
    const after = await counts();
    const calls = Object.fromEntries(
      [...after]
        .map(([name, n]) => [name, n - (before.get(name) ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
    return { calls, read: await inside(client) };
  } finally {
    await client.query("rollback");
    await client.end();
  }
}

describe("taking the stock", () => {
  /** A line of `quantity` copies of a regular title, and of an adult one. */
  const regular = (title: { serialNo: number }, quantity: number) => ({
    productType: "regular" as const,
    serialNo: title.serialNo,
    quantity,
  });
  const adult = (title: { serialNo: number }, quantity: number) => ({
    productType: "adult" as const,
    serialNo: title.serialNo,
    quantity,
  });

  it("changes each catalogue's stock in one statement, however many titles it moves", async () => {
    const customer = await createCustomer(db);
    const [a, b, c, d] = await Promise.all(
      [0, 1, 2, 3].map(() => createRegularTitle(db, { qty: 5, priceCents: 1000 })),
    );
    const [x, y] = await Promise.all(
      [0, 1].map(() => createAdultTitle(db, { qty: 5, priceCents: 1000 })),
    );
    const held = await placeOrder(
      db,
      orderInput(customer, [regular(a!, 1), regular(b!, 1), adult(x!, 1)]),
      config,
    );
    expect(held.ok).toBe(true);

    // The next checkout releases that one (a, b and x back) and takes b, c, d and y: six
    // titles in two catalogues.
    const input = placeOrderInputSchema.parse(
      orderInput(customer, [regular(b!, 2), regular(c!, 1), regular(d!, 1), adult(y!, 1)]),
    );
    const priced = mergeOrderLines(input.lines).map((line) => ({
      ...line,
      title: `#${line.serialNo}`,
      unitPriceCents: 1000,
    }));
    const price = {
      subtotalCents: 5000,
      shippingCents: 0,
      taxRate: 0,
      taxCents: 0,
      totalCents: 5000,
    };
    const now = new Date();
    const statement = placeOrderStatement(input, priced, price, {
      paymentExpiresAt: new Date(now.getTime() + 3_600_000),
      now,
      dateOfBirth: "1980-05-17",
    });
    const titles = [a!, b!, c!, d!, x!, y!];
    const { calls, read } = await titleTriggerCalls(statement, async (client) => {
      const { rows } = await client.query<{ qty: number }>(
        `select coalesce(r.qty_to_list, a.quantity) as qty
           from unnest($1::text[], $2::integer[]) with ordinality as w(t, s, n)
           left join regular_titles as r on w.t = 'regular' and r.reg_serial_no = w.s
           left join adult_titles as a on w.t = 'adult' and a.adult_serial_no = w.s
          order by w.n`,
        [
          titles.map((_, i) => (i < 4 ? "regular" : "adult")),
          titles.map((title) => title.serialNo),
        ],
      );
      return rows.map((row) => row.qty);
    });
    // One update of regular_titles and one of adult_titles, each running its table's statement
    // triggers once: an update per title ran the catalogue's six times, the others four and two.
    expect(calls).toEqual({
      catalogue_rows_changed: 2,
      regular_titles_count_rows: 1,
      regular_titles_restock_alerts: 1,
      regular_titles_stock_moves: 1,
      adult_titles_stock_moves: 1,
      // Finds that no title's words changed, and writes nothing.
      search_words_count_updates: 1,
    });
    // a and x back, b back and taken twice, c, d and y taken.
    expect(read).toEqual([5, 3, 4, 4, 5, 4]);
  });

  it("gives a refused checkout's earlier order back in one statement per catalogue", async () => {
    const customer = await createCustomer(db);
    // One after the other: a's serial number before b's, as the ledger's rows come.
    const a = await createRegularTitle(db, { qty: 5, priceCents: 1000 });
    const b = await createRegularTitle(db, { qty: 5, priceCents: 1000 });
    const x = await createAdultTitle(db, { qty: 5, priceCents: 1000 });
    const held = await placeOrder(
      db,
      orderInput(customer, [regular(a, 1), regular(b, 2), adult(x, 1)]),
      config,
    );
    if (!held.ok) throw new Error(held.reason);
    const { calls, read } = await titleTriggerCalls(
      {
        text: "select order_id from release_open_checkouts($1, $2)",
        values: [customer, randomUUID()],
      },
      async (client) => {
        const { rows } = await client.query<{ reason: string; change: number }>(
          `select reason, change from stock_moves
            where (product_type, product_id) in (('regular', $1), ('regular', $2), ('adult', $3))
              and reference = $4
            order by id`,
          [a.serialNo, b.serialNo, x.serialNo, `order ${held.order.id}`],
        );
        return rows;
      },
    );
    expect(calls).toEqual({
      catalogue_rows_changed: 2,
      regular_titles_count_rows: 1,
      regular_titles_restock_alerts: 1,
      regular_titles_stock_moves: 1,
      adult_titles_stock_moves: 1,
      // Finds that no title's words changed, and writes nothing.
      search_words_count_updates: 1,
    });
    // The order's web sales, then their release.
    expect(read).toEqual([
      { reason: "web_sale", change: -1 },
      { reason: "web_sale", change: -2 },
      { reason: "web_sale", change: -1 },
      { reason: "released", change: 1 },
      { reason: "released", change: 2 },
      { reason: "released", change: 1 },
    ]);
  });

  it("passes over a sold-out title at once, without waiting for the checkout holding its row", async () => {
    const customer = await createCustomer(db);
    const gone = await createRegularTitle(db, { qty: 0, priceCents: 1000 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    // Another transaction holds the title's row, as a checkout does until it commits.
    const holder = db.transaction(async (tx) => {
      await tx.execute(
        sql`select 1 from regular_titles where reg_serial_no = ${gone.serialNo} for update`,
      );
      locked();
      await released;
    });
    try {
      await holding;
      const waited = new Promise<"waited">((resolve) =>
        setTimeout(() => resolve("waited"), 10_000).unref(),
      );
      const answer = await Promise.race([orderCopies(customer, gone.serialNo, 1), waited]);
      expect(answer).toMatchObject({ ok: false, reason: "out-of-stock" });
    } finally {
      release();
      await holder;
    }
  });
});

describe("under load", () => {
  const pool = createDatabase(inject("databaseUrl"), 20);
  afterAll(() => pool.pool.end());

  it("sells exactly the 3 in stock to 200 simultaneous shoppers", async () => {
    const film = await createRegularTitle(pool.db, { qty: 3, priceCents: 1500 });
    const shoppers = await Promise.all(Array.from({ length: 200 }, () => createCustomer(pool.db)));
    const results = await Promise.all(
      shoppers.map((customer) => orderCopies(customer, film.serialNo, 1, pool.db)),
    );
    const placed = results.filter((result) => result.ok);
    const refused = results.filter((result) => !result.ok);
    expect(placed).toHaveLength(3);
    expect(refused).toHaveLength(197);
    for (const result of refused) {
      expect(result).toMatchObject({
        ok: false,
        reason: "out-of-stock",
        shortages: [{ serialNo: film.serialNo, requested: 1, available: 0 }],
        message: `"${film.title}" is sold out.`,
      });
    }
    expect(await regularStock(pool.db, film.serialNo)).toBe(0);
    const [lines] = await pool.db
      .select({ n: sql<number>`coalesce(sum(${orderItems.quantity}), 0)::int` })
      .from(orderItems)
      .where(
        and(eq(orderItems.productType, "regular"), eq(orderItems.productSerialNo, film.serialNo)),
      );
    expect(lines!.n).toBe(3);
  });

  it("never deadlocks orders that share titles of different discs", async () => {
    const a = await createRegularTitle(pool.db, { qty: 500, priceCents: 1000, disc: "DVD" });
    const b = await createRegularTitle(pool.db, { qty: 500, priceCents: 1000, disc: "Blu-ray" });
    const c = await createAdultTitle(pool.db, { qty: 500, priceCents: 1000 });
    // 120 shoppers (one open checkout each).
    const customers = await Promise.all(Array.from({ length: 120 }, () => createCustomer(pool.db)));
    const shapes = [[a, b], [b], [b, a], [a]] as const;
    const results = await Promise.all(
      customers.map((customer, i) =>
        placeOrder(
          pool.db,
          orderInput(customer, [
            ...shapes[i % shapes.length]!.map((title) => ({
              productType: "regular" as const,
              serialNo: title.serialNo,
              quantity: 1,
            })),
            { productType: "adult", serialNo: c.serialNo, quantity: 1 },
          ]),
          config,
        ),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(await regularStock(pool.db, a.serialNo)).toBe(500 - 90);
    expect(await regularStock(pool.db, b.serialNo)).toBe(500 - 90);
    expect(await adultStock(pool.db, c.serialNo)).toBe(500 - 120);
  });

  it("leaves the kept catalogue counts alone when only stock changes", async () => {
    const film = await createRegularTitle(pool.db, {
      qty: 5,
      priceCents: 1000,
      disc: "Collections",
    });
    // One snapshot (repeatable read), so titles other test files add meanwhile do not count;
    // rolled back at the end, retried if a concurrent insert updated the same count row.
    for (let attempt = 1; ; attempt++) {
      try {
        await pool.db.transaction(
          async (tx) => {
            const counts = async () => {
              const { rows } = await tx.execute<{ disc: string; total: string }>(
                sql`select disc, total from catalogue_counts where catalogue = 'regular'`,
              );
              return new Map(rows.map((row) => [row.disc, Number(row.total)]));
            };
            const before = await counts();
            const reserved = await reserveStock(
              tx,
              [{ productType: "regular", serialNo: film.serialNo, quantity: 2 }],
              { reason: "web_sale", reference: "order test" },
            );
            expect(reserved.ok).toBe(true);
            // Not even rewritten with the same numbers: no count row carries this transaction's id.
            const { rows: touched } = await tx.execute<{ n: number }>(
              sql`select count(*)::int as n from catalogue_counts
                  where xmin::text = (pg_current_xact_id()::text::bigint % 4294967296)::text`,
            );
            expect(touched[0]!.n).toBe(0);
            expect(await counts()).toEqual(before);
            // A disc change still moves the title between the per-disc counts.
            await tx
              .update(regularTitles)
              .set({ disc: "DVD" })
              .where(eq(regularTitles.regSerialNo, film.serialNo));
            const after = await counts();
            expect(after.get("Collections")).toBe(before.get("Collections")! - 1);
            expect(after.get("DVD")).toBe(before.get("DVD")! + 1);
            expect(after.get("")).toBe(before.get(""));
            tx.rollback();
          },
          { isolationLevel: "repeatable read" },
        );
      } catch (error) {
        if (error instanceof TransactionRollbackError) return;
        const code = (error as { cause?: { code?: string } }).cause?.code;
        // A concurrent update of the same count row: not serializable with this snapshot, or
        // (another test file's import holding the counts it needs and waiting on this one) a
        // deadlock. Either way, try again.
        if ((code === "40001" || code === "40P01") && attempt < 5) continue;
        throw error;
      }
    }
  });
});
