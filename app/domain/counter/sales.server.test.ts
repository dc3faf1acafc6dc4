import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
import { handleStripeWebhook } from "#app/domain/orders/stripe-webhook.server.ts";
import { createTestCardReader, type CardReader } from "#app/domain/payments/card-reader.server.ts";
import { createStripeTerminalReader } from "#app/domain/payments/stripe-terminal.server.ts";
import { startFakeStripe, type FakeStripe } from "#tests/support/fake-stripe.ts";
import { cancelCard, cardOutcome, chargeCard } from "./card-payments.server.ts";
import { MAX_LINE_QUANTITY } from "./sale-limits.ts";
import { addToSale, changeLine, getSale, openSaleOf, paySale, voidSale } from "./sales.server.ts";
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

const reader = createTestCardReader({ appEnv: "test" });

/** Pays the open sale: cash through `paySale`, a card part through the (test) card reader. */
async function payWith(
  saleId: number,
  tender: { cardCents: number; cashTenderedCents: number },
  idCheckBirthDate: string | null = null,
) {
  if (tender.cardCents === 0) {
    return paySale(
      db,
      { saleId, cashTenderedCents: tender.cashTenderedCents, idCheckBirthDate },
      CONFIG,
      clerk,
    );
  }
  const charged = await chargeCard(
    db,
    reader,
    { saleId, ...tender, idCheckBirthDate },
    CONFIG,
    clerk,
  );
  if (!charged.ok) return charged;
  const sale = (await getSale(db, saleId, CONFIG.taxRate))!;
  const outcome = await cardOutcome(db, {
    saleId,
    attempt: charged.attempt,
    reference: `test_reader_${saleId}_${charged.attempt}`,
    paid: true,
    amountCents: sale.cardCents!,
  });
  expect(outcome).toBe("paid");
  const paid = (await getSale(db, saleId, CONFIG.taxRate))!;
  const changeCents = paid.payments.reduce((sum, p) => sum + (p.changeCents ?? 0), 0);
  return { ok: true as const, saleId, changeCents };
}

async function openSaleOfTill() {
  return (await openSaleOf(db, tillId, CONFIG.taxRate))?.id;
}

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

