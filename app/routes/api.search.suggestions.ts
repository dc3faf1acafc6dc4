import { getDb } from "#app/db/client.server.ts";
import { suggestRegularTitles } from "#app/domain/catalog/regular-titles.server.ts";
import { normalizeQuery } from "#app/domain/catalog/search-text.ts";
import type { Route } from "./+types/api.search.suggestions";

/**
 * GET /api/search/suggestions?query=… →
 * { suggestions: [{ regSerialNo, title, disc, priceCents, inStock }] } (max 10): by title, then
 * director or cast, then close spellings.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const query = normalizeQuery(new URL(request.url).searchParams.get("query"));
  const suggestions = query ? await suggestRegularTitles(getDb(), query) : [];
  return Response.json(
    { query, suggestions },
    { headers: { "Cache-Control": "public, max-age=60, s-maxage=300" } },
  );
}
