import { data } from "react-router";
import { ZReportCard } from "#app/components/counter/z-report-card.tsx";
import { PrintBar } from "#app/components/print-bar.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { counterConfig } from "#app/domain/counter/counter-config.server.ts";
import { getTill } from "#app/domain/counter/till.server.ts";
import { keptReport } from "#app/domain/counter/z-report.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta, SHOP } from "#app/lib/site.ts";
import type { Route } from "./+types/counter.till.$id";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(
    loaderData ? `Z report, till ${loaderData.id}` : "Z report",
    "A closed till's Z report, to print.",
  ),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "counter");
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : undefined;
  const till = id === undefined ? undefined : await getTill(getDb(), id);
  if (!till?.closedAt || !till.report) throw data("There is no such closed till.", { status: 404 });
  const { timeZone } = counterConfig();
  return {
    id: till.id,
    report: keptReport(till.report),
    opened: formatShopDateTime(till.openedAt, timeZone),
    closed: formatShopDateTime(till.closedAt, timeZone),
  };
}

export default function ZReportPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-4">
      <PrintBar back={{ to: "/counter/till", label: "Back to the till" }} />
      <article className="counter-receipt flex flex-col gap-3">
        <p className="font-bold">{SHOP.name}</p>
        <h1 className="text-2xl font-bold">Z report, till {loaderData.id}</h1>
        <ZReportCard
          report={loaderData.report}
          opened={loaderData.opened}
          closed={loaderData.closed}
        />
      </article>
    </div>
  );
}
