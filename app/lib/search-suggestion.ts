import type { Disc } from "./catalog.ts";

/** The navbar search box offers at most this many titles, then 'See More Results'. */
export const SUGGESTIONS_LIMIT = 10;

/** One title the navbar search box offers, as /api/search/suggestions answers it. */
export type SearchSuggestion = {
  regSerialNo: number;
  title: string;
  disc: Disc;
  priceCents: number;
  /** Whether a copy can be bought now; the server's answer, not the browser's guess. */
  inStock: boolean;
};
