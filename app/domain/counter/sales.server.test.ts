import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase } from "#app/db/client.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { placeOrder } from "#app/domain/orders/place-order.server.ts";
import { stockLedger } from "#app/domain/stock/ledger.server.ts";
import { addStoreItem } from "#app/domain/store-items/items.server.ts";
import { storeItemSchema } from "#app/domain/store-items/item-input.ts";
import { freshBarcode } from "#tests/support/barcodes.ts";
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
import { queuedBehindRowLock } from "#tests/support/row-lock.ts";
import { createStaff } from "#tests/support/staff.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { freshTill } from "#tests/support/till.ts";
import { inject } from "vitest";
import { findByCode, productNow, searchProducts } from "./lookup.server.ts";
import { reconcileCounter } from "./reconcile-counter.server.ts";
import { addToSale, changeLine, getSale, paySale, voidSale } from "./sales.server.ts";
import { closeTillSession, openTill, openTillSession } from "./till.server.ts";

const db = testDatabase();
const CONFIG = { taxRate: 82_500, timeZone: "America/Chicago" };
const NOW = new Date("2026-11-27T18:00:00Z");
let clerk: Staff;
let tillId: number;

beforeAll(async () => {
  clerk = await createStaff(db, "Casey Counter");
});

/** Each test sells from a till of its own: the one open before it is closed first. */
beforeEach(async () => {
  tillId = await freshTill(db, clerk, CONFIG.taxRate);
});

async function product(type: "regular" | "adult" | "item", id: number) {
  const found = await productNow(db, type, id);
  if (!found) throw new Error(`no ${type} ${id}`);
  return found;
}

async function sell(type: "regular" | "adult" | "item", id: number, quantity = 1) {
  const added = await addToSale(db, tillId, await product(type, id), quantity, clerk);
  if (!added.ok) throw new Error(added.message);
  return added.saleId;
}

async function storeItem(stock: number, taxable = true) {
  const values = storeItemSchema.parse({
    sku: `CT-${freshBarcode(8)}`,
    name: `Counter poster ${freshBarcode(8)}`,
    priceCents: "10.00",
    stock: String(stock),
    taxable: taxable ? "yes" : "no",
    barcode: freshBarcode(),
  });
  const added = await addStoreItem(db, values, clerk);
  if (!added.ok) throw new Error(added.message);
  return { id: added.id, barcode: values.barcode! };
}

describe("finding a product at the counter", () => {
  it("finds a scanned barcode, a serial, an adult serial, a SKU and words of a name", async () => {
    const title = await createRegularTitle(db, { qty: 2, priceCents: 1500 });
    const adult = await createAdultTitle(db, { qty: 1, priceCents: 2500 });
    const item = await storeItem(4);
    expect(await findByCode(db, item.barcode)).toMatchObject({ type: "item", id: item.id });
    expect(await findByCode(db, String(title.serialNo))).toMatchObject({
      type: "regular",
      id: title.serialNo,
      priceCents: 1500,
      stock: 2,
    });
    expect(await findByCode(db, `A${adult.serialNo}`)).toMatchObject({ type: "adult" });
    const sku = (await product("item", item.id)).detail.split(" · ")[1]!;
    expect(await findByCode(db, sku.toLowerCase())).toMatchObject({ id: item.id });
    expect(await findByCode(db, "00000000")).toBeUndefined();
    const found = await searchProducts(db, title.title.slice(0, 14));
    expect(found.map((p) => p.id)).toContain(title.serialNo);
    // An eight-digit serial is found when no barcode has those digits.
    const long = 80_000_000 + Math.floor(Math.random() * 9_999_999);
    await db.execute(
      sql`update regular_titles set reg_serial_no = ${long} where reg_serial_no = ${title.serialNo}`,
    );
    expect(await findByCode(db, String(long))).toMatchObject({ type: "regular", id: long });
  });
});

