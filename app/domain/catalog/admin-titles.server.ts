import { and, asc, count, desc, eq, ilike, isNotNull, sql, type AnyColumn } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import {
  adultAdminSearchText,
  adultTitles,
  regularAdminSearchText,
  regularTitles,
  staffPicks,
} from "#app/db/schema.ts";
import { releaseUploadedPosters } from "#app/domain/posters/upload.server.ts";
import { clampPage, nearerEnd, pageCountFor } from "#app/lib/pagination.ts";
import { ADMIN_PAGE_SIZE, COUNT_CAP, countUpTo } from "#app/domain/admin/lists.server.ts";
import { keptCount } from "./regular-titles.server.ts";
import { containsPattern } from "./search-text.ts";
import type { AdultTitleValues, RegularTitleValues } from "./title-input.ts";

/** Spec §9: at most five staff picks. */
export const STAFF_PICK_LIMIT = 5;

export type SortDirection = "asc" | "desc";
export type AdminListParams = {
  query: string;
  sort: string;
  dir: SortDirection;
  page: number;
  /** Only the staff picks (regular titles). */
  picks: boolean;
};

export const REGULAR_SORTS = {
  serial: regularTitles.regSerialNo,
  title: regularTitles.title,
  disc: regularTitles.disc,
  year: regularTitles.releaseYear,
  price: regularTitles.currentPriceCents,
  qty: regularTitles.qtyToList,
} as const;

export const ADULT_SORTS = {
  serial: adultTitles.adultSerialNo,
  title: adultTitles.title,
  production: adultTitles.production,
  price: adultTitles.priceCents,
  qty: adultTitles.quantity,
  date: adultTitles.releaseDate,
} as const;

/** Reads the table's state from the URL; anything unknown falls back to serial ascending. */
export function adminListParams(
  params: URLSearchParams,
  sorts: Record<string, unknown>,
): AdminListParams {
  const sort = params.get("sort") ?? "serial";
  const page = Number(params.get("page") ?? "1");
  return {
    query: (params.get("q") ?? "").replace(/\s+/g, " ").trim().slice(0, 100),
    sort: sort in sorts ? sort : "serial",
    dir: params.get("dir") === "desc" ? "desc" : "asc",
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
    picks: params.get("picks") === "1",
  };
}

/** The list's order; `reversed`, the same order backwards (its index walked from the other end). */
function ordering(column: AnyColumn, dir: SortDirection, key: AnyColumn, reversed = false) {
  const by = (dir === "desc") !== reversed ? desc : asc;
  return [by(column), by(key)];
}

/** A page read from the start (a capped count does not say where the end is). */
function fromStart(page: number) {
  return { reversed: false, offset: (page - 1) * ADMIN_PAGE_SIZE, limit: ADMIN_PAGE_SIZE };
}

export async function listRegularTitlesForAdmin(db: Database, params: AdminListParams) {
  const where = and(
    params.query
      ? ilike(regularAdminSearchText(regularTitles), containsPattern(params.query))
      : undefined,
    params.picks ? isNotNull(staffPicks.regSerialNo) : undefined,
  );
  const { total, capped } = where
    ? await countUpTo(
        db,
        db
          .select({ one: sql`1` })
          .from(regularTitles)
          .leftJoin(staffPicks, eq(staffPicks.regSerialNo, regularTitles.regSerialNo))
          .where(where)
          .limit(COUNT_CAP + 1)
          .as("matches"),
      )
    : { total: await keptCount(db, "regular"), capped: false };
  const pageCount = pageCountFor(total, ADMIN_PAGE_SIZE);
  const page = clampPage(params.page, pageCount);
  const column = REGULAR_SORTS[params.sort as keyof typeof REGULAR_SORTS];
  const end = !capped ? nearerEnd(page, ADMIN_PAGE_SIZE, total) : fromStart(page);
  const rows = await db
    .select({
      serialNo: regularTitles.regSerialNo,
      productId: regularTitles.productId,
      title: regularTitles.title,
      disc: regularTitles.disc,
      releaseYear: regularTitles.releaseYear,
      priceCents: regularTitles.currentPriceCents,
      qty: regularTitles.qtyToList,
      staffPick: sql<boolean>`${staffPicks.regSerialNo} is not null`,
    })
    .from(regularTitles)
    .leftJoin(staffPicks, eq(staffPicks.regSerialNo, regularTitles.regSerialNo))
    .where(where)
    .orderBy(...ordering(column, params.dir, regularTitles.regSerialNo, end.reversed))
    .limit(end.limit)
    .offset(end.offset);
  if (end.reversed) rows.reverse();
  const [{ picks }] = (await db.select({ picks: count() }).from(staffPicks)) as [{ picks: number }];
  return { rows, total, capped, page, pageCount, staffPickCount: picks };
}

