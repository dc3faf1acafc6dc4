import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import { regularTitles, stockMoves } from "#app/db/schema.ts";
import { importCatalogCsv } from "#app/domain/catalog/catalog-csv.server.ts";
import { expireStaleOrders, releaseOrder } from "#app/domain/orders/fulfilment.server.ts";
import { placeOrder } from "#app/domain/orders/place-order.server.ts";
import {
  adultStock,
  createAdultTitle,
  createCustomer,
  createRegularTitle,
  orderInput,
  regularStock,
  TEXAS_PRICING,
} from "#tests/support/order-fixtures.ts";
import { propertyRuns } from "#tests/support/property.ts";
import { createStaff } from "#tests/support/staff.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { stockLedger } from "./ledger.server.ts";

const db = testDatabase();

/** A title's ledger oldest first, as [reason, change, stock after, reference]. */
async function movesOf(type: "regular" | "adult", id: number) {
  const rows = await stockLedger(db, { type, id });
  return rows.reverse().map((row) => [row.reason, row.change, row.stockAfter, row.reference]);
}

/** The ledger's sum for a title: what its stock must be. */
async function ledgerSum(type: "regular" | "adult", id: number) {
  const [row] = await db
    .select({ sum: sql<number>`coalesce(sum(${stockMoves.change}), 0)::integer` })
    .from(stockMoves)
    .where(and(eq(stockMoves.productType, type), eq(stockMoves.productId, id)));
  return row!.sum;
}

