import { and, asc, desc, eq, gt, ilike, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import {
  catalogueCounts,
  genreCounts,
  newestKey,
  regularGenreList,
  regularShopperSearchText,
  regularTitleGenres,
  regularTitleSearch,
  regularTitles,
  searchWords,
  staffPicks,
} from "#app/db/schema.ts";
import type { Disc } from "#app/lib/catalog.ts";
import { clampPage, nearerEnd, pageCountFor } from "#app/lib/pagination.ts";
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
/** The same, in the narrow copy the full search collects its matches from. */
const searchedShopperText = regularShopperSearchText(regularTitleSearch);
const genreList = regularGenreList(regularTitles.genres);

/**
 * How close a typo must come to a word of a title, director or cast to be respelt as it (pg_trgm
 * word similarity, 0..1). "godfathr" scores 0.78 against "godfather".
 */
const SIMILAR_THRESHOLD = 0.6;
/** Looser, for the "Did you mean …?" hint shown when nothing matched. */
const HINT_THRESHOLD = 0.4;
/**
 * Shorter text is matched against titles only: "the" or "an" is inside too many names (every
 * "Matthew", "Catherine") to be a search for a person, and would count and sort most of the table.
 */
const PEOPLE_MIN_LENGTH = 4;

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

/** A list's sort keys, in their order (the serial last), and which way they run. */
type SortKeys = { columns: SQL[]; descending: boolean };

/**
 * Every order walks an index: by title, by price (either way), by newest release or by serial.
 * Each ends on the serial, so no two titles share their keys.
 */
function sortKeys(sort: RegularListSort): SortKeys {
  const serial = sql`${regularTitles.regSerialNo}`;
  if (sort === "az" || sort === "za") {
    return { columns: [sql`${regularTitles.title}`, serial], descending: sort === "za" };
  }
  if (sort === "price-asc" || sort === "price-desc") {
    return {
      columns: [sql`${regularTitles.currentPriceCents}`, serial],
      descending: sort === "price-desc",
    };
  }
  if (sort === "newest") {
    return { columns: [newestKey(regularTitles.releaseYear), serial], descending: true };
  }
  return { columns: [serial], descending: false };
}

/** The keys' order; `reversed`, the same order backwards (its index walked from the other end). */
function orderOf(keys: SortKeys, reversed = false): SQL[] {
  return keys.columns.map((column) => (keys.descending !== reversed ? desc(column) : asc(column)));
}

function orderFor(sort: RegularListSort, reversed = false): SQL[] {
  return orderOf(sortKeys(sort), reversed);
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

/** One title's sort keys in a list (`SortKeys.columns`' values): where a deep page starts after. */
type Anchor = unknown[];

/** A list (one sort, disc and genre) as its sort index holds it. */
type ListWalk = {
  /** Names the list, for its remembered anchors. */
  id: string;
  /**
   * The serial numbers of `limit` titles past `offset` of them, in the list's order (`reversed`:
   * from its end), counted from the first title after `after` when given (forwards only).
   */
  keys(reversed: boolean, limit: number, offset: number, after?: Anchor): SQL;
  /** The keys of every ANCHOR_EVERY-th title, in the list's order: one walk of the whole index. */
  anchors(): SQL;
};

/** Rows of a list between two remembered anchors. */
const ANCHOR_EVERY = 2_400;

/** The walk of a list from `from` (its rows, filtered) over a sort index whose keys are `keys`. */
function listWalk(id: string, keys: SortKeys, from: SQL, where: SQL | undefined): ListWalk {
  const after = (anchor: Anchor) =>
    sql`(${sql.join(keys.columns, sql`, `)}) ${sql.raw(keys.descending ? "<" : ">")} (${sql.join(
      anchor.map((value) => sql`${value}`),
      sql`, `,
    )})`;
  const filter = (...conditions: (SQL | undefined)[]) => {
    const present = conditions.filter((condition) => condition !== undefined);
    return present.length > 0 ? sql`where ${sql.join(present, sql` and `)}` : sql``;
  };
  const keyNames = keys.columns.map((_, index) => sql.raw(`k${index}`));
  return {
    id,
    keys: (reversed, limit, offset, anchor) => sql`
      select ${keys.columns.at(-1)} as key from ${from}
      ${filter(where, anchor && !reversed ? after(anchor) : undefined)}
      order by ${sql.join(orderOf(keys, reversed), sql`, `)}
      limit ${limit} offset ${offset}`,
    anchors: () => sql`
      select ${sql.join(keyNames, sql`, `)} from (
        select ${sql.join(
          keys.columns.map((column, index) => sql`${column} as ${keyNames[index]}`),
          sql`, `,
        )}, row_number() over (order by ${sql.join(orderOf(keys), sql`, `)}) as n
        from ${from} ${filter(where)}
      ) as numbered
      where n % ${ANCHOR_EVERY} = 0
      order by n`,
  };
}

/** A list's keys from the titles' own sort indexes. */
function titlesWalk(where: SQL | undefined, sort: RegularListSort, id: string): ListWalk {
  return listWalk(id, sortKeys(sort), sql`${regularTitles}`, where);
}

/**
 * One genre's keys in price order, from that genre's slice of its own price index (kept in step
 * with the titles by triggers): the catalogue's price index would be walked title by title,
 * testing each one's genres.
 */
function genrePriceWalk(
  genre: string,
  disc: Disc | undefined,
  sort: "price-asc" | "price-desc",
  id: string,
): ListWalk {
  const keys = {
    columns: [sql`${regularTitleGenres.currentPriceCents}`, sql`${regularTitleGenres.regSerialNo}`],
    descending: sort === "price-desc",
  };
  const where = and(
    eq(regularTitleGenres.genre, genre),
    disc ? eq(regularTitleGenres.disc, disc) : undefined,
  );
  return listWalk(id, keys, sql`${regularTitleGenres}`, where);
}

/**
 * Where the server listens for catalogue changes, each list's anchors: the sort keys of every
 * ANCHOR_EVERY-th title, taken in one walk of its index when a deep page is first asked for, until
 * the catalogue changes (stock alone never reorders a list). A page in the middle of a million
 * titles then starts after the anchor before it, where OFFSET would count half a million index
 * entries on every request.
 */
const anchorsByList = catalogueMemory<{ anchors: Anchor[] }>({
  maxSize: 1_000_000,
  sizeOf: (value) => value.anchors.length,
});

async function anchorsOf(db: Database, walk: ListWalk): Promise<Anchor[] | undefined> {
  const known = await anchorsByList.lookUp(walk.id, async () => {
    const { rows } = await db.execute<Record<string, unknown>>(walk.anchors());
    return { anchors: rows.map((row) => Object.values(row)) };
  });
  return known?.anchors;
}

async function pageOf(
  db: Database,
  walk: ListWalk,
  sort: RegularListSort,
  requestedPage: number,
  totalQuery: Promise<number>,
): Promise<Page<RegularTitleCard>> {
  const order = orderFor(sort);
  // Deferred join: walk the (narrow, index-only) sort index to the page's keys, then read the
  // full rows of just those 24 titles, so deep pages do not fetch every skipped row. A page in
  // the back half of the list is found from the end (the same index walked backwards), so the
  // last page costs what the first does, whatever the catalogue's size; one deeper than an
  // anchor's distance from either end starts after the remembered anchor before it.
  const keysOf = async (offset: number, total?: number) => {
    if (total === undefined) return walk.keys(false, REGULAR_PAGE_SIZE, offset);
    const end = nearerEnd(offset / REGULAR_PAGE_SIZE + 1, REGULAR_PAGE_SIZE, total);
    const anchors = end.offset >= ANCHOR_EVERY ? await anchorsOf(db, walk) : undefined;
    const before = Math.floor(offset / ANCHOR_EVERY) - 1;
    const anchor = anchors?.[before];
    if (anchor) {
      return walk.keys(false, REGULAR_PAGE_SIZE, offset - (before + 1) * ANCHOR_EVERY, anchor);
    }
    return walk.keys(end.reversed, end.limit, end.offset);
  };
  const fetchPage = async (page: number, total?: number) => {
    const keys = await keysOf((page - 1) * REGULAR_PAGE_SIZE, total);
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
  const id = JSON.stringify([options.sort, options.disc ?? "", options.genre ?? ""]);
  if (!options.genre) {
    const where = options.disc ? eq(regularTitles.disc, options.disc) : undefined;
    return pageOf(
      db,
      titlesWalk(where, options.sort, id),
      options.sort,
      options.page,
      keptCount(db, "regular", options.disc),
    );
  }
  const genreCount = keptGenreCount(db, options.genre, options.disc);
  if (options.sort === "price-asc" || options.sort === "price-desc") {
    const walk = genrePriceWalk(options.genre, options.disc, options.sort, id);
    return pageOf(db, walk, options.sort, options.page, genreCount);
  }
  // A genre is one entry of the comma-separated list, matched whole through the genre index.
  const where = and(
    sql`${genreList} @> array[${options.genre}]::text[]`,
    options.disc ? eq(regularTitles.disc, options.disc) : undefined,
  );
  return pageOf(db, titlesWalk(where, options.sort, id), options.sort, options.page, genreCount);
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
  /** "contains": the text is in a title, director or cast; "similar": its typos respelt. */
  match: "contains" | "similar";
};

/**
 * Full search results: a case-insensitive contains-match on title, director and cast, sorted by
 * title; when nothing contains the text, the titles containing it respelt (each word no title
 * holds replaced by the closest one some title does, see `respelled`).
 */
export async function searchRegularTitles(
  db: Database,
  options: { query: string; page: number; sort: TitleSort },
): Promise<SearchPage> {
  const found = await titlesContaining(db, options.query, options);
  if (found.total > 0) return { ...found, match: "contains" };
  const corrected = await respelled(db, options.query, SIMILAR_THRESHOLD);
  const similar = corrected ? await titlesContaining(db, corrected, options) : undefined;
  return similar && similar.total > 0
    ? { ...similar, match: "similar" }
    : { ...found, match: "contains" };
}

/**
 * One page of the titles containing a text, by title either way round. The matches are
 * collected once through the trigram index and both counted and sorted from that set: walking
 * the title index instead would test every title before a deep page, which costs several times
 * more for common words. Where the server listens for catalogue changes, the matches are
 * remembered in title order (matchesInTitleOrder), and every page and both orders are slices of
 * them.
 */
async function titlesContaining(
  db: Database,
  text: string,
  options: { page: number; sort: TitleSort },
): Promise<Page<RegularTitleCard>> {
  const direction = options.sort === "za" ? sql.raw("desc") : sql.raw("asc");
  const byTitle = sql`title ${direction}, reg_serial_no ${direction}`;
  const searched =
    text.length >= PEOPLE_MIN_LENGTH ? searchedShopperText : regularTitleSearch.title;
  const contains = sql`
    select reg_serial_no, title from ${regularTitleSearch}
    where ${ilike(searched, containsPattern(text))}`;
  const remembered = await matchesInTitleOrder(db, text, contains);
  let total: number;
  let page: number;
  let keys: number[];
  if (remembered) {
    total = remembered.length;
    page = clampPage(options.page, pageCountFor(total, REGULAR_PAGE_SIZE));
    const skipped = (page - 1) * REGULAR_PAGE_SIZE;
    const end = total - skipped;
    keys =
      options.sort === "za"
        ? Array.from(remembered.subarray(Math.max(0, end - REGULAR_PAGE_SIZE), end)).reverse()
        : Array.from(remembered.subarray(skipped, skipped + REGULAR_PAGE_SIZE));
  } else {
    const fetchPage = async (page: number) => {
      const result = await db.execute<{ total: string; key: number | null }>(sql`
        with matches as materialized (${contains}),
        page as (
          select reg_serial_no, title from matches
          order by ${byTitle}
          limit ${REGULAR_PAGE_SIZE} offset ${(page - 1) * REGULAR_PAGE_SIZE}
        )
        select (select count(*) from matches) as total, reg_serial_no as key
        from (select 1) as always_one_row
        left join page on true
        order by ${byTitle}`);
      const keys = result.rows.flatMap((row) => (row.key === null ? [] : [row.key]));
      return { total: Number(result.rows[0]?.total ?? 0), keys };
    };
    const first = await fetchPage(Math.max(1, options.page));
    total = first.total;
    page = clampPage(options.page, pageCountFor(total, REGULAR_PAGE_SIZE));
    keys = page === options.page ? first.keys : (await fetchPage(page)).keys;
  }
  const rows = await regularTitlesBySerial(db, keys);
  const byKey = new Map(rows.map((row) => [row.regSerialNo, row]));
  return {
    items: keys.flatMap((key) => byKey.get(key) ?? []),
    total,
    page,
    pageCount: pageCountFor(total, REGULAR_PAGE_SIZE),
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

/**
 * Undefined when nothing is remembered here (no one listens for changes) or there are too many.
 * Requests for the same text meanwhile share the one look-up: at a million titles a common
 * word's matches take a second or more to collect, and a page asked for by many at once would
 * otherwise collect them once per request.
 */
async function matchesInTitleOrder(
  db: Database,
  query: string,
  contains: SQL,
): Promise<Int32Array | undefined> {
  const known = await matchesByText.lookUp(query, async () => {
    const result = await db.execute<{ key: number }>(sql`
      select reg_serial_no as key from (${contains}) as matches
      order by title, reg_serial_no
      limit ${REMEMBERED_MATCHES_LIMIT + 1}`);
    return result.rows.length > REMEMBERED_MATCHES_LIMIT
      ? { tooMany: true as const }
      : { keys: Int32Array.from(result.rows, (row) => row.key) };
  });
  return known && "keys" in known ? known.keys : undefined;
}

/**
 * What a shopper typed, each word spelt as the catalogue spells it: a word no title holds is
 * replaced by the closest word one does (word similarity at `threshold` or more, among the
 * catalogue's few thousand words rather than its titles; `inTitles`: words of titles only, not of
 * directors or cast). Undefined when every word was already spelt so, or one has nothing close.
 * Words are split as the words' table splits titles (drizzle/0028_search_words.sql), by the
 * database itself. A threshold under the server's own (0.6) needs the caller's transaction to
 * lower `pg_trgm.word_similarity_threshold`, which the index answers at.
 */
async function respelled(
  db: Database | Transaction,
  query: string,
  threshold: number,
  inTitles = false,
): Promise<string | undefined> {
  const held = inTitles ? sql`s.titles > 0` : sql`true`;
  const { rows } = await db.execute<{ typed: string; word: string | null }>(sql`
    select typed, coalesce(
      (select s.word from ${searchWords} s where s.word = typed and ${held}),
      (select s.word from ${searchWords} s
        where length(typed) >= 3 and typed <% s.word
          and word_similarity(typed, s.word) >= ${threshold} and ${held}
        order by typed <<-> s.word, s.total desc, s.word
        limit 1)) as word
    from regexp_split_to_table(lower(${query}), '[^[:alnum:]]+') with ordinality as t(typed, n)
    where typed <> ''
    order by n`);
  const lower = query.toLowerCase();
  let respelt = "";
  let at = 0;
  for (const { typed, word } of rows) {
    const found = lower.indexOf(typed, at);
    if (word === null || found < 0) return undefined;
    respelt += query.slice(at, found) + word;
    at = found + typed.length;
  }
  respelt += query.slice(at);
  return respelt.toLowerCase() === lower ? undefined : respelt;
}

/**
 * The catalogue title closest to a misspelt query, for "Did you mean …?": the first title, A→Z,
 * holding the query respelt with the words of titles at a looser similarity. Undefined when no
 * word comes close, or the query is spelt as the catalogue spells it.
 */
export async function closestRegularTitle(
  db: Database,
  query: string,
): Promise<string | undefined> {
  const respelt = await db.transaction(async (tx) => {
    // The index only answers `<%` at the session's threshold: lower it for this look-up alone.
    await tx.execute(
      sql`select set_config('pg_trgm.word_similarity_threshold', ${String(HINT_THRESHOLD)}, true)`,
    );
    return respelled(tx, query, HINT_THRESHOLD, true);
  });
  if (!respelt) return undefined;
  const [row] = await db
    .select({ title: regularTitles.title })
    .from(regularTitles)
    .where(ilike(regularTitles.title, containsPattern(respelt)))
    .orderBy(asc(regularTitles.title), asc(regularTitles.regSerialNo))
    .limit(1);
  return row && row.title.toLowerCase() !== query.toLowerCase() ? row.title : undefined;
}

/**
 * Texts that had no suggestion at all. Such text costs two look-ups (contains, then typos), the
 * dearest answer the box gives, and people type it again and again; a change of the catalogue
 * forgets them all. Stock alone does not: it never changes which titles match.
 */
const noSuggestion = catalogueMemory<{ none: true }>({ maxSize: 10_000, sizeOf: () => 1 });

const suggestionColumns = sql`reg_serial_no as "regSerialNo", title, disc,
  current_price_cents as "priceCents", qty_to_list > 0 as "inStock"`;

/**
 * Up to ten titles for the navbar box: titles containing the text first, then titles whose
 * director or cast contains it, each in catalogue order (no ranking, so the trigram indexes
 * answer without collecting every match first). Only when nothing contains the text, the titles
 * containing it respelt (see `respelled`), so a typo still finds the film.
 */
export async function suggestRegularTitles(
  db: Database,
  query: string,
): Promise<SearchSuggestion[]> {
  // Read before the look-up: a change announced during it makes the answer not worth keeping.
  const generation = noSuggestion.now();
  if (noSuggestion.recall(query)) return [];
  const contains = await suggestionsContaining(db, query);
  if (contains.length > 0 || query.length < PEOPLE_MIN_LENGTH) return contains;
  const respelt = await respelled(db, query, SIMILAR_THRESHOLD);
  const similar = respelt ? await suggestionsContaining(db, respelt) : [];
  if (similar.length === 0) noSuggestion.keep(generation, query, { none: true });
  return similar;
}

async function suggestionsContaining(db: Database, text: string): Promise<SearchSuggestion[]> {
  const pattern = containsPattern(text);
  if (text.length < TRIGRAM) {
    const sparse = await sparseShortText(db, text);
    if (sparse?.length === 0) return [];
    if (sparse) {
      // Only the titles holding one of these words can hold the text: the trigram index finds
      // them, where a walk in catalogue order would test nearly every title.
      const { rows } = await db.execute<SearchSuggestion>(sql`
        select ${suggestionColumns} from ${regularTitles}
        where (${or(...sparse.map((word) => ilike(regularTitles.title, containsPattern(word))))})
          and ${ilike(regularTitles.title, pattern)}
        order by reg_serial_no limit ${SUGGESTIONS_LIMIT}`);
      return rows;
    }
  }
  const people =
    text.length >= PEOPLE_MIN_LENGTH
      ? sql`${ilike(shopperText, pattern)} and not ${ilike(regularTitles.title, pattern)}`
      : sql`false`;
  // The second branch runs only if the first returns fewer than ten rows.
  const { rows } = await db.execute<SearchSuggestion>(sql`
    (select ${suggestionColumns} from ${regularTitles}
     where ${ilike(regularTitles.title, pattern)}
     order by reg_serial_no limit ${SUGGESTIONS_LIMIT})
    union all
    (select ${suggestionColumns} from ${regularTitles}
     where ${people}
     order by reg_serial_no limit ${SUGGESTIONS_LIMIT})
    limit ${SUGGESTIONS_LIMIT}`);
  return rows;
}

/** Text shorter than a trigram is not in the trigram index. */
const TRIGRAM = 3;
/** Below this many titles holding a short text, its titles are found through their words. */
const SPARSE_TITLES = 1_000;
/** …and through no more words than this. */
const SPARSE_WORDS = 24;

/**
 * For one or two letters: the words of titles holding them, when they are few, else undefined
 * (then the titles are walked in catalogue order, where ten holding the text come soon). An empty
 * list: no title holds the text. Undefined too when the text is not one word, or one of the words
 * is itself too short for the trigram index.
 */
async function sparseShortText(db: Database, text: string): Promise<string[] | undefined> {
  const { rows } = await db.execute<{ oneWord: boolean; titles: string; words: string[] | null }>(
    sql`
    select lower(${text}) ~ '^[[:alnum:]]+$' as "oneWord", coalesce(sum(titles), 0) as titles,
      array_agg(word order by word) as words
    from ${searchWords}
    where titles > 0 and strpos(word, lower(${text})) > 0`,
  );
  const [found] = rows;
  if (!found?.oneWord) return undefined;
  const words = found.words ?? [];
  if (words.length === 0) return [];
  const usable = words.length <= SPARSE_WORDS && words.every((word) => word.length >= TRIGRAM);
  return usable && Number(found.titles) < SPARSE_TITLES ? words : undefined;
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
