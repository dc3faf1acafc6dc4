import { Readable } from "node:stream";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { adminOrderFilter, exportOrdersCsv } from "#app/domain/orders/admin-orders.server.ts";
import { ledgersOf } from "#app/domain/returns/returns.server.ts";
import type { Route } from "./+types/admin.orders.export";

/** GET /admin/orders/export.csv: the orders the list's filters select, streamed batch by batch. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "orders.manage");
  const filter = adminOrderFilter(new URL(request.url).searchParams);
  const day = new Date().toISOString().slice(0, 10);
  const name = `orders${filter.status ? `-${filter.status}` : ""}-${day}.csv`;
  const rows = exportOrdersCsv(getDb(), filter, { moneyBack: ledgersOf });
  const body = Readable.toWeb(Readable.from(rows)) as ReadableStream;
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
