import { refundsOf } from "#app/domain/counter/z-report-refunds.ts";
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
  const refunds = refundsOf(report);
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
    ["Exchange credit", formatUsd(refunds.creditCents)],
    ["Returns", String(refunds.returns)],
    ["Cash refunds", formatUsd(refunds.cashRefundCents)],
    ["Card refunds", formatUsd(refunds.cardRefundCents)],
    ["Credit to exchanges", formatUsd(refunds.creditRefundCents)],
    [`Online (${report.onlineOrders} orders)`, formatUsd(report.onlineCents)],
    [`Pickup (${report.pickupOrders} orders, paid online)`, formatUsd(report.pickupCents)],
    // Reports kept before repairs were paid at the counter have none.
    ...(report.repairCashCents === undefined
      ? []
      : ([
          ["Repairs in cash", formatUsd(report.repairCashCents)],
          ["Repairs by card", formatUsd(report.repairCardCents ?? 0)],
          ["Repairs paid online", formatUsd(report.repairOnlineCents ?? 0)],
        ] as [string, string][])),
    // Reports kept before repair deposits were refunded have none.
    ...(report.repairCashRefundCents === undefined
      ? []
      : ([
          ["Repair refunds in cash", formatUsd(report.repairCashRefundCents)],
          ["Repair refunds to cards", formatUsd(report.repairCardRefundCents ?? 0)],
        ] as [string, string][])),
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