async function storeItem(stock: number, taxable = true, barcode = freshBarcode()) {
  const values = storeItemSchema.parse({
    sku: `CT-${freshBarcode(8)}`,
    name: `Counter poster ${freshBarcode(8)}`,
    priceCents: "10.00",
    stock: String(stock),
    taxable: taxable ? "yes" : "no",
    barcode,
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

describe("a scanned code in another length", () => {
  it("finds a UPC-A scanned as its EAN-13, and an EAN-13 with a leading 0 scanned as its UPC-A", async () => {
    const upc = freshBarcode(12);
    const ean = `0${freshBarcode(12)}`;
    const byUpc = await storeItem(1, true, upc);
    const byEan = await storeItem(1, true, ean);
    expect(await findByCode(db, `0${upc}`)).toMatchObject({ type: "item", id: byUpc.id });
    expect(await findByCode(db, upc)).toMatchObject({ type: "item", id: byUpc.id });
    expect(await findByCode(db, ean.slice(1))).toMatchObject({ type: "item", id: byEan.id });
    // As a GTIN-14 too (a case's code with the packaging digit 0).
    expect(await findByCode(db, `00${upc}`)).toMatchObject({ type: "item", id: byUpc.id });
    // Digits of no whole code's length are not widened: an 11-digit number finds nothing.
    expect(await findByCode(db, upc.slice(1))).toBeUndefined();
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
      { saleId, cashTenderedCents: 6000, idCheckBirthDate: null },
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
    expect(await payWith(saleId, { cardCents: 5000, cashTenderedCents: 1000 })).toMatchObject({
      ok: false,
      reason: "invalid",
      field: "cashTenderedCents",
    });
    expect(await regularStock(db, title.serialNo)).toBe(1);
    expect(await payWith(saleId, { cardCents: 5000, cashTenderedCents: 6000 })).toMatchObject({
      ok: true,
      changeCents: 6000 - 5825,
    });
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
      paySale(db, { saleId, cashTenderedCents: 5000, idCheckBirthDate: birth }, CONFIG, clerk, NOW);
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
    // Refused, nothing was written: the line still has its one copy.
    const open = (await getSale(db, (await openSaleOfTill())!, CONFIG.taxRate))!;
    expect(open.lines.map((line) => line.quantity)).toEqual([1]);
    const plenty = await storeItem(MAX_LINE_QUANTITY + 5);
    await sell("item", plenty.id, MAX_LINE_QUANTITY);
    expect(await addToSale(db, tillId, await product("item", plenty.id), 1, clerk)).toMatchObject({
      ok: false,
      reason: "invalid",
      message: `At most ${MAX_LINE_QUANTITY} of one product per sale.`,
    });
  });

  it("cannot be paid twice, nor after it was voided", async () => {
    const title = await createRegularTitle(db, { qty: 5, priceCents: 500 });
    const saleId = await sell("regular", title.serialNo);
    const input = {
      saleId,
      cashTenderedCents: 1000,
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
              { saleId, cashTenderedCents: 2000, idCheckBirthDate: null },
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

describe("card at the counter", () => {
  async function charge(saleId: number, cardCents: number | null = null, cashTenderedCents = 0) {
    const charged = await chargeCard(
      db,
      reader,
      { saleId, cardCents, cashTenderedCents, idCheckBirthDate: null },
      CONFIG,
      clerk,
    );
    if (!charged.ok) throw new Error(charged.message);
    const sale = (await getSale(db, saleId, CONFIG.taxRate))!;
    return { attempt: charged.attempt, sale, reference: `ref-${saleId}-${charged.attempt}` };
  }

  it("holds the stock while the reader asks, gives it back when the card is declined, and pays on the next card", async () => {
    const title = await createRegularTitle(db, { qty: 1, priceCents: 2000 });
    const customer = await createCustomer(db);
    const saleId = await sell("regular", title.serialNo);
    const first = await charge(saleId);
    expect(first.sale).toMatchObject({ status: "awaiting_card", cardCents: 2165 });
    expect(first.sale.cardMessage).toBeNull();
    // While the customer presents the card, the copy is theirs: the web cannot sell it.
    expect(await regularStock(db, title.serialNo)).toBe(0);
    const web = await placeOrder(
      db,
      orderInput(customer, [{ productType: "regular", serialNo: title.serialNo, quantity: 1 }]),
      TEXAS_PRICING,
    );
    expect(web).toMatchObject({ ok: false, reason: "out-of-stock" });
    // Nothing can be added to, changed on or voided from a sale the reader is charging.
    const added = await addToSale(db, tillId, await product("regular", title.serialNo), 1, clerk);
    expect(added).toMatchObject({ ok: false, reason: "conflict", field: "code" });
    expect(await voidSale(db, saleId)).toMatchObject({ ok: false });
    expect(await closeTillSession(db, tillId, 0, clerk)).toMatchObject({
      ok: false,
      message: "Finish or void the sale in progress first.",
    });

    const declined = { saleId, attempt: first.attempt, reference: first.reference };
    expect(await cardOutcome(db, { ...declined, paid: false, message: "Declined." })).toBe(
      "declined",
    );
    expect(await regularStock(db, title.serialNo)).toBe(1);
    const reopened = (await getSale(db, saleId, CONFIG.taxRate))!;
    expect(reopened).toMatchObject({ status: "open", cardMessage: "Declined.", payments: [] });
    const moves = (await stockLedger(db, { type: "regular", id: title.serialNo })).slice(0, 2);
    expect(moves.map((m) => [m.reason, m.change])).toEqual([
      ["counter_unpaid", 1],
      ["counter_sale", -1],
    ]);

    const second = await charge(saleId);
    expect(second.attempt).toBe(first.attempt + 1);
    // A late answer about the first card changes nothing: the sale waits for the second.
    expect(await cardOutcome(db, { ...declined, paid: true, amountCents: 2165 })).toBe(
      "needs-refund",
    );
    expect((await getSale(db, saleId, CONFIG.taxRate))!.status).toBe("awaiting_card");
    const paid = { saleId, attempt: second.attempt, reference: second.reference };
    expect(await cardOutcome(db, { ...paid, paid: true, amountCents: 2165 })).toBe("paid");
    expect(await cardOutcome(db, { ...paid, paid: true, amountCents: 2165 })).toBe("unchanged");
    expect(await cardOutcome(db, { ...paid, paid: false, message: "Late." })).toBe("unchanged");
    const receipt = (await getSale(db, saleId, CONFIG.taxRate))!;
    expect(receipt.status).toBe("paid");
    expect(receipt.payments).toEqual([
      { method: "card", amountCents: 2165, tenderedCents: null, changeCents: null },
    ]);
    expect(await regularStock(db, title.serialNo)).toBe(0);
  });

  it("splits a sale: the card's part to the reader, the cash with its change when the card pays", async () => {
    const item = await storeItem(3);
    const saleId = await sell("item", item.id, 2);
    // $20.00 + 8.25 % = $21.65: $15.00 on the card, $10.00 handed over, $3.35 change.
    const waiting = await charge(saleId, 1500, 1000);
    expect(waiting.sale).toMatchObject({ cardCents: 1500, cashTenderedCents: 1000 });
    const outcome = { saleId, attempt: waiting.attempt, reference: waiting.reference };
    expect(await cardOutcome(db, { ...outcome, paid: true, amountCents: 1500 })).toBe("paid");
    expect((await getSale(db, saleId, CONFIG.taxRate))!.payments).toEqual([
      { method: "card", amountCents: 1500, tenderedCents: null, changeCents: null },
      { method: "cash", amountCents: 665, tenderedCents: 1000, changeCents: 335 },
    ]);
  });

  it("refuses a card part the cash already covers, or more than the total", async () => {
    const item = await storeItem(1);
    const saleId = await sell("item", item.id);
    const refused = (cardCents: number | null, cashTenderedCents: number) =>
      chargeCard(
        db,
        reader,
        { saleId, cardCents, cashTenderedCents, idCheckBirthDate: null },
        CONFIG,
        clerk,
      );
    expect(await refused(null, 2000)).toMatchObject({ ok: false, field: "cardCents" });
    expect(await refused(5000, 0)).toMatchObject({ ok: false, field: "cardCents" });
    expect((await getSale(db, saleId, CONFIG.taxRate))!.status).toBe("open");
    expect((await product("item", item.id)).stock).toBe(1);
  });

  it("gives the stock back when the clerk cancels, or the reader cannot be reached", async () => {
    const item = await storeItem(1);
    const saleId = await sell("item", item.id);
    const waiting = await charge(saleId);
    expect((await product("item", item.id)).stock).toBe(0);
    expect(await cancelCard(db, reader, saleId)).toMatchObject({ ok: true });
    expect((await product("item", item.id)).stock).toBe(1);
    expect((await getSale(db, saleId, CONFIG.taxRate))!).toMatchObject({
      status: "open",
      cardMessage: "Card payment cancelled.",
    });
    // The card paid after all (the cancel came too late for the provider): the money goes back.
    const late = { saleId, attempt: waiting.attempt, reference: waiting.reference };
    expect(await cardOutcome(db, { ...late, paid: true, amountCents: 1083 })).toBe("needs-refund");

    const offline = {
      ...reader,
      charge: () => Promise.reject(new Error("The reader is offline.")),
    };
    expect(
      await chargeCard(
        db,
        offline,
        { saleId, cardCents: null, cashTenderedCents: 0, idCheckBirthDate: null },
        CONFIG,
        clerk,
      ),
    ).toMatchObject({ ok: false, reason: "unavailable" });
    expect((await product("item", item.id)).stock).toBe(1);
    expect((await getSale(db, saleId, CONFIG.taxRate))!.status).toBe("open");
  });

  it("keeps a reader that says the card paid before the cancel reached it waiting for its answer", async () => {
    const item = await storeItem(1);
    const saleId = await sell("item", item.id);
    const waiting = await charge(saleId);
    const paidAlready = { ...reader, cancel: async () => "already-paid" as const };
    expect(await cancelCard(db, paidAlready, saleId)).toMatchObject({ ok: false });
    expect((await getSale(db, saleId, CONFIG.taxRate))!.status).toBe("awaiting_card");
    const outcome = { saleId, attempt: waiting.attempt, reference: waiting.reference };
    expect(await cardOutcome(db, { ...outcome, paid: true, amountCents: 1083 })).toBe("paid");
  });
});

describe("card at the counter through Stripe Terminal", () => {
  const READER = "tmr_FakeCounterReader";
  const SECRET = "whsec_counter_terminal_test";
  let fake: FakeStripe;
  let terminal: CardReader;
  beforeAll(async () => {
    fake = await startFakeStripe();
    terminal = createStripeTerminalReader({
      secretKey: "sk_test_fake",
      readerId: READER,
      apiBase: fake.apiBase,
    });
  });
  afterAll(() => fake.close());

  const deliver = (event: object) =>
    handleStripeWebhook(db, {
      ...fake.signedWebhook(event, SECRET),
      webhookSecret: SECRET,
      ordersUrl: "http://shop.test/orders",
      onProblem: () => {},
    });

  it("hands a card_present payment to the reader and is paid by Stripe's signed event, once", async () => {
    const item = await storeItem(2);
    const saleId = await sell("item", item.id);
    const charged = await chargeCard(
      db,
      terminal,
      { saleId, cardCents: null, cashTenderedCents: 0, idCheckBirthDate: null },
      CONFIG,
      clerk,
    );
    if (!charged.ok) throw new Error(charged.message);
    const [intent] = [...fake.intents.values()].filter(
      (candidate) => candidate.metadata.counter_sale === String(saleId),
    );
    expect(intent).toMatchObject({
      amount: 1083,
      payment_method_types: ["card_present"],
      capture_method: "automatic",
      metadata: { counter_sale: String(saleId), card_attempt: String(charged.attempt) },
    });
    expect((await getSale(db, saleId, CONFIG.taxRate))!.status).toBe("awaiting_card");

    const declined = fake.presentCard(READER, "declines");
    expect((await deliver(declined)).body).toMatchObject({ outcome: "counter-declined" });
    const reopened = (await getSale(db, saleId, CONFIG.taxRate))!;
    expect(reopened.status).toBe("open");
    expect(reopened.cardMessage).toBe("The card was declined: Your card was declined.");

    const again = await chargeCard(
      db,
      terminal,
      { saleId, cardCents: null, cashTenderedCents: 0, idCheckBirthDate: null },
      CONFIG,
      clerk,
    );
    if (!again.ok) throw new Error(again.message);
    const paid = fake.presentCard(READER, "pays");
    expect((await deliver(paid)).body).toMatchObject({ outcome: "counter-paid" });
    expect((await deliver(paid)).body).toMatchObject({ outcome: "counter-unchanged" });
    // The first attempt's event arriving late does not reopen the paid sale.
    expect((await deliver(declined)).body).toMatchObject({ outcome: "counter-unchanged" });
    const sale = (await getSale(db, saleId, CONFIG.taxRate))!;
    expect(sale.status).toBe("paid");
    expect(sale.payments).toEqual([
      { method: "card", amountCents: 1083, tenderedCents: null, changeCents: null },
    ]);
    expect((await product("item", item.id)).stock).toBe(1);
  });

  it("cancels the reader's action, or keeps waiting when the card paid first", async () => {
    const item = await storeItem(2);
    const saleId = await sell("item", item.id);
    const charge = () =>
      chargeCard(
        db,
        terminal,
        { saleId, cardCents: null, cashTenderedCents: 0, idCheckBirthDate: null },
        CONFIG,
        clerk,
      );
    expect((await charge()).ok).toBe(true);
    expect(await cancelCard(db, terminal, saleId)).toMatchObject({ ok: true });
    const cancelled = [...fake.intents.values()].find(
      (intent) => intent.metadata.counter_sale === String(saleId),
    );
    expect(cancelled?.status).toBe("canceled");
    expect((await product("item", item.id)).stock).toBe(2);

    expect((await charge()).ok).toBe(true);
    const paid = fake.presentCard(READER, "pays");
    expect(await cancelCard(db, terminal, saleId)).toMatchObject({
      ok: false,
      message: "The card has paid already: its confirmation is on its way.",
    });
    expect((await deliver(paid)).body).toMatchObject({ outcome: "counter-paid" });
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
      const paid = await payWith(saleId, tender);
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
            const result = await payWith(saleId, {
              cardCents,
              cashTenderedCents: cashDue > 0 ? cashDue + s.extraCash : 0,
            });
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
