import { data } from "react-router";
import { getDb } from "#app/db/client.server.ts";
import { sitemapFile } from "#app/domain/catalog/sitemap.server.ts";
import { publicUrl } from "#app/lib/env.server.ts";
import { urlSetResponse } from "#app/lib/sitemap-xml.server.ts";
import type { Route } from "./+types/sitemaps.titles.$file";

/** One file of the sitemap index: `/sitemaps/titles/<n>.xml`. */
export async function loader({ params }: Route.LoaderArgs) {
  const match = /^([1-9]\d{0,5})\.xml$/.exec(params.file);
  if (!match) throw data("Not found", { status: 404 });
  const origin = publicUrl();
  const paths = await sitemapFile(getDb(), Number(match[1]));
  return urlSetResponse(paths.map((path) => `${origin}${path}`));
}
