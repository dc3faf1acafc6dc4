import { formatUsd } from "#app/lib/money.ts";

/** A ticket's invoice from its approved estimate and the payments toward it. */
export type InvoiceShown = {
  labourCents: number;
  partsCents: number;
  taxCents: number;
  taxRate: string;
  totalCents: number;
  /** False while no estimate is approved: a deposit with nothing to invoice yet. */
  approved: boolean;
  payments: { id: number; what: string; when: string; amountCents: number }[];
  paidCents: number;
  balanceCents: number;
};

function percent(rate: string) {
  return `${(Number(rate) * 100).toLocaleString("en-US", { maximumFractionDigits: 3 })}%`;
}

function Row({ term, cents, strong }: { term: string; cents: number; strong?: boolean }) {
  return (
    <tr className={strong ? "font-semibold" : undefined}>
      <th scope="row" className="py-1 pr-3 text-left font-[inherit]">
        {term}
      </th>
      <td className="py-1 text-right tabular-nums">{formatUsd(cents)}</td>
    </tr>
  );
}

/** The invoice and what was paid, the same for staff and for the customer. */
export function RepairInvoice({ invoice }: { invoice: InvoiceShown }) {
  const due = invoice.balanceCents;
  return (
    <table className="w-full max-w-md text-sm">
      <caption className="sr-only">Invoice and payments</caption>
      <tbody>
        {invoice.approved ? (
          <>
            <Row term="Labour" cents={invoice.labourCents} />
            <Row term="Parts" cents={invoice.partsCents} />
            <Row term={`Sales tax (${percent(invoice.taxRate)})`} cents={invoice.taxCents} />
            <Row term="Total" cents={invoice.totalCents} strong />
          </>
        ) : null}
        {invoice.payments.map((payment) => (
          <Row
            key={payment.id}
            term={`${payment.what}, ${payment.when}`}
            cents={payment.amountCents}
          />
        ))}
        <Row term="Paid" cents={invoice.paidCents} />
        {invoice.approved ? (
          <Row
            term={due < 0 ? "Paid over the total" : "Balance due"}
            cents={Math.abs(due)}
            strong
          />
        ) : null}
      </tbody>
    </table>
  );
}
