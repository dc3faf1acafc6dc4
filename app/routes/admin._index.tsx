import { TrendingDown, TrendingUp } from "#app/components/ui/icons.tsx";
import { data, Link } from "react-router";
import { AdminListHeader } from "#app/components/admin/data-table.tsx";
import { SalesChart } from "#app/components/admin/sales-chart.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireAdmin } from "#app/domain/accounts/session.server.ts";
import { mostWanted, type WantedTitle } from "#app/domain/alerts/alerts.server.ts";
import { ALERT_KIND_LABELS, waitingLabel } from "#app/domain/alerts/status.ts";
import { dashboardFigures } from "#app/domain/dashboard/dashboard.server.ts";
import { repairDesk } from "#app/domain/repair-tickets/shop-context.server.ts";
import { OTHER_AMOUNT_DAYS } from "#app/domain/repair-tickets/status.ts";
import { repairSummary } from "#app/domain/repair-tickets/tickets.server.ts";
import { returnCounts } from "#app/domain/returns/returns.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Dashboard", "The shop at a glance: sales, orders to ship, repairs and stock."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
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
    };
  } catch (error) {
    // DESIGN §3.14: say the page cannot be shown right now, rather than show wrong figures.
    console.error("The dashboard could not be loaded", error);
    throw data("The dashboard could not be loaded.", { status: 503 });
  }
}

type Figures = Route.ComponentProps["loaderData"];

/** "2026-03" as "March"; the month is already the shop's, so no zone applies. */
function monthName(month: string) {
  return new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" }).format(
    new Date(`${month}-01T00:00:00Z`),
  );
}

