import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { markReadyForPickup } from "#app/domain/orders/pickups.server.ts";
import { createTestCardReader } from "#app/domain/payments/card-reader.server.ts";
import { addStoreItem } from "#app/domain/store-items/items.server.ts";
import { storeItemSchema } from "#app/domain/store-items/item-input.ts";
import { freshBarcode } from "#tests/support/barcodes.ts";
import { paidPickupOrder, UNTAXED_PRICING } from "#tests/support/order-fixtures.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { scratchOutbox } from "#tests/support/scratch-outbox.ts";
import { createStaff } from "#tests/support/staff.ts";
import { statementsOf } from "#tests/support/statements.ts";
import { freshTill } from "#tests/support/till.ts";
import { cancelCard, chargeCard } from "./card-payments.server.ts";
import { counterAction } from "./counter-actions.server.ts";
import {
  AWAITING_CARD,
  getSale,
  NO_SALE,
  openSaleOf,
  TILL_CLOSED,
  voidSale,
} from "./sales.server.ts";
import { closeTillSession } from "./till.server.ts";

// The presses of the counter's page as the route runs them. A database of this file's own: the
// shop has one till, which the other counter test files open and close at the same time.
const scratch = scratchDatabase();
// A pickup order's e-mails are queued with it.
scratchOutbox(scratch);
let db: Database;
const CONFIG = { taxRate: 82_500, timeZone: "America/Chicago" };
let clerk: Staff;
let tillId: number;

beforeAll(async () => {
  db = scratch.db();
  clerk = await createStaff(db, "Pat Presses");
});

beforeEach(async () => {
  tillId = await freshTill(db, clerk, CONFIG.taxRate);
});

/** A store item on the shelf with `stock` copies: its barcode and name. */
async function shelfItem(stock: number, sku = `PR-${freshBarcode(8)}`) {
  const values = storeItemSchema.parse({
    sku,
    name: `Press poster ${freshBarcode(8)}`,
    priceCents: "10.00",
    stock: String(stock),
    taxable: "yes",
    barcode: freshBarcode(),
  });
  const added = await addStoreItem(db, values, clerk);
  if (!added.ok) throw new Error(added.message);
  return { id: added.id, barcode: values.barcode!, name: values.name };
}

const press = (form: Record<string, string>) => counterAction(db, form, clerk, CONFIG);

describe("a press at the counter", () => {
  it("scans a barcode in two statements and pays in cash in one", async () => {
    const item = await shelfItem(5);
    let scanned: Awaited<ReturnType<typeof press>> | undefined;
    const scanning = await statementsOf(async () => {
      scanned = await press({ intent: "scan", code: item.barcode });
    });
    expect(scanned).toEqual({ ok: true, message: `Added “${item.name}”.` });
    // The code looked up, then the line added at the open till: no read of the till before.
    expect(scanning).toHaveLength(2);

    let paid: Awaited<ReturnType<typeof press>> | undefined;
    const paying = await statementsOf(async () => {
      paid = await press({ intent: "pay", cashTendered: "20" });
    });
    expect(paying).toHaveLength(1);
    const saleId = (paid as { paidSaleId: number }).paidSaleId;
    const sale = (await getSale(db, saleId, CONFIG.taxRate))!;
    expect(sale).toMatchObject({ status: "paid", tillSessionId: tillId });
    expect(sale.payments).toMatchObject([
      { method: "cash", amountCents: 1083, tenderedCents: 2000, changeCents: 917 },
    ]);
  });

  it("says why when the open till has nothing to pay, and pays nothing", async () => {
    expect(await press({ intent: "pay", cashTendered: "20" })).toMatchObject({
      ok: false,
      message: NO_SALE,
    });

    const item = await shelfItem(5);
    await press({ intent: "scan", code: item.barcode });
    const saleId = (await openSaleOf(db, tillId, CONFIG.taxRate))!.id;
    const reader = createTestCardReader({ appEnv: "test" });
    const charged = await chargeCard(
      db,
      reader,
      { saleId, cardCents: 1083, cashTenderedCents: 0, idCheckBirthDate: null },
      CONFIG,
      clerk,
    );
    expect(charged.ok).toBe(true);
    expect(await press({ intent: "pay", cashTendered: "20" })).toMatchObject({
      ok: false,
      message: AWAITING_CARD,
    });
    expect(await press({ intent: "scan", code: item.barcode })).toMatchObject({
      ok: false,
      message: AWAITING_CARD,
    });
    expect((await getSale(db, saleId, CONFIG.taxRate))!.status).toBe("awaiting_card");
    expect(await cancelCard(db, reader, saleId)).toMatchObject({ ok: true });
  });

  it("refuses a scan and a payment at a closed till", async () => {
    const item = await shelfItem(5);
    await press({ intent: "scan", code: item.barcode });
    const saleId = (await openSaleOf(db, tillId, CONFIG.taxRate))!.id;
    // A till closes with no sale on it.
    await voidSale(db, saleId);
    const closed = await closeTillSession(db, tillId, 10_000, clerk);
    expect(closed.ok).toBe(true);
    expect(await press({ intent: "scan", code: item.barcode })).toMatchObject({
      ok: false,
      message: TILL_CLOSED,
    });
    expect(await press({ intent: "pay", cashTendered: "20" })).toMatchObject({
      ok: false,
      message: TILL_CLOSED,
    });
    expect((await getSale(db, saleId, CONFIG.taxRate))!.status).toBe("voided");
  });

  it("names the product that sold out while the sale was open, and takes nothing", async () => {
    const item = await shelfItem(1);
    await press({ intent: "scan", code: item.barcode });
    await db.execute(`update store_items set stock = 0 where id = ${item.id}`);
    expect(await press({ intent: "pay", cashTendered: "20" })).toMatchObject({
      ok: false,
      message: `“${item.name}” is sold out.`,
    });
    const sale = (await openSaleOf(db, tillId, CONFIG.taxRate))!;
    expect(sale.status).toBe("open");
  });
});

