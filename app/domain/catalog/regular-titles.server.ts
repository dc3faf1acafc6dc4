import { and, asc, desc, eq, gt, ilike, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import {
  catalogueCounts,
  genreCounts,
  regularGenreList,
  regularShopperSearchText,
  regularTitleGenres,
  regularTitles,
  staffPicks,
} from "#app/db/schema.ts";
import type { Disc } from "#app/lib/catalog.ts";
import { clampPage, pageCountFor } from "#app/lib/pagination.ts";
import { posterSrc } from "#app/lib/posters.ts";
import { SUGGESTIONS_LIMIT, type SearchSuggestion } from "#app/lib/search-suggestion.ts";
import { catalogueMemory } from "./catalogue-changes.server.ts";
import { containsPattern } from "./search-text.ts";

export const REGULAR_PAGE_SIZE = 24;
export const NEW_ARRIVALS_LIMIT = 12;
export const STAFF_PICKS_LIMIT = 5;

import type { RegularListSort, TitleSort } from "./list-params.ts";
export type { TitleSort };

/** Title, director and cast: what a shopper's search matches (trigram-indexed). */
const shopperText = regularShopperSearchText(regularTitles);
const genreList = regularGenreList(regularTitles.genres);

/**
 * How close a typo must come to a word of a title, director or cast to count as a match
 * (pg_trgm word similarity, 0..1). "godfathr" scores 0.78 against "The Godfather".
 */
const SIMILAR_THRESHOLD = 0.6;
/** Looser, for the "Did you mean …?" hint shown when nothing matched. */
const HINT_THRESHOLD = 0.4;
/**
 * Shorter text is matched against titles only: "the" or "an" is inside too many names (every
 * "Matthew", "Catherine") to be a search for a person, and would count and sort most of the table.
 */
const PEOPLE_MIN_LENGTH = 4;
/** Typo matches are ranked, not counted: more than this many is no longer a spelling hint. */
const SIMILAR_LIMIT = 240;

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

/**
 * Every order walks an index: by title, by price (either way), by newest release or by serial.
 * `reversed` is the same order backwards (the same index walked from its other end).
 */
function orderFor(sort: RegularListSort, reversed = false): SQL[] {
  const up = reversed ? desc : asc;
  const down = reversed ? asc : desc;
  if (sort === "az") return [up(regularTitles.title), up(regularTitles.regSerialNo)];
  if (sort === "za") return [down(regularTitles.title), down(regularTitles.regSerialNo)];
  if (sort === "price-asc") {
    return [up(regularTitles.currentPriceCents), up(regularTitles.regSerialNo)];
  }
  if (sort === "price-desc") {
    return [down(regularTitles.currentPriceCents), down(regularTitles.regSerialNo)];
  }
  if (sort === "newest") {
    // Spelled exactly as the newest-sort index is, so the index serves it (either way round).
    return reversed
      ? [
          sql`${regularTitles.releaseYear} asc nulls first`,
          sql`${regularTitles.regSerialNo} asc nulls first`,
        ]
      : [
          sql`${regularTitles.releaseYear} desc nulls last`,
          sql`${regularTitles.regSerialNo} desc nulls last`,
        ];
  }
  return [up(regularTitles.regSerialNo)];
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

/** Below this many skipped titles a page is fetched at once, alongside the count. */
const SHALLOW_OFFSET = 2_400;

/** The kept count of one genre (all discs, or one): a primary-key read. */
export async function keptGenreCount(db: Database, genre: string, disc = "") {
  const [row] = await db
    .select({ total: genreCounts.total })
    .from(genreCounts)
    .where(and(eq(genreCounts.genre, genre), eq(genreCounts.disc, disc)));
  return row?.total ?? 0;
}

/** The serial numbers of one page of a list, `reversed` walking its order from the other end. */
type KeyWalk = (reversed: boolean, limit: number, offset: number) => SQL;

/** A list's keys from the titles' own sort indexes. */
function titlesWalk(db: Database, where: SQL | undefined, sort: RegularListSort): KeyWalk {
  return (reversed, limit, offset) =>
    db
      .select({ key: regularTitles.regSerialNo })
      .from(regularTitles)
      .where(where)
      .orderBy(...orderFor(sort, reversed))
      .limit(limit)
      .offset(offset)
      .getSQL();
}

/**
 * One genre's keys in price order, from that genre's slice of its own price index (kept in step
 * with the titles by triggers): the catalogue's price index would be walked title by title,
 * testing each one's genres.
 */
function genrePriceWalk(
  db: Database,
  genre: string,
  disc: Disc | undefined,
  sort: "price-asc" | "price-desc",
): KeyWalk {
  return (reversed, limit, offset) => {
    const up = (sort === "price-asc") !== reversed ? asc : desc;
    return db
      .select({ key: regularTitleGenres.regSerialNo })
      .from(regularTitleGenres)
      .where(
        and(
          eq(regularTitleGenres.genre, genre),
          disc ? eq(regularTitleGenres.disc, disc) : undefined,
        ),
      )
      .orderBy(up(regularTitleGenres.currentPriceCents), up(regularTitleGenres.regSerialNo))
      .limit(limit)
      .offset(offset)
      .getSQL();
  };
}

async function pageOf(
  db: Database,
  walk: KeyWalk,
  sort: RegularListSort,
  requestedPage: number,
  totalQuery: Promise<number>,
): Promise<Page<RegularTitleCard>> {
  const order = orderFor(sort);
  // Deferred join: walk the (narrow, index-only) sort index to the page's keys, then read the
  // full rows of just those 24 titles, so deep pages do not fetch every skipped row. A page in
  // the back half of the list is found from the end (the same index walked backwards), so the
  // last page costs what the first does, whatever the catalogue's size.
  const fetchPage = async (page: number, total?: number) => {
    const offset = (page - 1) * REGULAR_PAGE_SIZE;
    const fromEnd = total !== undefined && offset > total / 2;
    const keys = fromEnd
      ? walk(
          true,
          Math.min(REGULAR_PAGE_SIZE, total - offset),
          Math.max(0, total - offset - REGULAR_PAGE_SIZE),
        )
      : walk(false, REGULAR_PAGE_SIZE, offset);
    return db
      .select(listColumns)
      .from(regularTitles)
      .where(sql`${regularTitles.regSerialNo} in (${keys})`)
      .orderBy(...order);
  };
  const settle = (total: number, firstTry?: ListRow[]) => {
    const pageCount = pageCountFor(total, REGULAR_PAGE_SIZE);
    const page = clampPage(requestedPage, pageCount);
    return { total, pageCount, page, rows: page === requestedPage ? firstTry : undefined };
  };
  let result: ReturnType<typeof settle>;
  if ((requestedPage - 1) * REGULAR_PAGE_SIZE < SHALLOW_OFFSET) {
    // Near the start the count and the page run together.
    const [total, firstTry] = await Promise.all([
      totalQuery,
      fetchPage(Math.max(1, requestedPage)),
    ]);
    result = settle(total, firstTry);
  } else {
    // Deep pages need the count first, to know which end is nearer.
    result = settle(await totalQuery);
  }
  const rows = result.rows ?? (await fetchPage(result.page, result.total));
  return {
    items: rows.map(toCard),
    total: result.total,
    page: result.page,
    pageCount: result.pageCount,
  };
}

export function listRegularTitles(
  db: Database,
  options: { page: number; disc?: Disc; genre?: string; sort: RegularListSort },
): Promise<Page<RegularTitleCard>> {
  if (!options.genre) {
    const where = options.disc ? eq(regularTitles.disc, options.disc) : undefined;
    return pageOf(
      db,
      titlesWalk(db, where, options.sort),
      options.sort,
      options.page,
      keptCount(db, "regular", options.disc),
    );
  }
  const genreCount = keptGenreCount(db, options.genre, options.disc);
  if (options.sort === "price-asc" || options.sort === "price-desc") {
    const walk = genrePriceWalk(db, options.genre, options.disc, options.sort);
    return pageOf(db, walk, options.sort, options.page, genreCount);
  }
  // A genre is one entry of the comma-separated list, matched whole through the genre index.
  const where = and(
    sql`${genreList} @> array[${options.genre}]::text[]`,
    options.disc ? eq(regularTitles.disc, options.disc) : undefined,
  );
  return pageOf(db, titlesWalk(db, where, options.sort), options.sort, options.page, genreCount);
}

/** The genres the catalogue holds, A→Z (one pass over the table: callers cache it). */
export async function listRegularGenres(db: Database): Promise<string[]> {
  // The counts' row for every disc ('') holds each genre some title lists: a few hundred rows
  // kept by triggers, instead of every title's genres split again.
  const rows = await db
    .select({ genre: genreCounts.genre })
    .from(genreCounts)
    .where(and(eq(genreCounts.disc, ""), gt(genreCounts.total, 0)))
    .orderBy(asc(genreCounts.genre));
  return rows.map((row) => row.genre);
}

const GENRES_TTL_MS = 5 * 60_000;
let genresCache: { at: number; genres: Promise<string[]> } | undefined;

/** The genre list for the catalogue's filter, re-read every few minutes rather than per request. */
export function regularGenres(db: Database): Promise<string[]> {
  const now = Date.now();
  if (!genresCache || now - genresCache.at > GENRES_TTL_MS) {
    const genres = listRegularGenres(db);
    genresCache = { at: now, genres };
    genres.catch(() => {
      if (genresCache?.genres === genres) genresCache = undefined;
    });
  }
  return genresCache.genres;
}

export type SearchPage = Page<RegularTitleCard> & {
  /** "contains": the text is in a title, director or cast; "similar": typo-tolerant matches. */
  match: "contains" | "similar";
};

/**
 * Full search results: a case-insensitive contains-match on title, director and cast, sorted by
 * title; when nothing contains the text, the titles whose words come closest to it (typos),
 * best first.
 *
 * The matches are collected once through the trigram index and both counted and sorted from
 * that set. Walking the title index instead would test every title before a deep page, which
 * costs several times more for common words. Where the server listens for catalogue changes,
 * the titles containing the text are remembered in order (matchesInTitleOrder), and every page
 * and both title orders are slices of them.
 */
export async function searchRegularTitles(
  db: Database,
  options: { query: string; page: number; sort: TitleSort },
): Promise<SearchPage> {
  const direction = options.sort === "za" ? sql.raw("desc") : sql.raw("asc");
  const byTitle = sql`title ${direction}, reg_serial_no ${direction}`;
  const searched = options.query.length >= PEOPLE_MIN_LENGTH ? shopperText : regularTitles.title;
  const contains = sql`
    select reg_serial_no, title, 0::real as distance from ${regularTitles}
    where ${ilike(searched, containsPattern(options.query))}`;
  const similar = sql`
    select reg_serial_no, title, ${options.query} <<-> ${shopperText} as distance
    from ${regularTitles}
    where ${similarTo(options.query)}
    order by distance, reg_serial_no
    limit ${SIMILAR_LIMIT}`;
  const fetchPage = async (matches: SQL, order: SQL, page: number) => {
    const result = await db.execute<{ total: string; key: number | null }>(sql`
      with matches as materialized (${matches}),
      page as (
        select reg_serial_no, title, distance from matches
        order by ${order}
        limit ${REGULAR_PAGE_SIZE} offset ${(page - 1) * REGULAR_PAGE_SIZE}
      )
      select (select count(*) from matches) as total, reg_serial_no as key
      from (select 1) as always_one_row
      left join page on true
      order by ${order}`);
    const keys = result.rows.flatMap((row) => (row.key === null ? [] : [row.key]));
    return { total: Number(result.rows[0]?.total ?? 0), keys };
  };
  const remembered = await matchesInTitleOrder(db, options.query, contains);
  if (remembered && remembered.length > 0) {
    const pageCount = pageCountFor(remembered.length, REGULAR_PAGE_SIZE);
    const page = clampPage(options.page, pageCount);
    const skipped = (page - 1) * REGULAR_PAGE_SIZE;
    const end = remembered.length - skipped;
    const keys =
      options.sort === "za"
        ? Array.from(remembered.subarray(Math.max(0, end - REGULAR_PAGE_SIZE), end)).reverse()
        : Array.from(remembered.subarray(skipped, skipped + REGULAR_PAGE_SIZE));
    const rows = await regularTitlesBySerial(db, keys);
    const byKey = new Map(rows.map((row) => [row.regSerialNo, row]));
    return {
      items: keys.flatMap((key) => byKey.get(key) ?? []),
      total: remembered.length,
      page,
      pageCount,
      match: "contains",
    };
  }
  const requested = Math.max(1, options.page);
  let match: SearchPage["match"] = "contains";
  let [matches, order] = [contains, byTitle];
  let first = remembered ? { total: 0, keys: [] } : await fetchPage(matches, order, requested);
  if (first.total === 0) {
    match = "similar";
    [matches, order] = [similar, options.sort === "none" ? sql`distance, reg_serial_no` : byTitle];
    first = await fetchPage(matches, order, requested);
  }
  const pageCount = pageCountFor(first.total, REGULAR_PAGE_SIZE);
  const page = clampPage(options.page, pageCount);
  const { keys } = page === options.page ? first : await fetchPage(matches, order, page);
  const rows = await regularTitlesBySerial(db, keys);
  const byKey = new Map(rows.map((row) => [row.regSerialNo, row]));
  return {
    items: keys.flatMap((key) => byKey.get(key) ?? []),
    total: first.total,
    page,
    pageCount,
    match: first.total === 0 ? "contains" : match,
  };
}

/**
 * More matches than this are not remembered (a text in a large part of the catalogue). At
 * 1,000,000 titles a common word ("the") is in about 33,000 of them: each page of its results
 * would collect, count and sort them all again. 100,000 keys are 400 KB, a tenth of what the
 * memory below keeps at most.
 */
const REMEMBERED_MATCHES_LIMIT = 100_000;

/**
 * The titles containing a search text, in title order, per text until the catalogue changes
 * (stock alone never changes them): the results' pages and both title orders are slices of one
 * look-up, where each page would collect, count and sort every match again.
 */
const matchesByText = catalogueMemory<{ keys: Int32Array } | { tooMany: true }>({
  maxSize: 1_000_000,
  sizeOf: (value) => ("keys" in value ? value.keys.length : 1),
});

/** Undefined when nothing is remembered here (no one listens for changes) or there are too many. */
async function matchesInTitleOrder(
  db: Database,
  query: string,
  contains: SQL,
): Promise<Int32Array | undefined> {
  const generation = matchesByText.now();
  if (generation === undefined) return undefined;
  const known = matchesByText.recall(query);
  if (known) return "keys" in known ? known.keys : undefined;
  const result = await db.execute<{ key: number }>(sql`
    select reg_serial_no as key from (${contains}) as matches
    order by title, reg_serial_no
    limit ${REMEMBERED_MATCHES_LIMIT + 1}`);
  if (result.rows.length > REMEMBERED_MATCHES_LIMIT) {
    matchesByText.keep(generation, query, { tooMany: true });
    return undefined;
  }
  const keys = Int32Array.from(result.rows, (row) => row.key);
  matchesByText.keep(generation, query, { keys });
  return keys;
}

/** Word similarity through the trigram index, at a threshold of our own (not the server's). */
function similarTo(query: string, threshold = SIMILAR_THRESHOLD, text: SQL = shopperText): SQL {
  // `<%` (index-assisted) uses the session threshold; the explicit comparison pins ours.
  return sql`${query} <% ${text} and word_similarity(${query}, ${text}) >= ${threshold}`;
}

/**
 * The catalogue title closest to a misspelt query, for "Did you mean …?", or undefined when
 * none comes close or the closest is the query itself.
 */
export async function closestRegularTitle(
  db: Database,
  query: string,
): Promise<string | undefined> {
  const rows = await db.transaction(async (tx) => {
    // The index only answers `<%` at the session's threshold: lower it for this look-up alone.
    await tx.execute(
      sql`select set_config('pg_trgm.word_similarity_threshold', ${String(HINT_THRESHOLD)}, true)`,
    );
    return tx
      .select({ title: regularTitles.title })
      .from(regularTitles)
      .where(similarTo(query, HINT_THRESHOLD, sql`${regularTitles.title}`))
      .orderBy(sql`${query} <<-> ${regularTitles.title}`, asc(regularTitles.regSerialNo))
      .limit(1);
  });
  const title = rows[0]?.title;
  return title && title.toLowerCase() !== query.toLowerCase() ? title : undefined;
}

/**
 * Texts that had no suggestion at all. Such text costs two look-ups (contains, then typos), the
 * dearest answer the box gives, and people type it again and again; a change of the catalogue
 * forgets them all. Stock alone does not: it never changes which titles match.
 */
const noSuggestion = catalogueMemory<{ none: true }>({ maxSize: 10_000, sizeOf: () => 1 });

/**
 * Up to ten titles for the navbar box: titles containing the text first, then titles whose
 * director or cast contains it, each in catalogue order (no ranking, so the trigram indexes
 * answer without collecting every match first). Only when nothing contains the text, the
 * closest titles by word similarity, so a typo still finds the film.
 */
export async function suggestRegularTitles(
  db: Database,
  query: string,
): Promise<SearchSuggestion[]> {
  // Read before the look-up: a change announced during it makes the answer not worth keeping.
  const generation = noSuggestion.now();
  if (noSuggestion.recall(query)) return [];
  const pattern = containsPattern(query);
  const people =
    query.length >= PEOPLE_MIN_LENGTH
      ? sql`${ilike(shopperText, pattern)} and not ${ilike(regularTitles.title, pattern)}`
      : sql`false`;
  const columns = sql`reg_serial_no as "regSerialNo", title, disc, current_price_cents as "priceCents",
    qty_to_list > 0 as "inStock"`;
  // The second branch runs only if the first returns fewer than ten rows.
  const contains = await db.execute<SearchSuggestion>(sql`
    (select ${columns} from ${regularTitles}
     where ${ilike(regularTitles.title, pattern)}
     order by reg_serial_no limit ${SUGGESTIONS_LIMIT})
    union all
    (select ${columns} from ${regularTitles}
     where ${people}
     order by reg_serial_no limit ${SUGGESTIONS_LIMIT})
    limit ${SUGGESTIONS_LIMIT}`);
  if (contains.rows.length > 0 || query.length < PEOPLE_MIN_LENGTH) return contains.rows;
  const similar = await db.execute<SearchSuggestion>(sql`
    select ${columns} from ${regularTitles}
    where ${similarTo(query)}
    order by ${query} <<-> ${shopperText}, reg_serial_no
    limit ${SUGGESTIONS_LIMIT}`);
  if (similar.rows.length === 0) noSuggestion.keep(generation, query, { none: true });
  return similar.rows;
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

export type OtherEdition = { regSerialNo: number; disc: Disc; priceCents: number };

/** The same film on other discs: the titles sharing this one's exact title (title index). */
export async function otherEditions(db: Database, regSerialNo: number): Promise<OtherEdition[]> {
  const same = db
    .select({ title: regularTitles.title })
    .from(regularTitles)
    .where(eq(regularTitles.regSerialNo, regSerialNo));
  return db
    .select({
      regSerialNo: regularTitles.regSerialNo,
      disc: regularTitles.disc,
      priceCents: regularTitles.currentPriceCents,
    })
    .from(regularTitles)
    .where(and(eq(regularTitles.title, same), ne(regularTitles.regSerialNo, regSerialNo)))
    .orderBy(asc(regularTitles.regSerialNo))
    .limit(20);
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
export const RELATED_TITLES_LIMIT = 6;

/**
 * Other films a shopper of this one may like: by the same director first, then sharing all of
 * its genres, then sharing any. Each film counts once (not once per disc), and this film's own
 * editions are left out (the title page lists them apart). The director is found through the
 * shopper-search trigram index and genres through the genre index; every branch has a limit.
 */
export async function relatedRegularTitles(
  db: Database,
  title: Pick<RegularTitleDetail, "regSerialNo" | "title" | "director" | "genres">,
  limit = RELATED_TITLES_LIMIT,
): Promise<RegularTitleCard[]> {
  const director = title.director?.trim() ?? "";
  const genres = [...new Set((title.genres ?? "").split(",").map((genre) => genre.trim()))].filter(
    Boolean,
  );
  // Room for a film on several discs, which collapses to one entry below.
  const pool = limit * 2;
  const columns = sql`reg_serial_no as "regSerialNo", title, disc, release_year as "releaseYear",
    current_price_cents as "priceCents", genres, description, poster_url as "posterUrl",
    qty_to_list as "qtyToList"`;
  const notThisFilm = sql`${regularTitles.title} <> ${title.title}`;
  const genreArray = sql`array[${sql.join(
    genres.map((genre) => sql`${genre}`),
    sql`, `,
  )}]::text[]`;
  const branches: SQL[] = [];
  if (director.length >= 3) {
    branches.push(sql`(select ${columns}, 0 as rank from ${regularTitles}
      where ${regularTitles.director} = ${director} and ${notThisFilm}
      limit ${pool})`);
  }
  if (genres.length > 0) {
    branches.push(sql`(select ${columns}, 1 as rank from ${regularTitles}
      where ${genreList} @> ${genreArray} and ${notThisFilm}
      limit ${pool})`);
  }
  if (genres.length > 1) {
    branches.push(sql`(select ${columns}, 2 as rank from ${regularTitles}
      where ${genreList} && ${genreArray} and ${notThisFilm}
      limit ${pool})`);
  }
  if (branches.length === 0) return [];
  const result = await db.execute<ListRow & { rank: number }>(sql.join(branches, sql` union all `));
  const seen = new Set<string>();
  const related: RegularTitleCard[] = [];
  // Within a rank, the earliest listing first: the edition shown for a film on several discs
  // does not depend on where its rows happen to lie in the table.
  const ranked = result.rows.toSorted((a, b) => a.rank - b.rank || a.regSerialNo - b.regSerialNo);
  for (const { rank: _rank, ...row } of ranked) {
    const film = row.title.toLowerCase();
    if (seen.has(film)) continue;
    seen.add(film);
    related.push(toCard(row));
    if (related.length === limit) break;
  }
  return related;
}
