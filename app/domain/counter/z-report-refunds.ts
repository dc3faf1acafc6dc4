import type { ZReport } from "./z-report.server.ts";

/** A report's returns and refunds, 0 for a report kept before counter returns existed. */
export function refundsOf(report: ZReport) {
  return {
    creditCents: report.creditCents ?? 0,
    returns: report.returns ?? 0,
    cashRefundCents: report.cashRefundCents ?? 0,
    cardRefundCents: report.cardRefundCents ?? 0,
    creditRefundCents: report.creditRefundCents ?? 0,
  };
}
