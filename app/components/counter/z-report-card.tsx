import type { ZReport } from "#app/domain/counter/z-report.server.ts";
import { formatUsd } from "#app/lib/money.ts";

/** A till's X report (while it is open) or Z report (once closed), on screen and on paper. */
export function ZReportCard({
  report,
  opened,
  closed,
}: {
  report: ZReport;
  /** When the till opened and closed, in the shop's time. */
  opened: string;
  closed: string | null;
}) {
  const rows: [string, string][] = [
    ["Opened", `${opened} by ${report.openedByName}`],
    ...(closed ? ([["Closed", `${closed} by ${report.closedByName}`]] as [string, string][]) : []),
    ["Sales", String(report.sales)],
    ["Voided sales", String(report.voided)],
    ["Subtotal", formatUsd(report.subtotalCents)],
    ["Discounts", formatUsd(report.discountCents)],
    ["Tax collected", formatUsd(report.taxCents)],
    ["Counter total", formatUsd(report.totalCents)],
    ["Cash", formatUsd(report.cashCents)],
    ["Card", formatUsd(report.cardCents)],
    ["Exchange credit", formatUsd(report.creditCents)],
    ["Returns", String(report.returns)],
    ["Cash refunds", formatUsd(report.cashRefundCents)],
    ["Card refunds", formatUsd(report.cardRefundCents)],
    ["Credit to exchanges", formatUsd(report.creditRefundCents)],
    [`Online (${report.onlineOrders} orders)`, formatUsd(report.onlineCents)],
    [`Pickup (${report.pickupOrders} orders, paid online)`, formatUsd(report.pickupCents)],
    ["Repairs in cash", formatUsd(report.repairCashCents)],
    ["Repairs by card", formatUsd(report.repairCardCents)],
    ["Repairs paid online", formatUsd(report.repairOnlineCents)],
    ["Repair refunds in cash", formatUsd(report.repairCashRefundCents)],
    ["Repair refunds to cards", formatUsd(report.repairCardRefundCents)],
    ["Float", formatUsd(report.floatCents)],
    ["Expected cash in the drawer", formatUsd(report.expectedCashCents)],
  ];
  if (report.countedCents !== null && report.overShortCents !== null) {
    rows.push(["Counted cash", formatUsd(report.countedCents)]);
    rows.push([
      report.overShortCents < 0 ? "Short" : "Over",
      formatUsd(Math.abs(report.overShortCents)),
    ]);
  }
  return (
    <dl className="z-report grid max-w-md grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm tabular-nums">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt>{label}</dt>
          <dd className="text-right">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
