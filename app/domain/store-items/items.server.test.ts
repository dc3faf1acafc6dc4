import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { stockLedger } from "#app/domain/stock/ledger.server.ts";
import { uploadedPosterId } from "#app/lib/uploaded-posters.ts";
import { freshBarcode } from "#tests/support/barcodes.ts";
import { createStaff } from "#tests/support/staff.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { servedStatus } from "#tests/support/uploaded-posters.ts";
import { storeItemSchema } from "./item-input.ts";
import {
  addStoreItem,
  archiveStoreItem,
  getStoreItem,
  listStoreItems,
  updateStoreItem,
} from "./items.server.ts";

const db = testDatabase();
let staff: Staff;
beforeAll(async () => {
  staff = await createStaff(db, "Ivy Items");
});

/** A valid form for a new item, each test's SKU and name its own. */
function form(overrides: Record<string, string> = {}) {
  const tag = randomUUID().slice(0, 8);
  return {
    sku: `POS-${tag}`,
    name: `Jaws one-sheet poster ${tag}`,
    priceCents: "24.99",
    stock: "3",
    taxable: "on",
    barcode: "",
    ...overrides,
  };
}

function values(typed: Record<string, string>) {
  const parsed = storeItemSchema.safeParse(typed);
  if (!parsed.success) throw new Error(parsed.error.message);
  return parsed.data;
}

describe("store items", () => {
  it("reads the form as typed: price in dollars, a checked box, a barcode with spaces", () => {
    expect(values(form({ priceCents: "$1,024.50", barcode: "0 12345 67890 5" }))).toMatchObject({
      priceCents: 102_450,
      taxable: true,
      barcode: "012345678905",
    });
    expect(values(form({ taxable: "" }))).toMatchObject({ taxable: false, barcode: null });
    const wrong = storeItemSchema.safeParse(form({ sku: "has space", barcode: "012345678904" }));
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["sku", "SKU is letters, digits, dots, dashes and underscores."],
      ["barcode", "This barcode's last digit does not match: check it or scan again."],
    ]);
  });

  it("adds, finds by SKU, name or barcode, edits and archives an item, its stock in the ledger", async () => {
    const typed = form({ barcode: "9780306406157" });
    const added = await addStoreItem(db, values(typed), staff);
    if (!added.ok) throw new Error(added.message);
    const item = await getStoreItem(db, added.id);
    expect(item).toMatchObject({ sku: typed.sku, priceCents: 2499, stock: 3, taxable: true });
    expect(item?.barcode).toBe("9780306406157");

    for (const query of [typed.sku.toLowerCase(), typed.name.slice(0, 12), "978-0306406157"]) {
      const found = await listStoreItems(db, { query, page: 1 });
      expect(found.items.map((row) => row.id)).toContain(added.id);
    }

    const edited = await updateStoreItem(
      db,
      added.id,
      values({ ...typed, stock: "1", barcode: "96385074" }),
      staff,
    );
    expect(edited).toEqual({ ok: true, id: added.id });
    expect(await getStoreItem(db, added.id)).toMatchObject({ stock: 1, barcode: "96385074" });
    // The old code is free for another product now.
    const other = await addStoreItem(db, values(form({ barcode: "9780306406157" })), staff);
    expect(other.ok).toBe(true);

    const moves = await stockLedger(db, { type: "item", id: added.id });
    expect(moves.reverse().map((move) => [move.reason, move.change, move.actorName])).toEqual([
      ["added", 3, "Ivy Items"],
      ["adjustment", -2, "Ivy Items"],
    ]);

    expect(await archiveStoreItem(db, added.id, staff)).toBe(true);
    expect(await archiveStoreItem(db, added.id, staff)).toBe(false);
    const listed = await listStoreItems(db, { query: typed.sku, page: 1 });
    expect(listed.items).toEqual([]);
    expect(await getStoreItem(db, added.id)).toMatchObject({ archived: true, barcode: null });
    expect(await updateStoreItem(db, added.id, values(typed), staff)).toMatchObject({
      ok: false,
      reason: "not-found",
    });
  });

  it("refuses a SKU or a barcode another product has, naming the field", async () => {
    const first = form({ barcode: "10012345678902" });
    expect((await addStoreItem(db, values(first), staff)).ok).toBe(true);
    expect(await addStoreItem(db, values(form({ sku: first.sku.toLowerCase() })), staff)).toEqual({
      ok: false,
      reason: "invalid",
      message: "Another item has this SKU.",
      field: "sku",
    });
    expect(await addStoreItem(db, values(form({ barcode: "10012345678902" })), staff)).toEqual({
      ok: false,
      reason: "invalid",
      message: "This barcode is on another product.",
      field: "barcode",
    });
    // The same code in another length (a UPC-A, then its EAN-13) is the same barcode.
    const upc = freshBarcode(12);
    expect((await addStoreItem(db, values(form({ barcode: upc })), staff)).ok).toBe(true);
    expect(await addStoreItem(db, values(form({ barcode: `0${upc}` })), staff)).toMatchObject({
      ok: false,
      message: "This barcode is on another product.",
      field: "barcode",
    });
  });
});

describe("a store item's photo", () => {
  let jpeg: Buffer;
  beforeAll(async () => {
    jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#775533" } })
      .jpeg()
      .toBuffer();
  });
  const photo = (name = "photo.jpg") =>
    new File([new Uint8Array(jpeg)], name, { type: "image/jpeg" });

  it("is stored as an uploaded poster is, kept by an edit without one, and replaced by a new one", async () => {
    const typed = form();
    const added = await addStoreItem(db, values(typed), staff, photo());
    if (!added.ok) throw new Error(added.message);
    const first = (await getStoreItem(db, added.id))!.photoUrl;
    expect(uploadedPosterId(first)).toBeDefined();
    expect(await servedStatus(first)).toBe(200);

    expect(await updateStoreItem(db, added.id, values({ ...typed, stock: "4" }), staff)).toEqual({
      ok: true,
      id: added.id,
    });
    expect(await getStoreItem(db, added.id)).toMatchObject({ stock: 4, photoUrl: first });

    await updateStoreItem(db, added.id, values(typed), staff, photo("new.jpg"));
    const second = (await getStoreItem(db, added.id))!.photoUrl;
    expect(second).not.toBe(first);
    expect(await servedStatus(second)).toBe(200);
    // The old photo's files went once the new one was saved.
    expect(await servedStatus(first)).toBe(404);
  });

  it("that is not an image is refused beside its field, and the item is left as it was", async () => {
    const typed = form();
    const added = await addStoreItem(db, values(typed), staff);
    if (!added.ok) throw new Error(added.message);
    const text = new File(["not a picture"], "notes.jpg", { type: "image/jpeg" });
    expect(
      await updateStoreItem(db, added.id, values({ ...typed, stock: "9" }), staff, text),
    ).toEqual({
      ok: false,
      reason: "invalid",
      message: "The photo must be a JPEG, PNG, WebP or AVIF image.",
      field: "photo",
    });
    expect(await getStoreItem(db, added.id)).toMatchObject({ stock: 3, photoUrl: null });
  });
});
