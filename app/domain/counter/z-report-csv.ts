import type { ZReport } from "./z-report.server.ts";

// The Z reports as the accountant takes them: one row per closed till, amounts in dollars as
// numbers (a shortage negative), which a spreadsheet reads as such. A report kept before a
// column existed comes through `keptReport`, so its column reads 0.

const dollars = (cents: number) => cents / 100;

const COLUMNS: { header: string; cell: (report: ZReport) => string | number }[] = [
  { header: "Till", cell: (r) => r.tillId },
  { header: "Opened", cell: (r) => r.openedAt },
  { header: "Opened by", cell: (r) => r.openedByName },
  { header: "Closed", cell: (r) => r.closedAt ?? "" },
  { header: "Closed by", cell: (r) => r.closedByName ?? "" },
  { header: "Sales", cell: (r) => r.sales },
  { header: "Voided", cell: (r) => r.voided },
  { header: "Subtotal", cell: (r) => dollars(r.subtotalCents) },
  { header: "Discounts", cell: (r) => dollars(r.discountCents) },
  { header: "Tax", cell: (r) => dollars(r.taxCents) },
  { header: "Total", cell: (r) => dollars(r.totalCents) },
  { header: "Cash", cell: (r) => dollars(r.cashCents) },
  { header: "Card", cell: (r) => dollars(r.cardCents) },
  { header: "Online orders", cell: (r) => r.onlineOrders },
  { header: "Online", cell: (r) => dollars(r.onlineCents) },
  { header: "Float", cell: (r) => dollars(r.floatCents) },
  { header: "Expected cash", cell: (r) => dollars(r.expectedCashCents) },
  {
    header: "Counted cash",
    cell: (r) => (r.countedCents === null ? "" : dollars(r.countedCents)),
  },
  {
    header: "Over/short",
    cell: (r) => (r.overShortCents === null ? "" : dollars(r.overShortCents)),
  },
  // Added with counter returns, after the first columns, so the accountant's sheets still line up.
  { header: "Exchange credit", cell: (r) => dollars(r.creditCents) },
  { header: "Returns", cell: (r) => r.returns },
  { header: "Cash refunds", cell: (r) => dollars(r.cashRefundCents) },
  { header: "Card refunds", cell: (r) => dollars(r.cardRefundCents) },
  { header: "Credit to exchanges", cell: (r) => dollars(r.creditRefundCents) },
  // Added with pickups, at the end for the same reason.
  { header: "Pickup orders", cell: (r) => r.pickupOrders },
  { header: "Pickup", cell: (r) => dollars(r.pickupCents) },
  // Added with repair payments, last again.
  { header: "Repairs in cash", cell: (r) => dollars(r.repairCashCents) },
  { header: "Repairs by card", cell: (r) => dollars(r.repairCardCents) },
  { header: "Repairs paid online", cell: (r) => dollars(r.repairOnlineCents) },
  // Added with refunds of repair deposits, last again.
  { header: "Repair refunds in cash", cell: (r) => dollars(r.repairCashRefundCents) },
  { header: "Repair refunds to cards", cell: (r) => dollars(r.repairCardRefundCents) },
];

/** The rows of a Z report export, its header first, for the shop's one CSV writer. */
export function zReportRows(reports: readonly ZReport[]): (string | number)[][] {
  return [
    COLUMNS.map((column) => column.header),
    ...reports.map((r) => COLUMNS.map((c) => c.cell(r))),
  ];
}
