import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { closedTills } from "#app/domain/counter/till.server.ts";
import { zReportRows } from "#app/domain/counter/z-report-csv.ts";
import { csvRows } from "#app/lib/csv.server.ts";
import type { Route } from "./+types/counter.till.export";

/** GET /counter/till/export.csv: every closed till's Z report, oldest first, for the accountant. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "counter");
  const tills = await closedTills(getDb(), 10_000);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csvRows(zReportRows(tills.reverse().map((till) => till.report))), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="z-reports-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
