import { asc, eq, gte } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { comingSoon, regularTitles } from "#app/db/schema.ts";
import { endReleaseAlerts } from "#app/domain/alerts/alerts.server.ts";
import { posterSrc } from "#app/lib/posters.ts";

export const COMING_SOON_LIMIT = 12;

export type ComingSoonCard = {
  id: number;
  title: string;
  releaseDate: string;
  description: string | null;
  poster: string;
};

/**
 * Upcoming titles, soonest first; entries whose date has passed drop off by themselves. `today`
 * is the shop's calendar date (`shopCalendarDate`), not the database's: a title stays on the list
 * through its release day in Arlington, though the database's clock may be in UTC.
 */
export async function listComingSoon(
  db: Database,
  today: string,
  limit = COMING_SOON_LIMIT,
): Promise<ComingSoonCard[]> {
  const rows = await db
    .select({
      id: comingSoon.id,
      title: comingSoon.title,
      releaseDate: comingSoon.releaseDate,
      description: comingSoon.description,
      posterUrl: comingSoon.posterUrl,
    })
    .from(comingSoon)
    .where(gte(comingSoon.releaseDate, today))
    .orderBy(asc(comingSoon.releaseDate), asc(comingSoon.id))
    .limit(limit);
  return rows.map(({ posterUrl, ...row }) => ({
    ...row,
    poster: posterSrc("coming-soon", row.id, posterUrl),
  }));
}

/** An entry with the catalogue title staff linked it to once it arrived (null until then). */
export type LinkedComingSoon = ComingSoonCard & {
  linkedTitle: { serialNo: number; title: string } | null;
};

const linkedColumns = {
  id: comingSoon.id,
  title: comingSoon.title,
  releaseDate: comingSoon.releaseDate,
  description: comingSoon.description,
  posterUrl: comingSoon.posterUrl,
  linkedSerialNo: regularTitles.regSerialNo,
  linkedTitle: regularTitles.title,
};

function withLink({
  posterUrl,
  linkedSerialNo,
  linkedTitle,
  ...row
}: {
  id: number;
  title: string;
  releaseDate: string;
  description: string | null;
  posterUrl: string;
  linkedSerialNo: number | null;
  linkedTitle: string | null;
}): LinkedComingSoon {
  return {
    ...row,
    poster: posterSrc("coming-soon", row.id, posterUrl),
    linkedTitle:
      linkedSerialNo !== null && linkedTitle !== null
        ? { serialNo: linkedSerialNo, title: linkedTitle }
        : null,
  };
}

/** One Coming Soon entry, for its own page; null if there is none. */
export async function getComingSoon(db: Database, id: number): Promise<LinkedComingSoon | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const [row] = await db
    .select(linkedColumns)
    .from(comingSoon)
    .leftJoin(regularTitles, eq(regularTitles.regSerialNo, comingSoon.regSerialNo))
    .where(eq(comingSoon.id, id));
  return row ? withLink(row) : null;
}

/** Every Coming Soon entry for the back office, by release date (past ones too). */
export async function listComingSoonForAdmin(db: Database): Promise<LinkedComingSoon[]> {
  const rows = await db
    .select(linkedColumns)
    .from(comingSoon)
    .leftJoin(regularTitles, eq(regularTitles.regSerialNo, comingSoon.regSerialNo))
    .orderBy(asc(comingSoon.releaseDate), asc(comingSoon.id));
  return rows.map(withLink);
}

export async function addComingSoon(
  db: Database,
  entry: { title: string; releaseDate: string; description: string | null; posterUrl: string },
): Promise<number> {
  const [row] = await db.insert(comingSoon).values(entry).returning({ id: comingSoon.id });
  return row!.id;
}

/**
 * Removes an entry, and in the same transaction the release alerts waiting for it alone
 * (`endReleaseAlerts`). Returns its poster value, so the files can go too, and how many people
 * were waiting for its release (they are not told); null if there was no such entry.
 */
export async function deleteComingSoon(
  db: Database,
  id: number,
): Promise<{ posterUrl: string; endedAlerts: number } | null> {
  return db.transaction(async (tx) => {
    // Locked first: a signup on the entry at this moment either lands before, and ends with
    // it, or finds no entry.
    const [entry] = await tx
      .select({ posterUrl: comingSoon.posterUrl })
      .from(comingSoon)
      .where(eq(comingSoon.id, id))
      .for("update");
    if (!entry) return null;
    const endedAlerts = await endReleaseAlerts(tx, id);
    await tx.delete(comingSoon).where(eq(comingSoon.id, id));
    return { posterUrl: entry.posterUrl, endedAlerts };
  });
}
