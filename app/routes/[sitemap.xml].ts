import { getDb } from "#app/db/client.server.ts";
import { listRegularSerialNumbers } from "#app/domain/catalog/regular-titles.server.ts";
import { publicUrl } from "#app/lib/env.server.ts";

const STATIC_PATHS = [
  "/",
  "/movies",
  "/new-arrivals",
  "/staff-picks",
  "/about",
  "/returns",
  "/other-services",
];
/** A sitemap file may list at most 50,000 addresses. */
const MAX_TITLES = 49_000;

/**
 * Public pages and regular title pages; the adult catalogue is never listed. Addresses come
 * from PUBLIC_URL, never from the request's Host (a cached answer must not name another host).
 */
export async function loader() {
  const origin = publicUrl();
  const serials = await listRegularSerialNumbers(getDb(), MAX_TITLES);
  const urls = [
    ...STATIC_PATHS.map((path) => `${origin}${path}`),
    ...serials.map((serial) => `${origin}/movies/${serial}`),
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
