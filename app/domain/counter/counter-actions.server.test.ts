import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { createTestCardReader } from "#app/domain/payments/card-reader.server.ts";
import { addStoreItem } from "#app/domain/store-items/items.server.ts";
import { storeItemSchema } from "#app/domain/store-items/item-input.ts";
import { freshBarcode } from "#tests/support/barcodes.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
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
async function shelfItem(stock: number) {
  const values = storeItemSchema.parse({
    sku: `PR-${freshBarcode(8)}`,
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
