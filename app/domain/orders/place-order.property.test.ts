// Placing an order takes its stock as `take_stock` (migration 0014) takes it line by line, the
// copies of the account's released order counted as back on the shelf: the same lines served,
// the same stock left, and for a short order the same RR001 detail, which the shopper's message
// is made of. Random catalogues of a few titles with a few copies each, a random open checkout
// and a random next one, each case in transactions rolled back at the end.
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { propertyRuns } from "#tests/support/property.ts";

type Kind = "regular" | "adult";
type Title = { kind: Kind; stock: number };
type Line = { title: number; quantity: number };

/** What one way of taking stock did: the detail of its refusal, or null, and the stock left. */
type Outcome = { refused: string | null; stock: number[] };

const title = fc.record({
  kind: fc.constantFrom<Kind>("regular", "adult"),
  stock: fc.integer({ min: 0, max: 3 }),
});

/** A catalogue, the open checkout's copies of each title (at most its stock) and the next order. */
const scenario = fc
  .array(title, { minLength: 1, maxLength: 5 })
  .chain((titles) =>
    fc.record({
      titles: fc.constant(titles),
      held: fc.tuple(...titles.map((t) => fc.integer({ min: 0, max: t.stock }))),
      next: fc.tuple(...titles.map(() => fc.integer({ min: 0, max: 3 }))),
    }),
  )
  .filter(({ next }) => next.some((quantity) => quantity > 0));

/** Lines of the titles with a quantity, in the fixed order (regular by serial, then adult). */
function linesOf(titles: Title[], quantities: number[]): Line[] {
  return quantities
    .map((quantity, i) => ({ title: i, quantity }))
    .filter((line) => line.quantity > 0)
    .sort(
      (a, b) =>
        Number(titles[a.title]!.kind === "adult") - Number(titles[b.title]!.kind === "adult") ||
        a.title - b.title,
    );
}

/** One connection for all the cases: each runs in a transaction rolled back at its end. */
let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client(inject("databaseUrl"));
  await client.connect();
});

afterAll(() => client.end());

async function rolledBack<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  await client.query("begin");
  try {
    return await work(client);
  } finally {
    await client.query("rollback");
  }
}

/** Adds the titles with these stocks (serial numbers in creation order): their serial numbers. */
async function addTitles(client: pg.Client, titles: Title[], stocks: number[]) {
  const serials: number[] = [];
  for (const [i, { kind }] of titles.entries()) {
    const { rows } = await client.query<{ serial: number }>(
      kind === "regular"
        ? `insert into regular_titles (product_id, title, disc, qty_to_list, current_price_cents)
           values ('PROP-' || gen_random_uuid(), 'Property Probe', 'DVD', $1, 1000)
           returning reg_serial_no as serial`
        : `insert into adult_titles (product_id, title, quantity, price_cents)
           values (900000, 'Property Probe', $1, 1000) returning adult_serial_no as serial`,
      [stocks[i]],
    );
    serials.push(rows[0]!.serial);
  }
  return serials;
}

async function stockOf(client: pg.Client, titles: Title[], serials: number[]) {
  const stock: number[] = [];
  for (const [i, { kind }] of titles.entries()) {
    const { rows } = await client.query<{ qty: number }>(
      kind === "regular"
        ? "select qty_to_list as qty from regular_titles where reg_serial_no = $1"
        : "select quantity as qty from adult_titles where adult_serial_no = $1",
      [serials[i]],
    );
    stock.push(rows[0]!.qty);
  }
  return stock;
}

/** The statement's RR001 detail with the titles' places instead of their serial numbers. */
async function refusalOf(
  client: pg.Client,
  statement: () => Promise<unknown>,
  titles: Title[],
  serials: number[],
): Promise<string | null> {
  await client.query("savepoint attempt");
  try {
    await statement();
    return null;
  } catch (error) {
    const { code, detail } = error as { code?: string; detail?: string };
    if (code !== "RR001") throw error;
    await client.query("rollback to savepoint attempt");
    return detail!
      .split(",")
      .map((entry) => {
        const [kind, serial, left] = entry.split(":");
        const place = titles.findIndex((t, i) => t.kind === kind && serials[i] === Number(serial));
        return `${kind}:#${place}:${left}`;
      })
      .join(",");
  }
}

/** `place_order`'s arguments for an order of these lines. */
function orderArguments(titles: Title[], serials: number[], lines: Line[]) {
  return [
    lines.map((line) => titles[line.title]!.kind),
    lines.map((line) => serials[line.title]!),
    lines.map((line) => line.quantity),
    lines.map(() => "Property Probe"),
    lines.map(() => 1000),
  ];
}

function placeOrderIn(client: pg.Client, user: string, key: string, args: unknown[][]) {
  return client.query(
    `select placed_id from place_order($1, $2, 'Ada Lovelace', '12 Analytical Way', 'Austin',
       'TX', '78701', '(512) 555-0100', 'ada@example.test', 'standard', 0, 0, 0, 0,
       now() + interval '45 minutes', now(), $3::text[], $4::integer[], $5::integer[],
       $6::text[], $7::integer[], '1980-05-17')`,
    [user, key, ...args],
  );
}

/** The next order placed by `place_order`, the open checkout placed first and released by it. */
function byPlaceOrder(titles: Title[], held: number[], next: number[]): Promise<Outcome> {
  return rolledBack(async (client) => {
    const user = `prop-${crypto.randomUUID()}`;
    await client.query(
      "insert into users (id, name, email, email_verified) values ($1, 'P', $1 || '@example.test', true)",
      [user],
    );
    await client.query(
      "insert into customers (id, email, first_name, last_name) values ($1, $1 || '@example.test', 'P', 'Q')",
      [user],
    );
    const serials = await addTitles(
      client,
      titles,
      titles.map((t) => t.stock),
    );
    const heldLines = linesOf(titles, held);
    if (heldLines.length > 0) {
      await placeOrderIn(client, user, "held", orderArguments(titles, serials, heldLines));
    }
    const args = orderArguments(titles, serials, linesOf(titles, next));
    const refused = await refusalOf(
      client,
      () => placeOrderIn(client, user, "next", args),
      titles,
      serials,
    );
    return { refused, stock: await stockOf(client, titles, serials) };
  });
}

/**
 * The same lines taken by `take_stock` from shelves as the release leaves them: every title's
 * stock, the open checkout's copies back.
 */
function byTakeStock(titles: Title[], next: number[]): Promise<Outcome> {
  return rolledBack(async (client) => {
    const serials = await addTitles(
      client,
      titles,
      titles.map((t) => t.stock),
    );
    const [types, serialNos, quantities] = orderArguments(titles, serials, linesOf(titles, next));
    const refused = await refusalOf(
      client,
      () =>
        client.query("select take_stock($1::text[], $2::integer[], $3::integer[])", [
          types,
          serialNos,
          quantities,
        ]),
      titles,
      serials,
    );
    return { refused, stock: await stockOf(client, titles, serials) };
  });
}

describe("placing an order, against taking its stock line by line", () => {
  it("serves the same lines, leaves the same stock and names the same shortages", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ titles, held, next }) => {
        const placed = await byPlaceOrder(titles, held, next);
        const taken = await byTakeStock(titles, next);
        expect(placed.refused).toEqual(taken.refused);
        if (placed.refused === null) {
          expect(placed.stock).toEqual(taken.stock);
        } else {
          // Refused: nothing moved, the release undone with the rest.
          expect(placed.stock).toEqual(titles.map((t, i) => t.stock - held[i]!));
        }
      }),
      propertyRuns(60),
    );
  });
});
