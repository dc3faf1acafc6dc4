/** Sitemaps change when the catalogue does; crawlers may keep them for an hour. */
const HEADERS = {
  "Content-Type": "application/xml; charset=utf-8",
  "Cache-Control": "public, max-age=3600",
};

export function urlSetResponse(urls: string[]) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((url) => `<url><loc>${url}</loc></url>`)
    .join("\n")}\n</urlset>\n`;
  return new Response(body, { headers: HEADERS });
}

export function sitemapIndexResponse(files: string[]) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${files
    .map((url) => `<sitemap><loc>${url}</loc></sitemap>`)
    .join("\n")}\n</sitemapindex>\n`;
  return new Response(body, { headers: HEADERS });
}