describe("a counter sale", () => {
  it("is paid in cash: stock taken, the ledger names the sale and the clerk, change given", async () => {
    const title = await createRegularTitle(db, { qty: 3, priceCents: 1999 });
    const item = await storeItem(2, false);
    const saleId = await sell("regular", title.serialNo, 2);
    await sell("item", item.id);
    const line = (await getSale(db, saleId, CONFIG.taxRate))!.lines[0]!;
    expect(
      await changeLine(db, saleId, line.id, {
        quantity: 2,
        discountCents: 500,
        discountReason: "Scratched case",
      }),
    ).toMatchObject({ ok: true });

    const sale = (await getSale(db, saleId, CONFIG.taxRate))!;
    // 2 × 19.99 - 5.00 = 34.98 taxable → 2.89 tax; the poster is not taxable.
    expect(sale.totals).toEqual({
      subtotalCents: 4998,
      discountCents: 500,
      taxCents: 289,
      totalCents: 4998 - 500 + 289,
    });
    const paid = await paySale(
      db,
      { saleId, tender: { cardCents: 0, cashTenderedCents: 6000 }, idCheckBirthDate: null },
      CONFIG,
      clerk,
      NOW,
    );
    expect(paid).toMatchObject({ ok: true, changeCents: 6000 - 4787 });
    expect(await regularStock(db, title.serialNo)).toBe(1);
    expect((await product("item", item.id)).stock).toBe(1);
    const [move] = await stockLedger(db, { type: "regular", id: title.serialNo });
    expect(move).toMatchObject({
      change: -2,
      stockAfter: 1,
      reason: "counter_sale",
      reference: `sale S-${saleId}`,
      actorName: "Casey Counter",
    });
    const receipt = (await getSale(db, saleId, CONFIG.taxRate))!;
    expect(receipt).toMatchObject({ status: "paid", number: `S-${saleId}` });
    expect(receipt.payments).toEqual([
      { method: "cash", amountCents: 4787, tenderedCents: 6000, changeCents: 1213 },
    ]);
  });

  it("splits between card and cash, and refuses a tender that does not cover it", async () => {
    const title = await createRegularTitle(db, { qty: 1, priceCents: 10_000 });
    const saleId = await sell("regular", title.serialNo);
    const input = { saleId, idCheckBirthDate: null };
    expect(
      await paySale(
        db,
        { ...input, tender: { cardCents: 5000, cashTenderedCents: 1000 } },
        CONFIG,
        clerk,
      ),
    ).toMatchObject({ ok: false, reason: "invalid", field: "cashTenderedCents" });
    expect(await regularStock(db, title.serialNo)).toBe(1);
    expect(
      await paySale(
        db,
        { ...input, tender: { cardCents: 5000, cashTenderedCents: 6000 } },
        CONFIG,
        clerk,
      ),
    ).toMatchObject({ ok: true, changeCents: 6000 - 5825 });
    const sale = (await getSale(db, saleId, CONFIG.taxRate))!;
    expect(sale.payments.map((p) => [p.method, p.amountCents])).toEqual([
      ["card", 5000],
      ["cash", 5825],
    ]);
  });

  it("sells adult titles only after an ID check of 18 or older, kept on the sale", async () => {
    const adult = await createAdultTitle(db, { qty: 1, priceCents: 2000 });
    const saleId = await sell("adult", adult.serialNo);
    const pay = (birth: string | null) =>
      paySale(
        db,
        { saleId, tender: { cardCents: 0, cashTenderedCents: 5000 }, idCheckBirthDate: birth },
        CONFIG,
        clerk,
        NOW,
      );
    expect(await pay(null)).toMatchObject({ ok: false, field: "idCheck" });
    // 18 on 28 November 2026 on the shop's calendar, not yet on the 27th at noon in Texas.
    expect(await pay("2008-11-28")).toMatchObject({
      ok: false,
      message: "The customer is under 18: adult titles cannot be sold.",
    });
    expect(await adultStock(db, adult.serialNo)).toBe(1);
    expect(await pay("2008-11-27")).toMatchObject({ ok: true });
    expect(await adultStock(db, adult.serialNo)).toBe(0);
    expect((await getSale(db, saleId, CONFIG.taxRate))!.idCheckBirthDate).toBe("2008-11-27");
  });

  it("refuses to add more copies than are left", async () => {
    const title = await createRegularTitle(db, { qty: 1, priceCents: 500 });
    await sell("regular", title.serialNo);
    const again = await addToSale(db, tillId, await product("regular", title.serialNo), 1, clerk);
    expect(again).toMatchObject({
      ok: false,
      reason: "conflict",
      message: `Only 1 of “${title.title}” left.`,
    });
  });

  it("cannot be paid twice, nor after it was voided", async () => {
    const title = await createRegularTitle(db, { qty: 5, priceCents: 500 });
    const saleId = await sell("regular", title.serialNo);
    const input = {
      saleId,
      tender: { cardCents: 0, cashTenderedCents: 1000 },
      idCheckBirthDate: null,
    };
    const [first, second] = await Promise.all([
      paySale(db, input, CONFIG, clerk),
      paySale(db, input, CONFIG, clerk),
    ]);
    expect([first.ok, second.ok].sort()).toEqual([false, true]);
    expect(await regularStock(db, title.serialNo)).toBe(4);
    const next = await sell("regular", title.serialNo);
    expect(await voidSale(db, next)).toMatchObject({ ok: true });
    expect(await paySale(db, { ...input, saleId: next }, CONFIG, clerk)).toMatchObject({
      ok: false,
      reason: "conflict",
    });
  });
});

