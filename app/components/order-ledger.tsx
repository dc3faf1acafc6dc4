import type { OrderLedger } from "#app/domain/returns/ledger.ts";
import { formatUsd } from "#app/lib/money.ts";

/**
 * An order's money as its ledger has it (`orderLedger`): what was paid, each refund, and what is
 * left. The customer's order card and the back office show the same lines.
 */
export function OrderLedgerList({ ledger }: { ledger: OrderLedger }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="text-muted-foreground">Paid</dt>
      <dd>{formatUsd(ledger.paidCents)}</dd>
      {ledger.refunds.map((refund) => (
        <div key={refund.label} className="contents">
          <dt className="text-muted-foreground">Refunded ({refund.label})</dt>
          <dd>
            {formatUsd(refund.cents)}
            {refund.postageCents > 0
              ? `, of it ${formatUsd(refund.postageCents)} toward postage`
              : ""}
          </dd>
        </div>
      ))}
      <dt className="font-semibold">Kept of the payment</dt>
      <dd className="font-semibold">{formatUsd(ledger.leftCents)}</dd>
    </dl>
  );
}
