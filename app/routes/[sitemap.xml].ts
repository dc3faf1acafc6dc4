import { asc } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { regularTitles } from "#app/db/schema.ts";
import type { Route } from "./+types/[sitemap.xml]";

const STATIC_PATHS = ["/", "/movies", "/new-arrivals", "/staff-picks", "/about", "/other-services"];
/** A sitemap file may list at most 50,000 addresses. */
const MAX_TITLES = 49_000;

/** Public pages and regular title pages; the adult catalogue is never listed. */
export async function loader({ request }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const titles = await getDb()
    .select({ regSerialNo: regularTitles.regSerialNo })
    .from(regularTitles)
    .orderBy(asc(regularTitles.regSerialNo))
    .limit(MAX_TITLES);
  const urls = [
    ...STATIC_PATHS.map((path) => `${origin}${path}`),
    ...titles.map((title) => `${origin}/movies/${title.regSerialNo}`),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((url) => `<url><loc>${url}</loc></url>`)
    .join("\n")}\n</urlset>\n`;
  return new Response(body, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
