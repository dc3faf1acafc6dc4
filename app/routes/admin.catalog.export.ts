import { Readable } from "node:stream";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { exportCatalogCsv, type CatalogKind } from "#app/domain/catalog/catalog-csv.server.ts";
import type { Route } from "./+types/admin.catalog.export";

/**
 * GET /admin/items/export.csv and /admin/adult/items/export.csv: the whole catalogue in the
 * spec's column names, streamed page by page (100,000 titles never sit in memory).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  const kind: CatalogKind = new URL(request.url).pathname.includes("/adult/") ? "adult" : "regular";
  const day = new Date().toISOString().slice(0, 10);
  const body = Readable.toWeb(Readable.from(exportCatalogCsv(getDb(), kind))) as ReadableStream;
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${kind}-titles-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
