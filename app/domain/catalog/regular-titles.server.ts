import { and, asc, desc, eq, ilike, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { catalogueCounts, regularTitles, staffPicks } from "#app/db/schema.ts";
import type { Disc } from "#app/lib/catalog.ts";
import { clampPage, pageCountFor } from "#app/lib/pagination.ts";
import { posterSrc } from "#app/lib/posters.ts";
import { containsPattern } from "./search-text.ts";

export const REGULAR_PAGE_SIZE = 24;
export const NEW_ARRIVALS_LIMIT = 12;
export const STAFF_PICKS_LIMIT = 5;
export const SUGGESTIONS_LIMIT = 10;

import type { TitleSort } from "./list-params.ts";
export type { TitleSort };

const listColumns = {
  regSerialNo: regularTitles.regSerialNo,
  title: regularTitles.title,
  disc: regularTitles.disc,
  releaseYear: regularTitles.releaseYear,
  priceCents: regularTitles.currentPriceCents,
  genres: regularTitles.genres,
  description: regularTitles.description,
  posterUrl: regularTitles.posterUrl,
  qtyToList: regularTitles.qtyToList,
};

type ListRow = {
  regSerialNo: number;
  title: string;
  disc: Disc;
  releaseYear: number | null;
  priceCents: number;
  genres: string | null;
  description: string | null;
  posterUrl: string | null;
  qtyToList: number;
};

export type RegularTitleCard = Omit<ListRow, "posterUrl"> & { poster: string; inStock: boolean };

function toCard(row: ListRow): RegularTitleCard {
  const { posterUrl, ...rest } = row;
  return {
    ...rest,
    poster: posterSrc("regular", row.regSerialNo, posterUrl),
    inStock: row.qtyToList > 0,
  };
}

function orderFor(sort: TitleSort): SQL[] {
  if (sort === "az") return [asc(regularTitles.title), asc(regularTitles.regSerialNo)];
  if (sort === "za") return [desc(regularTitles.title), desc(regularTitles.regSerialNo)];
  return [asc(regularTitles.regSerialNo)];
}

export type Page<T> = { items: T[]; total: number; page: number; pageCount: number };

/** The kept count of a catalogue (all discs, or one): a primary-key read, not a scan. */
export async function keptCount(db: Database, catalogue: "regular" | "adult", disc = "") {
  const [row] = await db
    .select({ total: catalogueCounts.total })
    .from(catalogueCounts)
    .where(and(eq(catalogueCounts.catalogue, catalogue), eq(catalogueCounts.disc, disc)));
  return row?.total ?? 0;
}

async function pageOf(
  db: Database,
  where: SQL | undefined,
  sort: TitleSort,
  requestedPage: number,
  totalQuery: Promise<number>,
): Promise<Page<RegularTitleCard>> {
  const order = orderFor(sort);
  // Deferred join: walk the (narrow, index-only) sort index to the page's keys, then read the
  // full rows of just those 24 titles, so deep pages do not fetch every skipped row.
  const fetchPage = async (page: number) => {
    const keys = db
      .select({ key: regularTitles.regSerialNo })
      .from(regularTitles)
      .where(where)
      .orderBy(...order)
      .limit(REGULAR_PAGE_SIZE)
      .offset((page - 1) * REGULAR_PAGE_SIZE);
    return db
      .select(listColumns)
      .from(regularTitles)
      .where(inArray(regularTitles.regSerialNo, keys))
      .orderBy(...order);
  };
  // The count and the requested page run together; only a page past the end needs a second look.
  const [total, firstTry] = await Promise.all([totalQuery, fetchPage(Math.max(1, requestedPage))]);
  const pageCount = pageCountFor(total, REGULAR_PAGE_SIZE);
  const page = clampPage(requestedPage, pageCount);
  const rows = page === requestedPage ? firstTry : await fetchPage(page);
  return { items: rows.map(toCard), total, page, pageCount };
}

export function listRegularTitles(
  db: Database,
  options: { page: number; disc?: Disc; sort: TitleSort },
): Promise<Page<RegularTitleCard>> {
  const where = options.disc ? eq(regularTitles.disc, options.disc) : undefined;
  return pageOf(db, where, options.sort, options.page, keptCount(db, "regular", options.disc));
}

/**
 * Full search results: case-insensitive contains-match on the title, sorted by title.
 *
 * The matches are collected once through the trigram index and both counted and sorted from
 * that set. Walking the title index instead would test every title before a deep page, which
 * costs several times more for common words.
 */
export async function searchRegularTitles(
  db: Database,
  options: { query: string; page: number; sort: TitleSort },
): Promise<Page<RegularTitleCard>> {
  const direction = options.sort === "za" ? sql.raw("desc") : sql.raw("asc");
  const fetchPage = async (page: number) => {
    const result = await db.execute<{ total: string; key: number | null }>(sql`
      with matches as materialized (
        select reg_serial_no, title from ${regularTitles}
        where ${ilike(regularTitles.title, containsPattern(options.query))}
      ),
      page as (
        select reg_serial_no, title from matches
        order by title ${direction}, reg_serial_no ${direction}
        limit ${REGULAR_PAGE_SIZE} offset ${(page - 1) * REGULAR_PAGE_SIZE}
      )
      select (select count(*) from matches) as total, page.reg_serial_no as key
      from (select 1) as always_one_row
      left join page on true
      order by page.title ${direction}, page.reg_serial_no ${direction}`);
    const keys = result.rows.flatMap((row) => (row.key === null ? [] : [row.key]));
    return { total: Number(result.rows[0]?.total ?? 0), keys };
  };
  const first = await fetchPage(Math.max(1, options.page));
  const pageCount = pageCountFor(first.total, REGULAR_PAGE_SIZE);
  const page = clampPage(options.page, pageCount);
  const { keys } = page === options.page ? first : await fetchPage(page);
  const rows = await regularTitlesBySerial(db, keys);
  const byKey = new Map(rows.map((row) => [row.regSerialNo, row]));
  return {
    items: keys.flatMap((key) => byKey.get(key) ?? []),
    total: first.total,
    page,
    pageCount,
  };
}

export type Suggestion = { regSerialNo: number; title: string };

/**
 * Up to ten titles for the navbar box, in catalogue order: no ranking, so the trigram index
 * answers without collecting every match first.
 */
export async function suggestRegularTitles(db: Database, query: string): Promise<Suggestion[]> {
  return db
    .select({ regSerialNo: regularTitles.regSerialNo, title: regularTitles.title })
    .from(regularTitles)
    .where(ilike(regularTitles.title, containsPattern(query)))
    .orderBy(asc(regularTitles.regSerialNo))
    .limit(SUGGESTIONS_LIMIT);
}

export type RegularTitleDetail = RegularTitleCard & {
  productId: string;
  director: string | null;
  cast: string | null;
  type: string | null;
};

export async function getRegularTitle(
  db: Database,
  regSerialNo: number,
): Promise<RegularTitleDetail | undefined> {
  const [row] = await db
    .select({
      ...listColumns,
      productId: regularTitles.productId,
      director: regularTitles.director,
      cast: regularTitles.cast,
      type: regularTitles.type,
    })
    .from(regularTitles)
    .where(eq(regularTitles.regSerialNo, regSerialNo))
    .limit(1);
  if (!row) return undefined;
  const { productId, director, cast, type, ...card } = row;
  return { ...toCard(card), productId, director, cast, type };
}

export async function newArrivals(db: Database, limit = NEW_ARRIVALS_LIMIT) {
  const rows = await db
    .select(listColumns)
    .from(regularTitles)
    .orderBy(desc(regularTitles.regSerialNo))
    .limit(limit);
  return rows.map(toCard);
}

export async function listStaffPicks(db: Database, limit = STAFF_PICKS_LIMIT) {
  const rows = await db
    .select(listColumns)
    .from(staffPicks)
    .innerJoin(regularTitles, eq(regularTitles.regSerialNo, staffPicks.regSerialNo))
    .orderBy(desc(staffPicks.createdAt), desc(staffPicks.regSerialNo))
    .limit(limit);
  return rows.map(toCard);
}

export async function regularTitlesBySerial(db: Database, serials: number[]) {
  if (serials.length === 0) return [];
  const rows = await db
    .select(listColumns)
    .from(regularTitles)
    .where(inArray(regularTitles.regSerialNo, serials));
  return rows.map(toCard);
}

/** Serial numbers in order, for the sitemap. */
export async function listRegularSerialNumbers(db: Database, limit: number): Promise<number[]> {
  const rows = await db
    .select({ regSerialNo: regularTitles.regSerialNo })
    .from(regularTitles)
    .orderBy(asc(regularTitles.regSerialNo))
    .limit(limit);
  return rows.map((row) => row.regSerialNo);
}
