// What the title tables' update trigger (catalogue_rows_changed, migrations 0011 and 0019) tells
// the server processes, which drop their kept pages by it (server/page-cache.ts): any change but
// stock, plainly ('<version>'); stock alone, only where a title's page reads differently, naming
// those titles ('<version> regular:12,15'). A database of this file's own: the shop's other
// tests change titles all along, and each notification reaches every listener.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase } from "#tests/support/scratch-database.ts";

const scratch = scratchDatabase();
let shop: pg.Client;
let listener: pg.Client;
const heard: { channel: string; payload: string }[] = [];

beforeAll(async () => {
  shop = new pg.Client(scratch.url());
  listener = new pg.Client(scratch.url());
  await Promise.all([shop.connect(), listener.connect()]);
  listener.on("notification", ({ channel, payload }) => heard.push({ channel, payload: payload! }));
  await listener.query("listen catalogue_changed");
  await listener.query("listen test_probe");
});

afterAll(() => Promise.all([shop.end(), listener.end()]));

/** Waits until every notification of what was committed so far has arrived: they come in order. */
let probes = 0;
async function settled() {
  const probe = String(++probes);
  await listener.query(`notify test_probe, '${probe}'`);
  while (!heard.some((message) => message.channel === "test_probe" && message.payload === probe)) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * What the catalogue's notifications said of the statement `change`, committed on its own: each
 * stock notification as '<kind>:<serials, sorted>', and a plain one as "anything".
 */
async function announced(change: string, values: unknown[] = []) {
  await settled();
  heard.length = 0;
  await shop.query(change, values);
  await settled();
  return heard
    .filter((message) => message.channel === "catalogue_changed")
    .map((message) => {
      const [version, stock] = message.payload.split(" ");
      expect(version).toMatch(/^\d+$/);
      if (!stock) return "anything";
      const [kind, serials] = stock.split(":");
      return `${kind}:${serials!.split(",").sort().join(",")}`;
    });
}

async function regularTitle(qty: number) {
  const { rows } = await shop.query<{ serial: number }>(
    `insert into regular_titles (product_id, title, disc, qty_to_list, current_price_cents,
                                 release_year, genres, director, "cast", description, type,
                                 poster_url)
     values ('NOTE-' || gen_random_uuid(), 'Notice Probe', 'DVD', $1, 1000, 1999, 'Drama',
             'A Director', 'A Cast', 'A description', 'Feature', '/posters/a.webp')
     returning reg_serial_no as serial`,
    [qty],
  );
  return rows[0]!.serial;
}

async function adultTitle(quantity: number) {
  const { rows } = await shop.query<{ serial: number }>(
    `insert into adult_titles (product_id, title, quantity, price_cents, condition, production,
                               release_date, disc, genre, poster_url, description)
     values (900000, 'Notice Probe', $1, 1000, 'New', 'A Production', '2001-02-03', 'DVD',
             'A Genre', '/posters/b.webp', 'A description')
     returning adult_serial_no as serial`,
    [quantity],
  );
  return rows[0]!.serial;
}

const sorted = (...serials: number[]) => serials.map(String).sort().join(",");

describe("the catalogue's notifications", () => {
  it("name the titles whose stock is among the last few before or after, and only those", async () => {
    const [plenty, few, more] = [
      await regularTitle(10),
      await regularTitle(2),
      await regularTitle(50),
    ];
    const all = [plenty, few, more];
    const update =
      "update regular_titles set qty_to_list = qty_to_list - 1 where reg_serial_no = any ($1)";
    expect(await announced(update, [all])).toEqual([`regular:${sorted(few)}`]);
    expect(
      await announced(
        "update regular_titles set qty_to_list = case when reg_serial_no = $1 then 3 else 40 end where reg_serial_no = any ($2)",
        [plenty, [plenty, more]],
      ),
    ).toEqual([`regular:${sorted(plenty)}`]);
    // Two of the last few at once (3 → 2 and 1 → 0): one notification naming both.
    expect(await announced(update, [[plenty, few]])).toEqual([`regular:${sorted(plenty, few)}`]);
    // Plenty left before and after, the time of the change written too: no page reads otherwise.
    expect(await announced(update, [[more]])).toEqual([]);
    expect(
      await announced(
        "update regular_titles set qty_to_list = qty_to_list + 5, updated_at = now() where reg_serial_no = $1",
        [more],
      ),
    ).toEqual([]);

    const adult = await adultTitle(5);
    const adultUpdate = "update adult_titles set quantity = $2 where adult_serial_no = $1";
    expect(await announced(adultUpdate, [adult, 4])).toEqual([]);
    expect(await announced(adultUpdate, [adult, 2])).toEqual([`adult:${adult}`]);
    expect(await announced(adultUpdate, [adult, 9])).toEqual([`adult:${adult}`]);
  });

  it("announce a change of any other column plainly, stock changed with it or not", async () => {
    for (const [table, stock] of [
      ["regular_titles", "qty_to_list"],
      ["adult_titles", "quantity"],
    ] as const) {
      const serial = table === "regular_titles" ? await regularTitle(20) : await adultTitle(20);
      const key = table === "regular_titles" ? "reg_serial_no" : "adult_serial_no";
      // Every column the table has, a new one included: a change of it may show on a page.
      const { rows: columns } = await shop.query<{ name: string; type: string }>(
        `select column_name as name, data_type as type from information_schema.columns
          where table_schema = 'public' and table_name = $1 and column_name not in ($2, 'updated_at', $3)
          order by ordinal_position`,
        [table, stock, key],
      );
      expect(columns.length).toBeGreaterThan(8);
      for (const [i, { name, type }] of columns.entries()) {
        const changed =
          type === "text"
            ? `case when "${name}" = 'DVD' then 'Blu-ray' else coalesce("${name}", '') || 'x' end`
            : type === "integer"
              ? `coalesce("${name}", 2000) + 1`
              : type === "date"
                ? `coalesce("${name}", date '2000-01-01') + 1`
                : type.startsWith("timestamp")
                  ? `coalesce("${name}", now()) + interval '1 day'`
                  : null;
        expect(changed, `how to change ${table}.${name} (${type})`).not.toBeNull();
        // Every other one with stock changed too (plenty left either way).
        const withStock = i % 2 ? `, ${stock} = ${stock} + 1` : "";
        expect(
          await announced(
            `update ${table} set "${name}" = ${changed}${withStock} where ${key} = $1`,
            [serial],
          ),
          `${table}.${name}`,
        ).toEqual(["anything"]);
      }
    }
  });
});