export async function listAdultTitlesForAdmin(db: Database, params: AdminListParams) {
  const where = params.query
    ? ilike(adultAdminSearchText(adultTitles), containsPattern(params.query))
    : undefined;
  const { total, capped } = where
    ? await countUpTo(
        db,
        db
          .select({ one: sql`1` })
          .from(adultTitles)
          .where(where)
          .limit(COUNT_CAP + 1)
          .as("matches"),
      )
    : { total: await keptCount(db, "adult"), capped: false };
  const pageCount = pageCountFor(total, ADMIN_PAGE_SIZE);
  const page = clampPage(params.page, pageCount);
  const column = ADULT_SORTS[params.sort as keyof typeof ADULT_SORTS];
  const end = !capped ? nearerEnd(page, ADMIN_PAGE_SIZE, total) : fromStart(page);
  const rows = await db
    .select({
      serialNo: adultTitles.adultSerialNo,
      productId: adultTitles.productId,
      title: adultTitles.title,
      production: adultTitles.production,
      releaseDate: adultTitles.releaseDate,
      priceCents: adultTitles.priceCents,
      qty: adultTitles.quantity,
    })
    .from(adultTitles)
    .where(where)
    .orderBy(...ordering(column, params.dir, adultTitles.adultSerialNo, end.reversed))
    .limit(end.limit)
    .offset(end.offset);
  if (end.reversed) rows.reverse();
  return { rows, total, capped, page, pageCount };
}

export async function getRegularTitleForEdit(db: Database, serialNo: number) {
  const [row] = await db
    .select()
    .from(regularTitles)
    .where(eq(regularTitles.regSerialNo, serialNo));
  return row ?? null;
}

export async function getAdultTitleForEdit(db: Database, serialNo: number) {
  const [row] = await db.select().from(adultTitles).where(eq(adultTitles.adultSerialNo, serialNo));
  return row ?? null;
}

/**
 * Adds a regular title under the highest serial ever issued plus one (spec §3: the current
 * maximum plus one, except that a deleted title's serial is never given again, so old links and
 * carts never lead to another film). The identity sequence draws it; the catalogue's insert
 * trigger (drizzle/0016_catalogue_serials.sql) makes an import running at the same moment wait
 * or be waited for, so neither fails.
 */
export async function addRegularTitle(
  db: Database | Transaction,
  values: RegularTitleValues & { posterUrl?: string | null },
): Promise<number> {
  const [row] = await db
    .insert(regularTitles)
    .values(values)
    .returning({ serialNo: regularTitles.regSerialNo });
  return row!.serialNo;
}

export async function addAdultTitle(
  db: Database | Transaction,
  values: AdultTitleValues & { posterUrl?: string | null },
): Promise<number> {
  const [row] = await db
    .insert(adultTitles)
    .values(values)
    .returning({ serialNo: adultTitles.adultSerialNo });
  return row!.serialNo;
}

/** Saves an edit; false when the title no longer exists. */
export async function updateRegularTitle(
  db: Database | Transaction,
  serialNo: number,
  values: RegularTitleValues & { posterUrl?: string | null },
): Promise<boolean> {
  const rows = await db
    .update(regularTitles)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(regularTitles.regSerialNo, serialNo))
    .returning({ serialNo: regularTitles.regSerialNo });
  return rows.length === 1;
}

export async function updateAdultTitle(
  db: Database | Transaction,
  serialNo: number,
  values: AdultTitleValues & { posterUrl?: string | null },
): Promise<boolean> {
  const rows = await db
    .update(adultTitles)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(adultTitles.adultSerialNo, serialNo))
    .returning({ serialNo: adultTitles.adultSerialNo });
  return rows.length === 1;
}

/**
 * Deletes a title for good (its staff pick goes with it); past orders keep their lines. Its
 * uploaded poster's files go once the delete is committed, unless something else shows them.
 */
export async function deleteRegularTitle(db: Database, serialNo: number): Promise<boolean> {
  const rows = await db
    .delete(regularTitles)
    .where(eq(regularTitles.regSerialNo, serialNo))
    .returning({ posterUrl: regularTitles.posterUrl });
  await releaseUploadedPosters(
    db,
    rows.map((row) => row.posterUrl),
  );
  return rows.length === 1;
}

export async function deleteAdultTitle(db: Database, serialNo: number): Promise<boolean> {
  const rows = await db
    .delete(adultTitles)
    .where(eq(adultTitles.adultSerialNo, serialNo))
    .returning({ posterUrl: adultTitles.posterUrl });
  await releaseUploadedPosters(
    db,
    rows.map((row) => row.posterUrl),
  );
  return rows.length === 1;
}

export type StaffPickResult = "on" | "off" | "limit-reached" | "not-found";

/**
 * Turns a title's staff pick on or off (spec §4): on is refused when five already exist;
 * off deletes the pick. The count is checked under a lock, so two admins cannot make six.
 */
export async function setStaffPick(
  db: Database,
  serialNo: number,
  on: boolean,
): Promise<StaffPickResult> {
  if (!on) {
    await db.delete(staffPicks).where(eq(staffPicks.regSerialNo, serialNo));
    return "off";
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('staff_picks'))`);
    const [title] = await tx
      .select({ serialNo: regularTitles.regSerialNo })
      .from(regularTitles)
      .where(eq(regularTitles.regSerialNo, serialNo));
    if (!title) return "not-found";
    const [existing] = await tx
      .select({ serialNo: staffPicks.regSerialNo })
      .from(staffPicks)
      .where(eq(staffPicks.regSerialNo, serialNo));
    if (existing) return "on";
    const [{ picks }] = (await tx.select({ picks: count() }).from(staffPicks)) as [
      { picks: number },
    ];
    if (picks >= STAFF_PICK_LIMIT) return "limit-reached";
    await tx.insert(staffPicks).values({ regSerialNo: serialNo });
    return "on";
  });
}