function dayName(day: string) {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

function plural(count: number, noun: string) {
  return `${count.toLocaleString("en-US")} ${count === 1 ? noun : `${noun}s`}`;
}

const panel = "rounded-xl border bg-card p-5 text-card-foreground";
const moreLink = "mt-3 inline-block text-sm font-medium text-primary underline";

function RevenueChange({ figures }: { figures: Figures }) {
  const last = monthName(figures.lastMonth.month);
  const change = figures.revenueChangePercent;
  if (change === null) {
    return <p className="mt-1 text-sm text-muted-foreground">No sales in {last} to compare.</p>;
  }
  if (change === 0) {
    return <p className="mt-1 text-sm text-muted-foreground">The same as {last}.</p>;
  }
  const Icon = change > 0 ? TrendingUp : TrendingDown;
  return (
    <p
      className={`mt-1 flex items-center gap-1 text-sm font-medium ${change > 0 ? "text-success" : "text-destructive"}`}
    >
      <Icon aria-hidden="true" className="size-4" />
      {change > 0 ? "Up" : "Down"} {Math.abs(change).toLocaleString("en-US")}% on {last}
    </p>
  );
}

function Appointments({ figures, day, label }: { figures: Figures; day: string; label: string }) {
  const time = new Intl.DateTimeFormat("en-US", {
    timeStyle: "short",
    timeZone: figures.timeZone,
  });
  const list = figures.appointments.filter((appointment) => appointment.day === day);
  return (
    <div>
      <h3 className="text-sm font-semibold">
        {label}, {dayName(day)}
      </h3>
      {list.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">No appointments.</p>
      ) : (
        <ul className="mt-1 divide-y text-sm">
          {list.map((appointment) => (
            <li key={appointment.id}>
              <Link
                to={`/admin/inbox/repair/${appointment.id}`}
                className="flex flex-wrap gap-x-3 py-2 hover:underline"
              >
                <span className="w-16 shrink-0 font-medium tabular-nums">
                  {time.format(new Date(appointment.startsAt))}
                </span>
                <span>{appointment.serviceType}</span>
                <span className="text-muted-foreground">{appointment.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function LowStockList({
  heading,
  titles,
  more,
  editHref,
  listHref,
}: {
  heading: string;
  titles: { serialNo: number; title: string; quantity: number }[];
  more: boolean;
  editHref: (serialNo: number) => string;
  listHref: string;
}) {
  return (
    <div>
      <h3 className="text-sm font-semibold">{heading}</h3>
      {titles.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">None.</p>
      ) : (
        <ul className="mt-1 divide-y text-sm">
          {titles.map((title) => (
            <li key={title.serialNo} className="flex items-baseline justify-between gap-3 py-2">
              <Link to={editHref(title.serialNo)} className="min-w-0 break-words hover:underline">
                {title.title}
              </Link>
              <span className="shrink-0 text-muted-foreground tabular-nums">
                {title.quantity} left
              </span>
            </li>
          ))}
        </ul>
      )}
      {more ? (
        <Link to={listHref} className={moreLink}>
          More: the list by stock, fewest first
        </Link>
      ) : null}
    </div>
  );
}

/** What shoppers asked to be told about most: a title's restock or an entry's release. */
function MostWanted({ wanted }: { wanted: WantedTitle[] }) {
  return (
    <section aria-labelledby="wanted-heading" className={panel}>
      <h2 id="wanted-heading" className="text-lg font-semibold">
        Most wanted
      </h2>
      <p className="text-sm text-muted-foreground">
        Titles with the most shoppers waiting for an e-mail alert.
      </p>
      {wanted.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">Nobody is waiting for a title.</p>
      ) : (
        <ul className="mt-2 divide-y text-sm">
          {wanted.map((row) => (
            <li key={`${row.kind}-${row.id}`} className="flex items-baseline gap-3 py-2">
              <Link
                to={row.kind === "restock" ? `/admin/items/${row.id}/edit` : "/admin/coming-soon"}
                className="min-w-0 flex-1 break-words hover:underline"
              >
                {row.title}
              </Link>
              <span className="shrink-0 text-muted-foreground">
                {ALERT_KIND_LABELS[row.kind].toLowerCase()}
              </span>
              <span className="shrink-0 font-semibold tabular-nums">
                {waitingLabel(row.waiting)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function Dashboard({ loaderData: figures }: Route.ComponentProps) {
  const unread = figures.unread.contacts + figures.unread.repairs;
  return (
    <>
      <AdminListHeader
        heading="Dashboard"
        summary={`As of ${formatShopDateTime(new Date(figures.asOf), figures.timeZone)}, shop time (${figures.timeZone}).`}
      />

      <div className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <section aria-labelledby="revenue-heading" className={panel}>
          <h2 id="revenue-heading" className="text-sm font-medium text-muted-foreground">
            Revenue in {monthName(figures.thisMonth.month)}
          </h2>
          <p className="mt-2 text-3xl font-bold tabular-nums">
            {formatUsd(figures.thisMonth.revenueCents)}
          </p>
          <p className="mt-1 text-sm">
            {plural(figures.thisMonth.orders, "order")} · {monthName(figures.lastMonth.month)}:{" "}
            {formatUsd(figures.lastMonth.revenueCents)}
          </p>
          <RevenueChange figures={figures} />
        </section>

        <section aria-labelledby="to-ship-heading" className={panel}>
          <h2 id="to-ship-heading" className="text-sm font-medium text-muted-foreground">
            Orders waiting to ship
          </h2>
          <p className="mt-2 text-3xl font-bold tabular-nums">
            {figures.ordersToShip.toLocaleString("en-US")}
          </p>
          <Link to="/admin/orders?status=paid" className={moreLink}>
            Show paid orders
          </Link>
        </section>

        <section aria-labelledby="returns-heading" className={panel}>
          <h2 id="returns-heading" className="text-sm font-medium text-muted-foreground">
            Open returns
          </h2>
          <p className="mt-2 text-3xl font-bold tabular-nums">
            {figures.returns.open.toLocaleString("en-US")}
          </p>
          <p className="mt-1 text-sm">
            {figures.returns.requested.toLocaleString("en-US")} to receive ·{" "}
            {figures.returns.received.toLocaleString("en-US")} to refund
          </p>
          <Link to="/admin/returns" className={moreLink}>
            Show open returns
          </Link>
        </section>

        <section aria-labelledby="unread-heading" className={panel}>
          <h2 id="unread-heading" className="text-sm font-medium text-muted-foreground">
            Unread messages
          </h2>
          <p className="mt-2 text-3xl font-bold tabular-nums">{unread.toLocaleString("en-US")}</p>
          <p className="mt-1 text-sm">
            {plural(figures.unread.contacts, "contact message")} ·{" "}
            {plural(figures.unread.repairs, "repair request")}
          </p>
          <Link to="/admin/inbox" className={moreLink}>
            Open the inbox
          </Link>
        </section>
      </div>

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
        <section aria-labelledby="repairs-heading" className={`${panel} flex flex-col gap-4`}>
          <h2 id="repairs-heading" className="text-lg font-semibold">
            Repair appointments
          </h2>
          <Appointments figures={figures} day={figures.today} label="Today" />
          <Appointments figures={figures} day={figures.tomorrow} label="Tomorrow" />
        </section>

        <section aria-labelledby="tickets-heading" className={panel}>
          <h2 id="tickets-heading" className="text-lg font-semibold">
            Repair tickets
          </h2>
          <ul className="mt-2 divide-y text-sm">
            {[
              {
                label: "Ready for pickup",
                count: figures.tickets.ready,
                href: "/admin/repairs?status=ready",
              },
              {
                label: "Waiting for approval",
                count: figures.tickets.awaitingApproval,
                href: "/admin/repairs?status=estimate_sent",
              },
              { label: "Overdue", count: figures.tickets.overdue, href: "/admin/repairs" },
              {
                // Taken at the counter for another amount than approved (with a reason).
                label: `Collected for another amount, last ${OTHER_AMOUNT_DAYS} days`,
                count: figures.tickets.collectedOtherAmount,
                href: "/admin/repairs?status=collected",
              },
            ].map((row) => (
              <li key={row.label}>
                <Link to={row.href} className="flex justify-between gap-3 py-2 hover:underline">
                  <span>{row.label}</span>
                  <span className="font-semibold tabular-nums">
                    {row.count.toLocaleString("en-US")}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <Link to="/admin/repairs" className={moreLink}>
            Open the repair board
          </Link>
        </section>

        <section aria-labelledby="stock-heading" className={`${panel} flex flex-col gap-4`}>
          <div>
            <h2 id="stock-heading" className="text-lg font-semibold">
              Low on stock
            </h2>
            <p className="text-sm text-muted-foreground">
              Titles with {figures.lowStockThreshold}{" "}
              {figures.lowStockThreshold === 1 ? "copy" : "copies"} or fewer left.
            </p>
          </div>
          <LowStockList
            heading="Regular titles"
            titles={figures.lowStock.regular}
            more={figures.lowStock.moreRegular}
            editHref={(serialNo) => `/admin/items/${serialNo}/edit`}
            listHref="/admin/items?sort=qty&dir=asc"
          />
          <LowStockList
            heading="Adult titles"
            titles={figures.lowStock.adult}
            more={figures.lowStock.moreAdult}
            editHref={(serialNo) => `/admin/adult/items/${serialNo}/edit`}
            listHref="/admin/adult/items?sort=qty&dir=asc"
          />
        </section>

        <MostWanted wanted={figures.wanted} />
      </div>
    </>
  );
}
