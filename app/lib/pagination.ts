export type PageItem = { kind: "page"; page: number } | { kind: "ellipsis"; key: string };

/** Pages shown around the current one, as in the spec: a window of two on each side. */
export const PAGE_WINDOW = 2;

/**
 * The page buttons to show: the first and last page always, a window around the current
 * page, and an ellipsis wherever two or more pages are skipped (a single skipped page is
 * shown instead, since the ellipsis would take its place anyway).
 */
export function pageItems(current: number, pageCount: number, window = PAGE_WINDOW): PageItem[] {
  if (pageCount < 1) return [];
  const page = clampPage(current, pageCount);
  let start = Math.max(1, page - window);
  let end = Math.min(pageCount, page + window);
  if (start === 3) start = 2;
  if (end === pageCount - 2) end = pageCount - 1;
  const items: PageItem[] = [];
  if (start > 1) {
    items.push({ kind: "page", page: 1 });
    if (start > 2) items.push({ kind: "ellipsis", key: "start" });
  }
  for (let p = start; p <= end; p++) items.push({ kind: "page", page: p });
  if (end < pageCount) {
    if (end < pageCount - 1) items.push({ kind: "ellipsis", key: "end" });
    items.push({ kind: "page", page: pageCount });
  }
  return items;
}

export function clampPage(page: number, pageCount: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, pageCount));
}

export function pageCountFor(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * How to read one page of `total` ordered rows from its nearer end: skip `offset` rows and take
 * `limit`, walking the order backwards when `reversed` (then the rows come last first). The last
 * page of a million rows then costs what the first does.
 */
export function nearerEnd(
  page: number,
  pageSize: number,
  total: number,
): { reversed: boolean; offset: number; limit: number } {
  const offset = (page - 1) * pageSize;
  if (offset <= total / 2) return { reversed: false, offset, limit: pageSize };
  return {
    reversed: true,
    offset: Math.max(0, total - offset - pageSize),
    limit: Math.max(0, Math.min(pageSize, total - offset)),
  };
}

/** A page button and the screens it shows on. */
export type ResponsivePageItem = { item: PageItem; show: "always" | "wide" | "narrow" };

/**
 * The page buttons for wide screens (a window of two) and phones (a window of one) as one list:
 * each item says where it shows, so every page appears once in the document and the bar fits a
 * phone on one line.
 */
export function responsivePageItems(current: number, pageCount: number): ResponsivePageItem[] {
  const key = (item: PageItem) => (item.kind === "page" ? `page:${item.page}` : item.key);
  const wide = pageItems(current, pageCount);
  const narrow = pageItems(current, pageCount, 1);
  const inWide = new Set(wide.map(key));
  const inNarrow = new Set(narrow.map(key));
  const all = new Map([...wide, ...narrow].map((item) => [key(item), item]));
  // Ellipses sit just after the first page and just before the last one.
  const order = (item: PageItem) =>
    item.kind === "page" ? item.page : item.key === "start" ? 1.5 : pageCount - 0.5;
  return [...all.values()]
    .sort((a, b) => order(a) - order(b))
    .map((item) => ({
      item,
      show: inWide.has(key(item)) ? (inNarrow.has(key(item)) ? "always" : "wide") : "narrow",
    }));
}
