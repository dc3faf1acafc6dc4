import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { counterRefunds, counterReturns } from "#app/db/schema.ts";
import { refundCeiling } from "#app/domain/accounts/permissions.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import type { PaymentProvider } from "#app/domain/payments/provider.server.ts";
import { createTestProvider } from "#app/domain/payments/test-provider.server.ts";
import { createTestCardReader } from "#app/domain/payments/card-reader.server.ts";
import { cardOutcome, chargeCard } from "./card-payments.server.ts";
import { stockLedger } from "#app/domain/stock/ledger.server.ts";
import { createRegularTitle, regularStock } from "#tests/support/order-fixtures.ts";
import { createStaff } from "#tests/support/staff.ts";
import type { Database } from "#app/db/client.server.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { freshTill } from "#tests/support/till.ts";
import { productNow } from "./lookup.server.ts";
import { reconcileCounter } from "./reconcile-counter.server.ts";
import { recordCounterReturn, saleForReturn, type CounterReturnInput } from "./returns.server.ts";
import { addToSale, getSale, paySale } from "./sales.server.ts";
import { closeTillSession } from "./till.server.ts";
import { zReportRows } from "./z-report-csv.ts";

// A database of its own: the shop has one till, and the counter's sales tests open and close it
// too, in another file at the same time.
const scratch = scratchDatabase();
let db: Database;
const CONFIG = { taxRate: 82_500, timeZone: "America/Chicago", windowDays: 30 };
const PAID = new Date("2026-11-27T18:00:00Z");
const LATER = new Date("2026-12-01T18:00:00Z");
const provider = createTestProvider({ appEnv: "test" });
const reader = createTestCardReader({ appEnv: "test" });
let clerk: Staff;
let tillId: number;

beforeAll(async () => {
  db = scratch.db();
  clerk = await createStaff(db, "Robin Returns");
});

/** Each test works at a till of its own. */
beforeEach(async () => {
  tillId = await freshTill(db, clerk, CONFIG.taxRate);
});

/** A sale of these titles paid at the till, by card for `cardCents` and the rest in cash. */
async function paidSale(titles: { serialNo: number; quantity: number }[], cardCents = 0) {
  let saleId = 0;
  for (const title of titles) {
    const product = (await productNow(db, "regular", title.serialNo))!;
    const added = await addToSale(db, tillId, product, title.quantity, clerk);
    if (!added.ok) throw new Error(added.message);
    saleId = added.saleId;
  }
  const total = (await getSale(db, saleId, CONFIG.taxRate))!.totals.totalCents;
  if (cardCents === 0) {
    const paid = await paySale(
      db,
      { saleId, cashTenderedCents: total, idCheckBirthDate: null },
      CONFIG,
      clerk,
      PAID,
    );
    if (!paid.ok) throw new Error(paid.message);
  } else {
    // The card's part through the (test) card reader, the rest in cash.
    const input = {
      saleId,
      cardCents,
      cashTenderedCents: total - cardCents,
      idCheckBirthDate: null,
    };
    const charged = await chargeCard(db, reader, input, CONFIG, clerk, PAID);
    if (!charged.ok) throw new Error(charged.message);
    const outcome = await cardOutcome(
      db,
      {
        saleId,
        attempt: charged.attempt,
        reference: `pi_test_${saleId}`,
        paid: true,
        amountCents: cardCents,
      },
      PAID,
    );
    if (outcome !== "paid") throw new Error(`The card came out ${outcome}.`);
  }
  return (await getSale(db, saleId, CONFIG.taxRate))!;
}

function returning(
  saleId: number,
  quantities: [number, number][],
  more: Partial<CounterReturnInput> = {},
): CounterReturnInput {
  return {
    saleId,
    key: randomUUID(),
    reason: "Changed my mind",
    quantities: new Map(quantities),
    ...more,
  };
}

const options = (more: Partial<Parameters<typeof recordCounterReturn>[2]> = {}) => ({
  staff: clerk,
  limitCents: undefined,
  cardProvider: provider,
  config: CONFIG,
  now: LATER,
  ...more,
});

async function refundRows(returnId: number) {
  return db
    .select({
      method: counterRefunds.method,
      amountCents: counterRefunds.amountCents,
      providerReference: counterRefunds.providerReference,
      tillSessionId: counterRefunds.tillSessionId,
    })
    .from(counterRefunds)
    .where(eq(counterRefunds.returnId, returnId));
}

