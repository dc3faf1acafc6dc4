import { eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { adultTitles, comingSoon, regularTitles } from "#app/db/schema.ts";
import { isAgeVerified } from "#app/domain/age-gate/age-gate.server.ts";
import { posterSvg } from "#app/domain/catalog/poster-art.server.ts";
import { positiveInt, POSTER_CACHE } from "#app/lib/http.server.ts";
import { jsonError } from "#app/lib/json.server.ts";
import type { Route } from "./+types/posters.$kind.$file";

type PosterText = { title: string; subtitle?: string | null; band?: string | null };

async function posterText(kind: string, id: number): Promise<PosterText | undefined> {
  const db = getDb();
  if (kind === "regular") {
    const [row] = await db
      .select({
        title: regularTitles.title,
        year: regularTitles.releaseYear,
        disc: regularTitles.disc,
      })
      .from(regularTitles)
      .where(eq(regularTitles.regSerialNo, id));
    return (
      row && { title: row.title, subtitle: row.year ? String(row.year) : null, band: row.disc }
    );
  }
  if (kind === "adult") {
    const [row] = await db
      .select({
        title: adultTitles.title,
        production: adultTitles.production,
        disc: adultTitles.disc,
      })
      .from(adultTitles)
      .where(eq(adultTitles.adultSerialNo, id));
    return row && { title: row.title, subtitle: row.production, band: row.disc };
  }
  if (kind === "coming-soon") {
    const [row] = await db
      .select({ title: comingSoon.title, releaseDate: comingSoon.releaseDate })
      .from(comingSoon)
      .where(eq(comingSoon.id, id));
    return row && { title: row.title, subtitle: row.releaseDate, band: "Coming Soon" };
  }
  return undefined;
}

/** GET /posters/{regular|adult|coming-soon}/{id}.svg: the drawn poster of a title. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const id = positiveInt(params.file.replace(/\.svg$/, ""));
  if (!id || !params.file.endsWith(".svg")) return jsonError(404, "No such poster.");
  if (params.kind === "adult" && !(await isAgeVerified(request))) {
    return jsonError(403, "Confirm your age to see adult posters.");
  }
  const text = await posterText(params.kind, id);
  if (!text) return jsonError(404, "No such poster.");
  return new Response(posterSvg(text), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": params.kind === "adult" ? "private, max-age=86400" : POSTER_CACHE,
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
