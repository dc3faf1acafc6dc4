import { describe, expect, it } from "vitest";
import {
  cartReducer,
  cartTotalCents,
  itemCountLabel,
  parseStoredCart,
  repriceLines,
  totalItems,
  type CartLine,
  type CartProduct,
} from "./cart.ts";

const dvd: CartProduct = {
  kind: "regular",
  serialNo: 1,
  title: "Alien",
  posterUrl: "/posters/regular/1.svg",
  disc: "DVD",
  priceCents: 999,
};
const bluRay: CartProduct = { ...dvd, serialNo: 2, disc: "Blu-ray", priceCents: 1999 };
const adultSameSerial: CartProduct = { ...dvd, kind: "adult", title: "Velvet Nights" };

function cartOf(...products: CartProduct[]): CartLine[] {
  return products.reduce<CartLine[]>(
    (lines, product) => cartReducer(lines, { type: "add", product }),
    [],
  );
}

describe("cartReducer", () => {
  it("adds a new line at quantity 1 and raises the quantity of the same product", () => {
    const lines = cartOf(dvd, dvd);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ mergeKey: "regular:1", quantity: 2, priceCents: 999 });
    expect(lines[0]!.lineId).toBeTruthy();
  });

  it("keeps the DVD and the Blu-ray of the same film apart, and regular apart from adult", () => {
    const lines = cartOf(dvd, bluRay, adultSameSerial);
    expect(lines.map((line) => line.mergeKey)).toEqual(["regular:1", "regular:2", "adult:1"]);
  });

  it("increases, decreases and drops a line when it reaches zero", () => {
    let lines = cartOf(dvd, bluRay);
    lines = cartReducer(lines, { type: "increase", mergeKey: "regular:2" });
    expect(lines[1]!.quantity).toBe(2);
    lines = cartReducer(lines, { type: "decrease", mergeKey: "regular:2" });
    expect(lines[1]!.quantity).toBe(1);
    lines = cartReducer(lines, { type: "decrease", mergeKey: "regular:1" });
    expect(lines.map((line) => line.mergeKey)).toEqual(["regular:2"]);
  });

  it("removes a line and clears the cart", () => {
    const lines = cartOf(dvd, bluRay);
    expect(cartReducer(lines, { type: "remove", mergeKey: "regular:1" })).toHaveLength(1);
    expect(cartReducer(lines, { type: "clear" })).toEqual([]);
  });

  it("ignores actions for lines that are not there", () => {
    const lines = cartOf(dvd);
    expect(cartReducer(lines, { type: "increase", mergeKey: "regular:9" })).toEqual(lines);
    expect(cartReducer(lines, { type: "remove", mergeKey: "regular:9" })).toEqual(lines);
  });
});

describe("totals", () => {
  it("sums quantities and price times quantity in cents", () => {
    const lines = cartOf(dvd, dvd, bluRay);
    expect(totalItems(lines)).toBe(3);
    expect(cartTotalCents(lines)).toBe(999 * 2 + 1999);
    expect(totalItems([])).toBe(0);
    expect(cartTotalCents([])).toBe(0);
  });

  it("labels one item and several items", () => {
    expect(itemCountLabel(1)).toBe("1 item");
    expect(itemCountLabel(0)).toBe("0 items");
    expect(itemCountLabel(3)).toBe("3 items");
  });
});

describe("parseStoredCart", () => {
  it("round-trips a saved cart", () => {
    const lines = cartOf(dvd, bluRay);
    expect(parseStoredCart(JSON.stringify(lines))).toEqual(lines);
  });

  it("drops unreadable storage and malformed or tampered lines", () => {
    expect(parseStoredCart(null)).toEqual([]);
    expect(parseStoredCart("not json")).toEqual([]);
    expect(parseStoredCart('{"a":1}')).toEqual([]);
    const [line] = cartOf(dvd);
    const stored = [
      line,
      { ...line, lineId: "x", quantity: 0 },
      { ...line, mergeKey: "regular:5" },
      { ...line, lineId: "dup" },
    ];
    expect(parseStoredCart(JSON.stringify(stored))).toEqual([line]);
  });
});

describe("repriceLines", () => {
  it("takes prices from the server and reports lines whose title is gone", () => {
    const lines = cartOf(dvd, bluRay, adultSameSerial);
    const result = repriceLines(lines, {
      asked: lines,
      current: [{ ...dvd, priceCents: 799, title: "Alien (1979)" }],
      unknown: new Set(["adult:1"]),
    });
    expect(result.lines.map((line) => [line.mergeKey, line.priceCents, line.title])).toEqual([
      ["regular:1", 799, "Alien (1979)"],
      ["adult:1", 999, "Velvet Nights"],
    ]);
    expect(result.dropped.map((line) => line.mergeKey)).toEqual(["regular:2"]);
  });

  it("keeps a line added while the stored lines' prices were on their way, as it was added", () => {
    const stored = cartOf(dvd);
    const now = cartReducer(stored, { type: "add", product: bluRay });
    const result = repriceLines(now, {
      asked: stored,
      current: [{ ...dvd, priceCents: 799 }],
      unknown: new Set(),
    });
    expect(result.lines.map((line) => [line.mergeKey, line.priceCents])).toEqual([
      ["regular:1", 799],
      ["regular:2", 1999],
    ]);
    expect(result.dropped).toEqual([]);
  });
});
