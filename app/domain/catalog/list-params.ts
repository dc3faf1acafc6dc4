import { DISCS, type Disc } from "#app/lib/catalog.ts";
import { normalizeQuery } from "./search-text.ts";

export type TitleSort = "none" | "az" | "za";

export const SORT_OPTIONS: { value: TitleSort; label: string }[] = [
  { value: "none", label: "None" },
  { value: "az", label: "A→Z" },
  { value: "za", label: "Z→A" },
];

/** The catalogue list also sorts by release year and by price (besides the spec's three). */
export type RegularListSort = TitleSort | "newest" | "price-asc" | "price-desc";

export const REGULAR_SORT_OPTIONS: { value: RegularListSort; label: string }[] = [
  ...SORT_OPTIONS,
  { value: "newest", label: "Newest" },
  { value: "price-asc", label: "Price: low to high" },
  { value: "price-desc", label: "Price: high to low" },
];

const REGULAR_SORTS = new Set<string>(REGULAR_SORT_OPTIONS.map((option) => option.value));

function pageParam(params: URLSearchParams): number {
  const raw = params.get("page");
  if (!raw || !/^\d{1,7}$/.test(raw)) return 1;
  return Math.max(1, Number(raw));
}

function sortParam(params: URLSearchParams): TitleSort {
  const raw = params.get("sort");
  return raw === "az" || raw === "za" ? raw : "none";
}

/** Unknown or malformed values fall back to the defaults instead of failing the page. */
export function regularListParams(params: URLSearchParams) {
  const disc = params.get("disc");
  const sort = params.get("sort") ?? "";
  return {
    page: pageParam(params),
    sort: REGULAR_SORTS.has(sort) ? (sort as RegularListSort) : "none",
    disc: DISCS.includes(disc as Disc) ? (disc as Disc) : undefined,
    // Any text is accepted; a genre the catalogue does not hold simply lists no titles.
    genre: normalizeQuery(params.get("genre")).slice(0, 40) || undefined,
  };
}

export function adultListParams(params: URLSearchParams) {
  return {
    page: pageParam(params),
    sort: sortParam(params),
    production: normalizeQuery(params.get("production")) || undefined,
  };
}

export function searchParams(params: URLSearchParams) {
  return {
    page: pageParam(params),
    sort: sortParam(params),
    query: normalizeQuery(params.get("query")),
  };
}

/** The same URL with `page` set to the page actually shown (for out-of-range requests). */
export function withPage(url: URL, page: number): string {
  const next = new URL(url);
  if (page <= 1) next.searchParams.delete("page");
  else next.searchParams.set("page", String(page));
  return `${next.pathname}${next.search}`;
}