describe("the stock ledger", () => {
  it("starts with a new title's stock, and records nothing when no stock changes", async () => {
    const film = await createRegularTitle(db, { qty: 4, priceCents: 1200 });
    await db
      .update(regularTitles)
      .set({ currentPriceCents: 1300, description: "A new description" })
      .where(eq(regularTitles.regSerialNo, film.serialNo));
    expect(await movesOf("regular", film.serialNo)).toEqual([["added", 4, 4, null]]);
    const empty = await createRegularTitle(db, { qty: 0, priceCents: 1200 });
    expect(await movesOf("regular", empty.serialNo)).toEqual([]);
  });

  it("records an order's lines as web sales, and its release when another checkout replaces it", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 5, priceCents: 1500 });
    const adult = await createAdultTitle(db, { qty: 3, priceCents: 2500 });
    const first = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: film.serialNo, quantity: 2 },
        { productType: "adult", serialNo: adult.serialNo, quantity: 1 },
      ]),
      TEXAS_PRICING,
    );
    if (!first.ok) throw new Error(first.reason);
    const other = await createRegularTitle(db, { qty: 2, priceCents: 900 });
    // One unpaid order per account: this checkout releases the first one in the same statement.
    const second = await placeOrder(
      db,
      orderInput(customer, [{ productType: "regular", serialNo: other.serialNo, quantity: 1 }]),
      TEXAS_PRICING,
    );
    if (!second.ok) throw new Error(second.reason);

    const firstOrder = `order ${first.order.id}`;
    expect(await movesOf("regular", film.serialNo)).toEqual([
      ["added", 5, 5, null],
      ["web_sale", -2, 3, firstOrder],
      ["released", 2, 5, firstOrder],
    ]);
    expect(await movesOf("adult", adult.serialNo)).toEqual([
      ["added", 3, 3, null],
      ["web_sale", -1, 2, firstOrder],
      ["released", 1, 3, firstOrder],
    ]);
    expect(await movesOf("regular", other.serialNo)).toEqual([
      ["added", 2, 2, null],
      ["web_sale", -1, 1, `order ${second.order.id}`],
    ]);
    expect(await adultStock(db, adult.serialNo)).toBe(3);
  });

  it("records a title the next checkout takes again from the released one as a web sale of the difference", async () => {
    const customer = await createCustomer(db);
    const film = await createRegularTitle(db, { qty: 5, priceCents: 1500 });
    const given = await createRegularTitle(db, { qty: 5, priceCents: 1500 });
    const other = await createRegularTitle(db, { qty: 5, priceCents: 900 });
    const first = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: film.serialNo, quantity: 3 },
        { productType: "regular", serialNo: given.serialNo, quantity: 1 },
      ]),
      TEXAS_PRICING,
    );
    if (!first.ok) throw new Error(first.reason);
    // One update moves all three titles: each keeps its own reason and reference.
    const second = await placeOrder(
      db,
      orderInput(customer, [
        { productType: "regular", serialNo: film.serialNo, quantity: 1 },
        { productType: "regular", serialNo: other.serialNo, quantity: 1 },
      ]),
      TEXAS_PRICING,
    );
    if (!second.ok) throw new Error(second.reason);

    const [firstOrder, secondOrder] = [`order ${first.order.id}`, `order ${second.order.id}`];
    expect(await movesOf("regular", film.serialNo)).toEqual([
      ["added", 5, 5, null],
      ["web_sale", -3, 2, firstOrder],
      ["web_sale", 2, 4, secondOrder],
    ]);
    expect(await movesOf("regular", given.serialNo)).toEqual([
      ["added", 5, 5, null],
      ["web_sale", -1, 4, firstOrder],
      ["released", 1, 5, firstOrder],
    ]);
    expect(await movesOf("regular", other.serialNo)).toEqual([
      ["added", 5, 5, null],
      ["web_sale", -1, 4, secondOrder],
    ]);
  });

  it("records unpaid orders given up or past their time as releases", async () => {
    const film = await createRegularTitle(db, { qty: 6, priceCents: 1000 });
    const place = async (quantity: number) => {
      const placed = await placeOrder(
        db,
        orderInput(await createCustomer(db), [
          { productType: "regular", serialNo: film.serialNo, quantity },
        ]),
        TEXAS_PRICING,
      );
      if (!placed.ok) throw new Error(placed.reason);
      return placed.order.id;
    };
    const givenUp = await place(1);
    const late = await place(2);
    await releaseOrder(db, { orderId: givenUp, reason: "cancelled" });
    const expired = await expireStaleOrders(db, new Date(Date.now() + 24 * 3_600_000));
    expect(expired.expired).toContain(late);

    const moves = await movesOf("regular", film.serialNo);
    expect(moves.slice(0, 4)).toEqual([
      ["added", 6, 6, null],
      ["web_sale", -1, 5, `order ${givenUp}`],
      ["web_sale", -2, 3, `order ${late}`],
      ["released", 1, 4, `order ${givenUp}`],
    ]);
    // Expired in a batch with whatever else was past its time: the reference names them all.
    expect(moves[4]).toEqual(["released", 2, 6, expect.stringContaining(String(late))]);
    expect(await regularStock(db, film.serialNo)).toBe(6);
  });

  it("names a CSV import, and the staff member a transaction acts for", async () => {
    const film = await createRegularTitle(db, { qty: 1, priceCents: 1000 });
    const [row] = await db
      .select()
      .from(regularTitles)
      .where(eq(regularTitles.regSerialNo, film.serialNo));
    const csv =
      "RegSerialNo,ProductID,QtyToList,Title,Disc,CurrentPrice\n" +
      `${film.serialNo},${row!.productId},7,${row!.title},DVD,$10.00\n`;
    const report = await importCatalogCsv(db, "regular", csv, { dryRun: false });
    expect(report).toMatchObject({ updated: 1 });

    const staff = await createStaff(db, "Stella Stock");
    await db.transaction(async (tx) => {
      await withActor(tx, staff);
      await tx
        .update(regularTitles)
        .set({ qtyToList: 4 })
        .where(eq(regularTitles.regSerialNo, film.serialNo));
    });

    const ledger = await stockLedger(db, { type: "regular", id: film.serialNo });
    expect(
      ledger.reverse().map((move) => [move.reason, move.change, move.reference, move.actorName]),
    ).toEqual([
      ["added", 1, null, null],
      ["import", 6, "CSV import", null],
      ["adjustment", -3, null, "Stella Stock"],
    ]);
  });

  it("adds up to each title's stock, whatever orders are placed, replaced and given up", async () => {
    const step = fc.record({
      customer: fc.integer({ min: 0, max: 2 }),
      film: fc.integer({ min: 0, max: 2 }),
      quantity: fc.integer({ min: 1, max: 3 }),
      giveUp: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const films = await Promise.all(
          [3, 1, 4].map((qty) => createRegularTitle(db, { qty, priceCents: 800 })),
        );
        const customers = await Promise.all([0, 1, 2].map(() => createCustomer(db)));
        for (const next of steps) {
          const film = films[next.film]!;
          // Each customer's next checkout releases their earlier unpaid order; a short one
          // is refused and changes no stock.
          const placed = await placeOrder(
            db,
            orderInput(customers[next.customer]!, [
              { productType: "regular", serialNo: film.serialNo, quantity: next.quantity },
            ]),
            TEXAS_PRICING,
          );
          if (placed.ok && next.giveUp) {
            await releaseOrder(db, { orderId: placed.order.id, reason: "cancelled" });
          }
        }
        for (const film of films) {
          expect(await ledgerSum("regular", film.serialNo)).toBe(
            await regularStock(db, film.serialNo),
          );
        }
      }),
      propertyRuns(15),
    );
  });
});
