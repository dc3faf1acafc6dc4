import { Link } from "react-router";
import { TrendingDown, TrendingUp } from "#app/components/ui/icons.tsx";
import { formatUsd } from "#app/lib/money.ts";
import { monthName, moreLink, panel, plural, type Figures } from "./figures.ts";

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

/** One figure of the dashboard's first row, under its heading, with what it is made of. */
function StatPanel({
  id,
  heading,
  figure,
  children,
}: {
  id: string;
  heading: React.ReactNode;
  figure: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={panel}>
      <h2 id={id} className="text-sm font-medium text-muted-foreground">
        {heading}
      </h2>
      <p className="mt-2 text-3xl font-bold tabular-nums">{figure}</p>
      {children}
    </section>
  );
}

/** Revenue this month, orders to ship, open returns and unread messages. */
export function SummaryPanels({ figures }: { figures: Figures }) {
  const unread = figures.unread.contacts + figures.unread.repairs;
  return (
    <div className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <StatPanel
        id="revenue-heading"
        heading={<>Revenue in {monthName(figures.thisMonth.month)}</>}
        figure={formatUsd(figures.thisMonth.revenueCents)}
      >
        <p className="mt-1 text-sm">
          {plural(figures.thisMonth.orders, "order")} · {monthName(figures.lastMonth.month)}:{" "}
          {formatUsd(figures.lastMonth.revenueCents)}
        </p>
        <RevenueChange figures={figures} />
      </StatPanel>

      <StatPanel
        id="today-heading"
        heading="Sales today"
        figure={formatUsd(
          figures.todaySales.counter.totalCents + figures.todaySales.web.totalCents,
        )}
      >
        <p className="mt-1 text-sm">
          Counter: {formatUsd(figures.todaySales.counter.totalCents)} (
          {plural(figures.todaySales.counter.sales, "sale")}) · Web:{" "}
          {formatUsd(figures.todaySales.web.totalCents)} (
          {plural(figures.todaySales.web.orders, "order")})
        </p>
        <Link to="/counter" className={moreLink}>
          Open the counter
        </Link>
      </StatPanel>

      <StatPanel
        id="to-ship-heading"
        heading="Orders waiting to ship"
        figure={figures.ordersToShip.toLocaleString("en-US")}
      >
        <Link to="/admin/orders?status=paid" className={moreLink}>
          Show paid orders
        </Link>
      </StatPanel>

      <StatPanel
        id="returns-heading"
        heading="Open returns"
        figure={figures.returns.open.toLocaleString("en-US")}
      >
        <p className="mt-1 text-sm">
          {figures.returns.requested.toLocaleString("en-US")} to receive ·{" "}
          {figures.returns.received.toLocaleString("en-US")} to refund
        </p>
        <Link to="/admin/returns" className={moreLink}>
          Show open returns
        </Link>
      </StatPanel>

      <StatPanel
        id="unread-heading"
        heading="Unread messages"
        figure={unread.toLocaleString("en-US")}
      >
        <p className="mt-1 text-sm">
          {plural(figures.unread.contacts, "contact message")} ·{" "}
          {plural(figures.unread.repairs, "repair request")}
        </p>
        {figures.mayOpenInbox ? (
          <Link to="/admin/inbox" className={moreLink}>
            Open the inbox
          </Link>
        ) : null}
      </StatPanel>
    </div>
  );
}
