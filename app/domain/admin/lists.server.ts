import { count, type Subquery } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { clampPage, pageCountFor } from "#app/lib/pagination.ts";

/** Spec §9: admin tables show 20 rows a page. */
export const ADMIN_PAGE_SIZE = 20;

/**
 * Matches of a search are counted up to this many: a broad search need not walk a whole table
 * to say how many pages it has. Past it the list says "10,000+". The subquery given to
 * `countUpTo` must itself be limited to `COUNT_CAP + 1` rows.
 */
export const COUNT_CAP = 10_000;

export async function countUpTo(db: Database, matches: Subquery) {
  const [row] = await db.select({ total: count() }).from(matches);
  const total = Math.min(row?.total ?? 0, COUNT_CAP);
  return { total, capped: (row?.total ?? 0) > COUNT_CAP };
}

/** The page asked for, kept within the pages there are, and its row offset. */
export function pageWindow(total: number, requested: number, pageSize = ADMIN_PAGE_SIZE) {
  const pageCount = pageCountFor(total, pageSize);
  const page = clampPage(requested, pageCount);
  return { page, pageCount, offset: (page - 1) * pageSize, limit: pageSize };
}

/** `?q=` and `?page=` of a back-office list, cleaned. */
export function listQuery(params: URLSearchParams) {
  const page = Number(params.get("page") ?? "1");
  return {
    query: (params.get("q") ?? "").replace(/\s+/g, " ").trim().slice(0, 100),
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
  };
}