describe("a counter return", () => {
  it("refunds a cash sale in cash from the till and puts the units back on stock once", async () => {
    const title = await createRegularTitle(db, { qty: 3, priceCents: 1999 });
    const sale = await paidSale([{ serialNo: title.serialNo, quantity: 2 }]);
    const line = sale.lines[0]!;
    const input = returning(sale.id, [[line.id, 1]]);
    const done = await recordCounterReturn(db, input, options());
    expect(done).toMatchObject({ ok: true, replayed: false });
    if (!done.ok) return;
    // Half of 2 × 19.99 and half of its 3.30 tax.
    expect(await refundRows(done.returnId)).toEqual([
      { method: "cash", amountCents: 1999 + 165, providerReference: null, tillSessionId: tillId },
    ]);
    expect(await regularStock(db, title.serialNo)).toBe(2);
    const [move] = await stockLedger(db, { type: "regular", id: title.serialNo });
    expect(move).toMatchObject({
      change: 1,
      reason: "counter_return",
      reference: `return CR-${done.returnId}`,
      actorName: "Robin Returns",
    });
    // The same form again (a double press, a replay) records nothing more.
    expect(await recordCounterReturn(db, input, options())).toMatchObject({
      ok: true,
      replayed: true,
      returnId: done.returnId,
    });
    const twice = await Promise.all([
      recordCounterReturn(db, { ...input, key: "twice-" + input.key }, options()),
      recordCounterReturn(db, { ...input, key: "twice-" + input.key }, options()),
    ]);
    expect(twice.map((t) => t.ok && t.replayed).sort()).toEqual([false, true]);
    expect(await regularStock(db, title.serialNo)).toBe(3);
    const left = (await saleForReturn(db, sale.id, CONFIG, LATER))!;
    expect(left.lines[0]).toMatchObject({ returned: 2, returnable: 0 });
    expect(left.why).toBe(`Everything on sale ${sale.number} has been returned.`);
    // Both returns together gave back exactly what the sale took.
    const given = await db
      .select({ cents: sql<number>`sum(${counterReturns.amountCents})::int` })
      .from(counterReturns)
      .where(eq(counterReturns.saleId, sale.id));
    expect(given[0]!.cents).toBe(sale.totals.totalCents);
  });

  it("takes the last unit of a line back once when two returns of it are made at once", async () => {
    const title = await createRegularTitle(db, { qty: 1, priceCents: 1000 });
    const sale = await paidSale([{ serialNo: title.serialNo, quantity: 1 }]);
    const line = sale.lines[0]!;
    const both = await Promise.all([
      recordCounterReturn(db, returning(sale.id, [[line.id, 1]]), options()),
      recordCounterReturn(db, returning(sale.id, [[line.id, 1]]), options()),
    ]);
    expect(both.filter((result) => result.ok)).toHaveLength(1);
    expect(both.find((result) => !result.ok)).toMatchObject({
      reason: "invalid",
      message: `Every “${line.name}” of this sale has come back already.`,
    });
    expect(await regularStock(db, title.serialNo)).toBe(1);
  });

  it("refuses more than was sold less what came back, and outside the returns window", async () => {
    const title = await createRegularTitle(db, { qty: 2, priceCents: 1000 });
    const sale = await paidSale([{ serialNo: title.serialNo, quantity: 1 }]);
    const line = sale.lines[0]!;
    expect(await recordCounterReturn(db, returning(sale.id, [[line.id, 2]]), options())).toEqual({
      ok: false,
      reason: "invalid",
      message: `At most 1 of “${line.name}” can come back.`,
      field: `qty-${line.id}`,
    });
    expect(
      await recordCounterReturn(db, returning(sale.id, [[line.id, 0]]), options()),
    ).toMatchObject({ ok: false, field: "lines" });
    const late = new Date("2026-12-28T07:00:00Z");
    expect(
      await recordCounterReturn(db, returning(sale.id, [[line.id, 1]]), options({ now: late })),
    ).toEqual({
      ok: false,
      reason: "conflict",
      message: `The 30-day return window for sale ${sale.number} closed on December 27, 2026.`,
    });
    expect(await regularStock(db, title.serialNo)).toBe(1);
  });

  it("needs an open till to refund cash, and refuses a clerk above the refund limit", async () => {
    const title = await createRegularTitle(db, { qty: 2, priceCents: 15_000 });
    const sale = await paidSale([{ serialNo: title.serialNo, quantity: 1 }]);
    const line = sale.lines[0]!;
    const limit = refundCeiling("clerk", 10_000);
    expect(
      await recordCounterReturn(
        db,
        returning(sale.id, [[line.id, 1]]),
        options({ limitCents: limit }),
      ),
    ).toEqual({
      ok: false,
      reason: "forbidden",
      message:
        "This return would refund $162.38, more than the $100.00 a clerk may refund: an admin must make this refund.",
    });
    expect(refundCeiling("admin", 10_000)).toBeUndefined();
    await closeTillSession(db, tillId, 10_000 + sale.totals.totalCents, clerk);
    expect(await recordCounterReturn(db, returning(sale.id, [[line.id, 1]]), options())).toEqual({
      ok: false,
      reason: "conflict",
      message: "Open the till to refund cash.",
    });
    expect(await regularStock(db, title.serialNo)).toBe(1);
    expect((await saleForReturn(db, sale.id, CONFIG, LATER))!.returns).toEqual([]);
  });

  it("holds a clerk's refund limit for all the returns of one sale together", async () => {
    const title = await createRegularTitle(db, { qty: 3, priceCents: 4_000 });
    const sale = await paidSale([{ serialNo: title.serialNo, quantity: 2 }]);
    const line = sale.lines[0]!;
    const limit = { limitCents: refundCeiling("clerk", 6_000) };
    // $43.30 a copy with its tax: one is within the clerk's $60.00, two are not.
    expect(
      await recordCounterReturn(db, returning(sale.id, [[line.id, 1]]), options(limit)),
    ).toMatchObject({ ok: true });
    expect(
      await recordCounterReturn(db, returning(sale.id, [[line.id, 1]]), options(limit)),
    ).toEqual({
      ok: false,
      reason: "forbidden",
      message:
        "This return would refund $43.30, which with the $43.30 refunded before comes to more than the $60.00 a clerk may refund on one sale: an admin must make this refund.",
    });
    expect(await regularStock(db, title.serialNo)).toBe(2);
    expect(
      await recordCounterReturn(db, returning(sale.id, [[line.id, 1]]), options()),
    ).toMatchObject({ ok: true });
  });

  it("refunds the card that paid through the provider, a split sale card first", async () => {
    const title = await createRegularTitle(db, { qty: 4, priceCents: 2000 });
    const sale = await paidSale([{ serialNo: title.serialNo, quantity: 2 }], 3000);
    const line = sale.lines[0]!;
    const first = await recordCounterReturn(db, returning(sale.id, [[line.id, 1]]), options());
    if (!first.ok) throw new Error(first.message);
    const [card] = await refundRows(first.returnId);
    expect(card).toMatchObject({ method: "card", amountCents: 2165 });
    expect(card!.providerReference).toMatch(/^test_refund_/);
    // The card paid $30.00 and has had $21.65 back; the rest of the second goes back in cash.
    const second = await recordCounterReturn(db, returning(sale.id, [[line.id, 1]]), options());
    if (!second.ok) throw new Error(second.message);
    expect((await refundRows(second.returnId)).map((r) => [r.method, r.amountCents])).toEqual([
      ["cash", 2165 - 835],
      ["card", 835],
    ]);
    const report = await reconcileCounter(db, null);
    expect(report.differences.filter((d) => d.counter === sale.number)).toEqual([]);
  });

  it("records nothing when the card provider refuses the refund", async () => {
    const title = await createRegularTitle(db, { qty: 1, priceCents: 2000 });
    const sale = await paidSale([{ serialNo: title.serialNo, quantity: 1 }], 1000);
    const refusing: PaymentProvider = {
      ...provider,
      async refundPayment() {
        throw new Error("card_declined");
      },
    };
    const input = returning(sale.id, [[sale.lines[0]!.id, 1]]);
    expect(await recordCounterReturn(db, input, options({ cardProvider: refusing }))).toMatchObject(
      {
        ok: false,
        reason: "refund-failed",
      },
    );
    expect(await regularStock(db, title.serialNo)).toBe(0);
    expect((await saleForReturn(db, sale.id, CONFIG, LATER))!.returns).toEqual([]);
    // Tried again once the provider answers: recorded.
    expect(await recordCounterReturn(db, input, options())).toMatchObject({ ok: true });
    expect(await regularStock(db, title.serialNo)).toBe(1);
  });
});

