import { data } from "react-router";
import { panel } from "#app/components/admin/dashboard/figures.ts";
import { RepairPanels } from "#app/components/admin/dashboard/repair-panels.tsx";
import { LowStock, MostWanted } from "#app/components/admin/dashboard/stock-panels.tsx";
import { SummaryPanels } from "#app/components/admin/dashboard/summary-panels.tsx";
import { AdminListHeader } from "#app/components/admin/data-table.tsx";
import { SalesChart } from "#app/components/admin/sales-chart.tsx";
import { getDb } from "#app/db/client.server.ts";
import { can } from "#app/domain/accounts/permissions.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { mostWanted } from "#app/domain/alerts/alerts.server.ts";
import { dashboardFigures } from "#app/domain/dashboard/dashboard.server.ts";
import { repairDesk } from "#app/domain/repair-tickets/shop-context.server.ts";
import { repairSummary } from "#app/domain/repair-tickets/tickets.server.ts";
import { returnCounts } from "#app/domain/returns/returns.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Dashboard", "The shop at a glance: sales, orders to ship, repairs and stock."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaff(request, "back-office");
  const env = getEnv();
  const now = new Date();
  try {
    const figures = await dashboardFigures(getDb(), {
      now,
      timeZone: env.SHOP_TIME_ZONE,
      lowStockThreshold: env.LOW_STOCK_THRESHOLD,
    });
    const [tickets, returns, wanted] = await Promise.all([
      repairSummary(getDb(), repairDesk(now).today),
      returnCounts(getDb()),
      mostWanted(getDb(), 10),
    ]);
    return {
      ...figures,
      tickets,
      returns,
      wanted,
      asOf: now.toISOString(),
      timeZone: env.SHOP_TIME_ZONE,
      lowStockThreshold: env.LOW_STOCK_THRESHOLD,
      mayOpenInbox: can(user.role, "inbox"),
      mayEditCatalogue: can(user.role, "catalogue"),
    };
  } catch (error) {
    // DESIGN §3.14: say the page cannot be shown right now, rather than show wrong figures.
    console.error("The dashboard could not be loaded", error);
    throw data("The dashboard could not be loaded.", { status: 503 });
  }
}

export default function Dashboard({ loaderData: figures }: Route.ComponentProps) {
  return (
    <>
      <AdminListHeader
        heading="Dashboard"
        summary={`As of ${formatShopDateTime(new Date(figures.asOf), figures.timeZone)}, shop time (${figures.timeZone}).`}
      />

      <SummaryPanels figures={figures} />

      <section aria-labelledby="sales-heading" className={`${panel} mt-6`}>
        <h2 id="sales-heading" className="text-lg font-semibold">
          Sales in the last {figures.salesByDay.length} days
        </h2>
        <p className="mb-3 text-sm text-muted-foreground">
          Revenue (bars) and orders (line) of paid orders, by the day they were paid.
        </p>
        <SalesChart days={figures.salesByDay} />
      </section>

      <div className="mt-6 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <RepairPanels figures={figures} />
        <LowStock figures={figures} />
        <MostWanted wanted={figures.wanted} linked={figures.mayEditCatalogue} />
      </div>
    </>
  );
}
