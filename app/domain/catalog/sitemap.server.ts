import { asc, between, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { regularTitles } from "#app/db/schema.ts";
import { keptCount } from "./regular-titles.server.ts";

/** The shop's public pages besides the title pages. */
export const SITEMAP_STATIC_PATHS = [
  "/",
  "/movies",
  "/new-arrivals",
  "/staff-picks",
  "/about",
  "/returns",
  "/other-services",
];

/** A sitemap file may list at most 50,000 addresses (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * What /sitemap.xml is: every address in one file while they fit, otherwise an index of files
 * that each list the title pages of one range of serial numbers (`perFile` serials each, so a
 * file never passes the limit however the numbers are spread, and each is read by key). Only
 * ranges holding a title are listed (an imported catalogue may number from 5,000,000), and the
 * first file always, for the public pages. The adult catalogue is never listed.
 */
export type SitemapPlan = { kind: "single"; paths: string[] } | { kind: "index"; files: number[] };

export async function sitemapPlan(
  db: Database,
  perFile = SITEMAP_MAX_URLS - SITEMAP_STATIC_PATHS.length,
): Promise<SitemapPlan> {
  const titles = await keptCount(db, "regular");
  if (titles + SITEMAP_STATIC_PATHS.length <= SITEMAP_MAX_URLS && titles <= perFile) {
    const serials = await serialsBetween(db, 1, Number.MAX_SAFE_INTEGER);
    return { kind: "single", paths: [...SITEMAP_STATIC_PATHS, ...serials.map(titlePath)] };
  }
  // From each range holding a title straight to the next one, one index probe per file.
  const { rows } = await db.execute<{ file: number }>(sql`
    with recursive files(file) as (
      select (min(${regularTitles.regSerialNo}) - 1) / ${perFile} + 1 from ${regularTitles}
      union all
      select (
        select (min(${regularTitles.regSerialNo}) - 1) / ${perFile} + 1 from ${regularTitles}
        where ${regularTitles.regSerialNo} > files.file::bigint * ${perFile}
      )
      from files where files.file is not null
    )
    select file from files where file is not null`);
  const withTitles = rows.map((row) => Number(row.file));
  return { kind: "index", files: [...new Set([1, ...withTitles])].sort((a, b) => a - b) };
}

/** The addresses of one file of the index (1-based); the first also lists the public pages. */
export async function sitemapFile(
  db: Database,
  file: number,
  perFile = SITEMAP_MAX_URLS - SITEMAP_STATIC_PATHS.length,
): Promise<string[]> {
  const serials = await serialsBetween(db, (file - 1) * perFile + 1, file * perFile);
  return [...(file === 1 ? SITEMAP_STATIC_PATHS : []), ...serials.map(titlePath)];
}

function titlePath(serial: number) {
  return `/movies/${serial}`;
}

async function serialsBetween(db: Database, from: number, to: number): Promise<number[]> {
  const rows = await db
    .select({ serial: regularTitles.regSerialNo })
    .from(regularTitles)
    .where(between(regularTitles.regSerialNo, from, Math.min(to, 2 ** 31 - 1)))
    .orderBy(asc(regularTitles.regSerialNo));
  return rows.map((row) => row.serial);
}
