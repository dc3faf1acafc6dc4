import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { adultTitles } from "#app/db/schema.ts";
import { barcodeOf } from "#app/domain/stock/barcodes.server.ts";
import { addStoreItem } from "#app/domain/store-items/items.server.ts";
import { storeItemSchema } from "#app/domain/store-items/item-input.ts";
import { freshBarcode } from "#tests/support/barcodes.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { deleteRegularTitle } from "./admin-titles.server.ts";
import { saveAdultTitle, saveRegularTitle } from "./title-forms.server.ts";

const db = testDatabase();

const regular = (title: string, barcode: string) => ({
  fields: {
    productId: "BC-1",
    qtyToList: "2",
    title,
    disc: "DVD",
    currentPriceCents: "9.99",
    barcode,
  },
  files: {},
});

const adult = (title: string, barcode: string) => ({
  fields: { productId: "4242", priceCents: "19.99", quantity: "1", title, barcode },
  files: {},
});

async function adultCount(title: string) {
  const [row] = await db
    .select({ n: count() })
    .from(adultTitles)
    .where(eq(adultTitles.title, title));
  return row!.n;
}

describe("a title's barcode", () => {
  it("is saved with the title, shown for editing, replaced and removed", async () => {
    const code = freshBarcode();
    const saved = await saveRegularTitle(db, regular("Barcoded Film", code), { staff: null });
    if (!saved.ok) throw new Error(saved.message);
    expect(await barcodeOf(db, { type: "regular", id: saved.serialNo })).toBe(code);

    const spaced = freshBarcode(12);
    const typed = `${spaced.slice(0, 1)} ${spaced.slice(1, 6)} ${spaced.slice(6)}`;
    const edited = await saveRegularTitle(db, regular("Barcoded Film", typed), {
      serialNo: saved.serialNo,
      staff: null,
    });
    expect(edited.ok).toBe(true);
    expect(await barcodeOf(db, { type: "regular", id: saved.serialNo })).toBe(spaced);

    await saveRegularTitle(db, regular("Barcoded Film", ""), {
      serialNo: saved.serialNo,
      staff: null,
    });
    expect(await barcodeOf(db, { type: "regular", id: saved.serialNo })).toBe("");
  });

  it("names one product in the whole shop: another title or an item cannot take it", async () => {
    const code = freshBarcode();
    const first = await saveRegularTitle(db, regular("First Holder", code), { staff: null });
    expect(first.ok).toBe(true);

    const title = `Second Holder ${code}`;
    const second = await saveAdultTitle(db, adult(title, code), { staff: null });
    expect(second).toMatchObject({
      ok: false,
      reason: "invalid",
      errors: { barcode: "This barcode is on another product." },
      values: { title, barcode: code },
    });
    // Refused as a whole: no title without its barcode was left behind.
    expect(await adultCount(title)).toBe(0);

    const item = storeItemSchema.parse({
      sku: `BC-${code}`,
      name: "Poster",
      priceCents: "5",
      stock: "1",
      taxable: "",
      barcode: code,
    });
    expect(await addStoreItem(db, item, null)).toMatchObject({ ok: false, field: "barcode" });
  });

  it("is refused next to its field when its check digit is wrong, with the rest as typed", async () => {
    const code = freshBarcode();
    const wrong = code.slice(0, -1) + String((Number(code.at(-1)) + 1) % 10);
    const refused = await saveRegularTitle(db, regular("Misread Film", wrong), { staff: null });
    expect(refused).toMatchObject({
      ok: false,
      errors: { barcode: "This barcode's last digit does not match: check it or scan again." },
      values: { title: "Misread Film", barcode: wrong },
    });
  });

  it("is free again once its title is deleted", async () => {
    const code = freshBarcode();
    const saved = await saveRegularTitle(db, regular("Short-lived Film", code), { staff: null });
    if (!saved.ok) throw new Error(saved.message);
    expect(await deleteRegularTitle(db, saved.serialNo)).toBe(true);
    const again = await saveRegularTitle(db, regular("Its Successor", code), { staff: null });
    expect(again.ok).toBe(true);
  });
});
