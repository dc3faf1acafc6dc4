import { Readable } from "node:stream";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { exportStoreItemsCsv } from "#app/domain/store-items/items-csv.server.ts";
import type { Route } from "./+types/admin.store-items.export";

/** GET /admin/store-items/export.csv: the items on sale, streamed page by page. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  const day = new Date().toISOString().slice(0, 10);
  const body = Readable.toWeb(Readable.from(exportStoreItemsCsv(getDb()))) as ReadableStream;
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="store-items-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