describe("one stock for the counter and the web", () => {
  it("of a counter sale and a web order for the last copy, exactly one wins", async () => {
    const title = await createRegularTitle(db, { qty: 1, priceCents: 1200 });
    const customer = await createCustomer(db);
    const saleId = await sell("regular", title.serialNo);
    const { db: racing, pool } = createDatabase(inject("databaseUrl"), 6);
    try {
      const [counter, web] = await queuedBehindRowLock<{ ok: boolean }>(
        racing,
        sql`select 1 from regular_titles where reg_serial_no = ${title.serialNo} for update`,
        [
          () =>
            paySale(
              racing,
              { saleId, tender: { cardCents: 0, cashTenderedCents: 2000 }, idCheckBirthDate: null },
              CONFIG,
              clerk,
            ),
          () =>
            placeOrder(
              racing,
              orderInput(customer, [
                { productType: "regular", serialNo: title.serialNo, quantity: 1 },
              ]),
              TEXAS_PRICING,
            ),
        ],
      );
      const won = [counter!.ok, web!.ok].filter(Boolean);
      expect(won).toHaveLength(1);
      expect(await regularStock(db, title.serialNo)).toBe(0);
      if (!counter!.ok) {
        // The counter lost: it is told, and its sale stays open for the clerk to change.
        expect(counter).toMatchObject({
          reason: "conflict",
          message: `“${title.title}” is sold out.`,
        });
        expect((await getSale(db, saleId, CONFIG.taxRate))!.status).toBe("open");
      }
    } finally {
      await pool.end();
    }
  });
});

describe("the till", () => {
  it("closes with its Z report: sales by method, tax, discounts, expected against counted", async () => {
    const title = await createRegularTitle(db, { qty: 4, priceCents: 1000 });
    for (const tender of [
      { cardCents: 0, cashTenderedCents: 2000 },
      { cardCents: 1083, cashTenderedCents: 0 },
    ]) {
      const saleId = await sell("regular", title.serialNo);
      const paid = await paySale(db, { saleId, tender, idCheckBirthDate: null }, CONFIG, clerk);
      expect(paid.ok).toBe(true);
    }
    const voided = await sell("regular", title.serialNo);
    await voidSale(db, voided);
    const open = await sell("regular", title.serialNo);
    expect(await closeTillSession(db, tillId, 0, clerk)).toMatchObject({
      ok: false,
      message: "Finish or void the sale in progress first.",
    });
    await voidSale(db, open);

    const closed = await closeTillSession(db, tillId, 11_000, clerk);
    if (!closed.ok) throw new Error(closed.message);
    expect(closed.report).toMatchObject({
      sales: 2,
      voided: 2,
      subtotalCents: 2000,
      taxCents: 166,
      totalCents: 2166,
      cashCents: 1083,
      cardCents: 1083,
      floatCents: 10_000,
      expectedCashCents: 11_083,
      countedCents: 11_000,
      overShortCents: -83,
    });
    expect(await closeTillSession(db, tillId, 11_000, clerk)).toMatchObject({ ok: false });
    expect(await openTill(db)).toBeUndefined();
  });

  it("is open once at a time", async () => {
    expect(await openTillSession(db, 0, clerk)).toMatchObject({
      ok: false,
      message: "The till is already open.",
    });
  });
});

