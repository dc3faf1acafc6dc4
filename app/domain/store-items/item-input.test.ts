import { describe, expect, it } from "vitest";
import { readStoreItemForm } from "./item-input.ts";

const TYPED = {
  sku: "POS-1",
  name: "Jaws one-sheet poster",
  priceCents: "$24.99",
  stock: "3",
  barcode: "0 36000 29145 2",
};

describe("the store item form", () => {
  it("reads a ticked box as taxable and an unticked one (not sent at all) as not", () => {
    const ticked = readStoreItemForm({ ...TYPED, taxable: "on" });
    expect(ticked).toMatchObject({
      ok: true,
      values: { priceCents: 2499, stock: 3, taxable: true, barcode: "036000291452" },
    });
    expect(readStoreItemForm(TYPED)).toMatchObject({ ok: true, values: { taxable: false } });
  });

  it("gives each field its message and everything typed back", () => {
    const read = readStoreItemForm({ ...TYPED, priceCents: "twenty", stock: "-1", extra: "x" });
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.errors).toEqual({
      priceCents: "Price must be a number of dollars, e.g. 12.99.",
      stock: "Stock must be a whole number, 0 or more.",
    });
    expect(read.typed).toEqual({ ...TYPED, priceCents: "twenty", stock: "-1", taxable: "" });
  });
});
