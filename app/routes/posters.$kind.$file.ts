import { eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { adultTitles, comingSoon, regularTitles } from "#app/db/schema.ts";
import { isAgeVerified } from "#app/domain/age-gate/age-gate.server.ts";
import { drawnPosterWebp, posterSvg } from "#app/domain/catalog/poster-art.server.ts";
import { positiveInt, POSTER_CACHE, webpImageResponse } from "#app/lib/http.server.ts";
import { jsonError } from "#app/lib/json.server.ts";
import { UPLOADED_POSTER_WIDTHS, type UploadedPosterWidth } from "#app/lib/uploaded-posters.ts";
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

/** `{id}.svg`, or `{id}-{160|320|640}.webp`; anything else is undefined. */
function parsePosterFile(file: string): { id: number; width?: UploadedPosterWidth } | undefined {
  const match = /^(\d{1,9})(?:-(\d+)\.webp|\.svg)$/.exec(file);
  const id = positiveInt(match?.[1]);
  if (!match || !id) return undefined;
  if (match[2] === undefined) return { id };
  const width = UPLOADED_POSTER_WIDTHS.find((known) => String(known) === match[2]);
  return width && { id, width };
}

/**
 * GET /posters/{regular|adult|coming-soon}/{id}-{160|320|640}.webp: the poster drawn from a
 * title, at one width (docs/posters.md); `{id}.svg` is the same drawing as SVG.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const file = parsePosterFile(params.file);
  if (!file) return jsonError(404, "No such poster.");
  const adult = params.kind === "adult";
  if (adult && !(await isAgeVerified(request))) {
    return jsonError(403, "Confirm your age to see adult posters.");
  }
  const text = await posterText(params.kind, file.id);
  if (!text) return jsonError(404, "No such poster.");
  const cacheControl = adult ? "private, max-age=86400" : POSTER_CACHE;
  if (file.width) {
    let image: Uint8Array<ArrayBuffer>;
    try {
      image = await drawnPosterWebp(text, file.width);
    } catch (error) {
      // Drawing needs fonts and memory (docs/posters.md): say so, as an upload that cannot be
      // read does (DESIGN §3.14); the image falls back meanwhile, and the next request draws again.
      console.error(
        `Poster ${params.kind}/${file.id} at ${file.width} px could not be drawn`,
        error,
      );
      return jsonError(503, "The poster cannot be shown right now.");
    }
    return webpImageResponse(image, cacheControl);
  }
  return new Response(posterSvg(text), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": cacheControl,
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