describe("a scanned code that opens something else", () => {
  it("opens a paid sale by its receipt's number, or by the address its QR code carries", async () => {
    const item = await shelfItem(5);
    await press({ intent: "scan", code: item.barcode });
    const { paidSaleId } = (await press({ intent: "pay", cashTendered: "20" })) as {
      paidSaleId: number;
    };
    const number = `S-${paidSaleId}`;
    for (const code of [
      number,
      `s${paidSaleId}`,
      `http://127.0.0.1:3000/counter/sales/${number}`,
      // A receipt printed under another address of the shop, and one behind a path.
      ` https://old-name.example/shop/counter/sales/${number}/ `,
    ]) {
      expect(await press({ intent: "scan", code })).toEqual({ ok: true, openSale: number });
    }
    // Not a receipt's address: another page of the sale, an unknown sale.
    for (const code of [
      `https://shop.example/counter/sales/${number}/return`,
      `https://shop.example/counter/sales/S-${paidSaleId + 1_000_000}`,
    ]) {
      expect(await press({ intent: "scan", code })).toMatchObject({
        ok: false,
        reason: "not-found",
        message: `Nothing found for “${code}”.`,
      });
    }
    // Nothing was added to a sale meanwhile.
    expect(await openSaleOf(db, tillId, CONFIG.taxRate)).toBeUndefined();
  });

  it("opens a web order's pickup by its code, unless a product has that code", async () => {
    const placed = await paidPickupOrder(db, {
      ordersUrl: "http://shop.test/orders",
      config: { ...UNTAXED_PRICING, timeZone: CONFIG.timeZone },
    });
    const ready = await markReadyForPickup(
      db,
      { orderId: placed.orderId },
      { staff: clerk, ordersUrl: "http://shop.test/orders" },
    );
    if (!ready.ok) throw new Error(ready.message);
    const code = ready.pickupCode;
    // As the QR code gives it, and as a clerk types it.
    for (const scanned of [code, `${code.slice(0, 4).toLowerCase()} ${code.slice(4)}`]) {
      expect(await press({ intent: "scan", code: scanned })).toEqual({
        ok: true,
        openPickup: code,
      });
    }
    // A code of the right shape that no order has is searched for as words.
    const unknown = code === "ZZZZ2222" ? "ZZZZ3333" : "ZZZZ2222";
    expect(await press({ intent: "scan", code: unknown })).toMatchObject({
      ok: false,
      reason: "not-found",
    });
    // A product whose SKU reads as the same code is sold: the shelf comes first.
    const item = await shelfItem(3, code);
    expect(await press({ intent: "scan", code })).toEqual({
      ok: true,
      message: `Added “${item.name}”.`,
    });
  });
});
