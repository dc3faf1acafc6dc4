/** The key the cart is kept under in the browser's local storage (spec §9). */
export const CART_STORAGE_KEY = "cart";

export const productKinds = ["regular", "adult"] as const;
export type ProductKind = (typeof productKinds)[number];

export type CartLine = {
  lineId: string;
  /** kind + serial number: what lines merge by. */
  mergeKey: string;
  kind: ProductKind;
  serialNo: number;
  title: string;
  posterUrl: string;
  disc: string | null;
  /** Integer cents. */
  priceCents: number;
  quantity: number;
};
export type CartProduct = Omit<CartLine, "lineId" | "mergeKey" | "quantity">;

export type CartAction =
  | { type: "add"; product: CartProduct }
  | { type: "increase"; mergeKey: string }
  | { type: "decrease"; mergeKey: string }
  | { type: "remove"; mergeKey: string }
  | { type: "clear" }
  | { type: "replace"; lines: CartLine[] };

/** Lines merge by product (kind + serial number), never by title: a DVD is not its Blu-ray. */
export function mergeKeyOf(product: Pick<CartProduct, "kind" | "serialNo">): string {
  return `${product.kind}:${product.serialNo}`;
}

function newLineId(): string {
  if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") {
    return crypto.randomUUID();
  }
  return String(Date.now());
}

export function cartReducer(lines: CartLine[], action: CartAction): CartLine[] {
  switch (action.type) {
    case "add": {
      const mergeKey = mergeKeyOf(action.product);
      if (lines.some((line) => line.mergeKey === mergeKey)) {
        return lines.map((line) =>
          line.mergeKey === mergeKey ? { ...line, quantity: line.quantity + 1 } : line,
        );
      }
      return [...lines, { ...action.product, mergeKey, lineId: newLineId(), quantity: 1 }];
    }
    case "increase":
      return lines.map((line) =>
        line.mergeKey === action.mergeKey ? { ...line, quantity: line.quantity + 1 } : line,
      );
    case "decrease":
      return lines.flatMap((line) => {
        if (line.mergeKey !== action.mergeKey) return [line];
        return line.quantity > 1 ? [{ ...line, quantity: line.quantity - 1 }] : [];
      });
    case "remove":
      return lines.filter((line) => line.mergeKey !== action.mergeKey);
    case "clear":
      return [];
    case "replace":
      return action.lines;
  }
}

export function totalItems(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

export function cartTotalCents(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.priceCents * line.quantity, 0);
}

const isCount = (value: unknown, min: number): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= min;

// Hand-checked rather than with a schema library: this runs on every page load in the browser.
function readLine(item: unknown): CartLine | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const line = item as Record<string, unknown>;
  const kind = line.kind;
  if (kind !== "regular" && kind !== "adult") return undefined;
  if (!isCount(line.serialNo, 1) || !isCount(line.priceCents, 0) || !isCount(line.quantity, 1)) {
    return undefined;
  }
  if (typeof line.lineId !== "string" || !line.lineId) return undefined;
  if (typeof line.title !== "string" || typeof line.posterUrl !== "string") return undefined;
  if (line.disc !== null && typeof line.disc !== "string") return undefined;
  if (line.mergeKey !== mergeKeyOf({ kind, serialNo: line.serialNo })) return undefined;
  return {
    lineId: line.lineId,
    mergeKey: line.mergeKey,
    kind,
    serialNo: line.serialNo,
    title: line.title,
    posterUrl: line.posterUrl,
    disc: line.disc,
    priceCents: line.priceCents,
    quantity: line.quantity,
  };
}

/** Reads what local storage holds; anything unreadable is dropped rather than trusted. */
export function parseStoredCart(raw: string | null): CartLine[] {
  if (!raw) return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  const lines: CartLine[] = [];
  const seen = new Set<string>();
  for (const item of data) {
    const line = readLine(item);
    if (!line || seen.has(line.mergeKey)) continue;
    seen.add(line.mergeKey);
    lines.push(line);
  }
  return lines;
}

export type CurrentProduct = CartProduct;

/**
 * Brings stored lines up to date with the catalogue: prices, titles and posters come from the
 * server; lines whose product no longer exists are returned separately so the shopper can be
 * told. Only the lines the server was `asked` about are judged by its answer: a line added while
 * the answer was on its way keeps the price its page gave it. Lines the server did not answer
 * for (`unknown`) are kept as they are.
 */
export function repriceLines(
  lines: readonly CartLine[],
  answer: {
    asked: readonly CartLine[];
    current: readonly CurrentProduct[];
    unknown: ReadonlySet<string>;
  },
): { lines: CartLine[]; dropped: CartLine[] } {
  const asked = new Set(answer.asked.map((line) => line.mergeKey));
  const byKey = new Map(answer.current.map((product) => [mergeKeyOf(product), product]));
  const kept: CartLine[] = [];
  const dropped: CartLine[] = [];
  for (const line of lines) {
    const product = byKey.get(line.mergeKey);
    if (product) kept.push({ ...line, ...product });
    else if (!asked.has(line.mergeKey) || answer.unknown.has(line.mergeKey)) kept.push(line);
    else dropped.push(line);
  }
  return { lines: kept, dropped };
}

export function itemCountLabel(count: number): string {
  return `${count} ${count === 1 ? "item" : "items"}`;
}

/** The cart drawer's title, as its placeholder and the drawer itself show it. */
export function cartDrawerTitle(count: number): string {
  return `Your Cart (${itemCountLabel(count)})`;
}

export const CART_DRAWER_DESCRIPTION = "Titles in your cart, with their quantities and prices";

/** How a product is named to assistive technology: the title and, when known, its disc. */
export function productLabel(title: string, disc: string | null): string {
  return disc ? `${title} (${disc})` : title;
}