describe("the Z report with returns", () => {
  it("counts the refunds by method, the cash ones out of the drawer, and keeps them", async () => {
    const title = await createRegularTitle(db, { qty: 2, priceCents: 1000 });
    const sale = await paidSale([{ serialNo: title.serialNo, quantity: 2 }]);
    const done = await recordCounterReturn(
      db,
      returning(sale.id, [[sale.lines[0]!.id, 1]]),
      options(),
    );
    if (!done.ok) throw new Error(done.message);
    // Float 100.00 + the sale's 21.65 in cash - 10.83 back in cash.
    const expected = 10_000 + 2165 - 1083;
    const closed = await closeTillSession(db, tillId, expected, clerk);
    if (!closed.ok) throw new Error(closed.message);
    expect(closed.report).toMatchObject({
      cashCents: 2165,
      returns: 1,
      cashRefundCents: 1083,
      cardRefundCents: 0,
      creditRefundCents: 0,
      expectedCashCents: expected,
      overShortCents: 0,
    });
    const [header, row] = zReportRows([closed.report]);
    const columns = ["Exchange credit", "Returns", "Cash refunds", "Card refunds"];
    expect(columns.map((name) => row![header!.indexOf(name)])).toEqual([0, 1, 10.83, 0]);
    expect(row![header!.indexOf("Credit to exchanges")]).toBe(0);
    const report = await reconcileCounter(db, null);
    expect(report.differences.filter((d) => d.counter === `Till ${tillId}`)).toEqual([]);
  });
});

