import { asc, count, desc, eq, ilike, inArray, type SQL } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { adultTitles } from "#app/db/schema.ts";
import { clampPage, pageCountFor } from "#app/lib/pagination.ts";
import { posterSrc } from "#app/lib/posters.ts";
import { keptCount, type Page, type TitleSort } from "./regular-titles.server.ts";
import { containsPattern } from "./search-text.ts";

export const ADULT_PAGE_SIZE = 21;

const columns = {
  adultSerialNo: adultTitles.adultSerialNo,
  title: adultTitles.title,
  production: adultTitles.production,
  priceCents: adultTitles.priceCents,
  quantity: adultTitles.quantity,
  releaseDate: adultTitles.releaseDate,
  disc: adultTitles.disc,
  genre: adultTitles.genre,
  condition: adultTitles.condition,
  description: adultTitles.description,
  posterUrl: adultTitles.posterUrl,
};

type Row = {
  adultSerialNo: number;
  title: string;
  production: string | null;
  priceCents: number;
  quantity: number;
  releaseDate: string | null;
  disc: string | null;
  genre: string | null;
  condition: string | null;
  description: string | null;
  posterUrl: string | null;
};

export type AdultTitleCard = Omit<Row, "posterUrl"> & {
  poster: string;
  year: number | null;
  inStock: boolean;
};

function toCard(row: Row): AdultTitleCard {
  const { posterUrl, ...rest } = row;
  return {
    ...rest,
    poster: posterSrc("adult", row.adultSerialNo, posterUrl),
    year: row.releaseDate ? Number(row.releaseDate.slice(0, 4)) : null,
    inStock: row.quantity > 0,
  };
}

export type AdultSort = Exclude<TitleSort, "none"> | "none";

export async function listAdultTitles(
  db: Database,
  options: { page: number; production?: string; sort: AdultSort },
): Promise<Page<AdultTitleCard>> {
  const where: SQL | undefined = options.production
    ? ilike(adultTitles.production, containsPattern(options.production))
    : undefined;
  const order =
    options.sort === "az"
      ? [asc(adultTitles.title), asc(adultTitles.adultSerialNo)]
      : options.sort === "za"
        ? [desc(adultTitles.title), desc(adultTitles.adultSerialNo)]
        : [asc(adultTitles.adultSerialNo)];
  // Same shape as the regular list: keys from the index first, then the page's rows.
  const fetchPage = (page: number) =>
    db
      .select(columns)
      .from(adultTitles)
      .where(
        inArray(
          adultTitles.adultSerialNo,
          db
            .select({ key: adultTitles.adultSerialNo })
            .from(adultTitles)
            .where(where)
            .orderBy(...order)
            .limit(ADULT_PAGE_SIZE)
            .offset((page - 1) * ADULT_PAGE_SIZE),
        ),
      )
      .orderBy(...order);
  const [total, firstTry] = await Promise.all([
    where
      ? db
          .select({ total: count() })
          .from(adultTitles)
          .where(where)
          .then(([row]) => row?.total ?? 0)
      : keptCount(db, "adult"),
    fetchPage(Math.max(1, options.page)),
  ]);
  const pageCount = pageCountFor(total, ADULT_PAGE_SIZE);
  const page = clampPage(options.page, pageCount);
  const rows = page === options.page ? firstTry : await fetchPage(page);
  return { items: rows.map(toCard), total, page, pageCount };
}

export async function getAdultTitle(
  db: Database,
  adultSerialNo: number,
): Promise<AdultTitleCard | undefined> {
  const [row] = await db
    .select(columns)
    .from(adultTitles)
    .where(eq(adultTitles.adultSerialNo, adultSerialNo))
    .limit(1);
  return row ? toCard(row) : undefined;
}

export async function adultTitlesBySerial(db: Database, serials: number[]) {
  if (serials.length === 0) return [];
  const rows = await db
    .select(columns)
    .from(adultTitles)
    .where(inArray(adultTitles.adultSerialNo, serials));
  return rows.map(toCard);
}