describe("a day at the till, over random sequences", () => {
  type Step =
    | { kind: "sale"; items: number[]; discount: number; card: number; extraCash: number }
    | { kind: "void"; items: number[] };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant("sale" as const),
      items: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }),
      discount: fc.integer({ min: 0, max: 500 }),
      card: fc.double({ min: 0, max: 1, noNaN: true }),
      extraCash: fc.integer({ min: 0, max: 2000 }),
    }),
    fc.record({
      kind: fc.constant("void" as const),
      items: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 2 }),
    }),
  );

  it("keeps a Z report that adds up to the sales, the tenders, the float and the stock", async () => {
    const items = [await storeItem(1000), await storeItem(1000, false), await storeItem(1000)];
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: -500, max: 500 }),
        async (steps, miscount) => {
          const open = await openTill(db);
          if (open) await closeTillSession(db, open.id, 0, clerk);
          const opened = await openTillSession(db, 5000, clerk);
          if (!opened.ok) throw new Error(opened.message);
          tillId = opened.tillId;
          const stockBefore = await Promise.all(
            items.map(async (i) => (await product("item", i.id)).stock),
          );
          const sold = [0, 0, 0];
          let total = 0;
          let card = 0;
          let paid = 0;
          let voided = 0;
          for (const s of steps) {
            let saleId = 0;
            for (const index of s.items) saleId = await sell("item", items[index]!.id);
            if (s.kind === "void") {
              await voidSale(db, saleId);
              voided += 1;
              continue;
            }
            const [line] = (await getSale(db, saleId, CONFIG.taxRate))!.lines;
            const discount = Math.min(s.discount, line!.unitPriceCents * line!.quantity);
            await changeLine(db, saleId, line!.id, {
              quantity: line!.quantity,
              discountCents: discount,
              discountReason: "Random",
            });
            const due = (await getSale(db, saleId, CONFIG.taxRate))!.totals.totalCents;
            const cardCents = Math.floor(due * s.card);
            const cashDue = due - cardCents;
            const result = await paySale(
              db,
              {
                saleId,
                tender: { cardCents, cashTenderedCents: cashDue > 0 ? cashDue + s.extraCash : 0 },
                idCheckBirthDate: null,
              },
              CONFIG,
              clerk,
            );
            expect(result).toMatchObject({ ok: true, changeCents: cashDue > 0 ? s.extraCash : 0 });
            for (const index of s.items) sold[index]! += 1;
            total += due;
            card += cardCents;
            paid += 1;
          }
          const expectedCash = 5000 + total - card;
          const closed = await closeTillSession(db, tillId, expectedCash + miscount, clerk);
          if (!closed.ok) throw new Error(closed.message);
          expect(closed.report).toMatchObject({
            sales: paid,
            voided,
            totalCents: total,
            cardCents: card,
            cashCents: total - card,
            expectedCashCents: expectedCash,
            overShortCents: miscount,
          });
          expect(
            closed.report.subtotalCents - closed.report.discountCents + closed.report.taxCents,
          ).toBe(total);
          const stockAfter = await Promise.all(
            items.map(async (i) => (await product("item", i.id)).stock),
          );
          expect(stockAfter).toEqual(stockBefore.map((before, index) => before - sold[index]!));
          const { differences } = await reconcileCounter(db, new Date(Date.now() - 60_000));
          expect(differences.filter((d) => d.counter === `Till ${tillId}`)).toEqual([]);
        },
      ),
      propertyRuns(15),
    );
  });
});