describe("check:money on counter returns", () => {
  it("finds a refund that no longer matches its return's lines", async () => {
    const title = await createRegularTitle(db, { qty: 1, priceCents: 1000 });
    const sale = await paidSale([{ serialNo: title.serialNo, quantity: 1 }]);
    const done = await recordCounterReturn(
      db,
      returning(sale.id, [[sale.lines[0]!.id, 1]]),
      options(),
    );
    if (!done.ok) throw new Error(done.message);
    const mine = async () =>
      (await reconcileCounter(db, null)).differences.filter(
        (d) => d.counter === `CR-${done.returnId}`,
      );
    expect(await mine()).toEqual([]);
    await db
      .update(counterRefunds)
      .set({ amountCents: 2000 })
      .where(eq(counterRefunds.returnId, done.returnId));
    expect(await mine()).toEqual([
      {
        counter: `CR-${done.returnId}`,
        what: "its lines come to $10.83 and its refunds to $20.00, the return says $10.83",
      },
    ]);
    await db
      .update(counterRefunds)
      .set({ amountCents: 1083 })
      .where(eq(counterRefunds.returnId, done.returnId));
  });
});

describe("an exchange", () => {
  it("returns a title and pays the open sale of another with its credit, in one step", async () => {
    const old = await createRegularTitle(db, { qty: 1, priceCents: 1000 });
    const next = await createRegularTitle(db, { qty: 1, priceCents: 1500 });
    const sale = await paidSale([{ serialNo: old.serialNo, quantity: 1 }]);
    const line = sale.lines[0]!;
    const exchange = (cash: number) =>
      returning(sale.id, [[line.id, 1]], {
        exchange: { cashTenderedCents: cash, idCheckBirthDate: null },
      });
    expect(await recordCounterReturn(db, exchange(0), options())).toMatchObject({
      ok: false,
      field: "exchange",
    });
    const added = await addToSale(
      db,
      tillId,
      (await productNow(db, "regular", next.serialNo))!,
      1,
      clerk,
    );
    if (!added.ok) throw new Error(added.message);
    // $16.24 for the new title, $10.83 of credit: $5.41 to pay.
    expect(await recordCounterReturn(db, exchange(500), options())).toMatchObject({
      ok: false,
      field: "cashTendered",
    });
    expect(await regularStock(db, old.serialNo)).toBe(0);
    const done = await recordCounterReturn(db, exchange(600), options());
    expect(done).toMatchObject({ ok: true });
    if (!done.ok) return;
    expect(await regularStock(db, old.serialNo)).toBe(1);
    expect(await regularStock(db, next.serialNo)).toBe(0);
    const newSale = (await getSale(db, added.saleId, CONFIG.taxRate))!;
    expect(newSale.status).toBe("paid");
    expect(newSale.payments).toEqual([
      { method: "credit", amountCents: 1083, tenderedCents: null, changeCents: null },
      { method: "cash", amountCents: 1624 - 1083, tenderedCents: 600, changeCents: 600 - 541 },
    ]);
    expect(await refundRows(done.returnId)).toEqual([
      { method: "credit", amountCents: 1083, providerReference: null, tillSessionId: tillId },
    ]);
  });
});
