import { getDb } from "#app/db/client.server.ts";
import { sitemapPlan } from "#app/domain/catalog/sitemap.server.ts";
import { publicUrl } from "#app/lib/env.server.ts";
import { sitemapIndexResponse, urlSetResponse } from "#app/lib/sitemap-xml.server.ts";

/**
 * Public pages and regular title pages (never the adult catalogue): one file while they fit,
 * an index of files past 50,000 addresses. Addresses come from PUBLIC_URL, never from the
 * request's Host (a cached answer must not name another host).
 */
export async function loader() {
  const origin = publicUrl();
  const plan = await sitemapPlan(getDb());
  if (plan.kind === "single") return urlSetResponse(plan.paths.map((path) => `${origin}${path}`));
  return sitemapIndexResponse(plan.files.map((file) => `${origin}/sitemaps/titles/${file}.xml`));
}
