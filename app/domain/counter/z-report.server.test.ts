import { describe, expect, it } from "vitest";
import { zReportRows } from "./z-report-csv.ts";
import { keptReport, type ZReport } from "./z-report.server.ts";

// A Z report is kept as JSON when its till closes and never rewritten, so a till closed before a
// field was added keeps a report without it.

/** A report as the first tills kept it: before returns, pickups and repair payments. */
const firstReport = {
  tillId: 7,
  openedAt: "2026-06-20T14:00:00.000Z",
  openedByName: "Casey Clerk",
  closedAt: "2026-06-20T22:00:00.000Z",
  closedByName: "Casey Clerk",
  sales: 3,
  voided: 1,
  subtotalCents: 4500,
  discountCents: 500,
  taxCents: 330,
  totalCents: 4330,
  cashCents: 2330,
  cardCents: 2000,
  onlineOrders: 2,
  onlineCents: 6150,
  floatCents: 10_000,
  expectedCashCents: 12_330,
  countedCents: 12_300,
  overShortCents: -30,
};

describe("keptReport", () => {
  it("reads a report kept before returns, pickups and repair payments with zeros for them", () => {
    const report = keptReport(JSON.parse(JSON.stringify(firstReport)));
    expect(report).toEqual({
      ...firstReport,
      creditCents: 0,
      returns: 0,
      cashRefundCents: 0,
      cardRefundCents: 0,
      creditRefundCents: 0,
      pickupOrders: 0,
      pickupCents: 0,
      repairCashCents: 0,
      repairCardCents: 0,
      repairOnlineCents: 0,
      repairCashRefundCents: 0,
      repairCardRefundCents: 0,
    });
    const [header, row] = zReportRows([report]);
    const cell = (name: string) => row![header!.indexOf(name)];
    expect(
      ["Returns", "Cash refunds", "Pickup orders", "Repairs in cash", "Repair refunds in cash"].map(
        cell,
      ),
    ).toEqual([0, 0, 0, 0, 0]);
    expect(cell("Over/short")).toBe(-0.3);
  });

  it("reads a report kept with every field as it was stored", () => {
    const stored: ZReport = {
      ...firstReport,
      creditCents: 1200,
      returns: 2,
      cashRefundCents: 1083,
      cardRefundCents: 2000,
      creditRefundCents: 1200,
      pickupOrders: 1,
      pickupCents: 3499,
      repairCashCents: 2000,
      repairCardCents: 14_183,
      repairOnlineCents: 5000,
      repairCashRefundCents: 1500,
      repairCardRefundCents: 2500,
    };
    expect(keptReport(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
  });
});
