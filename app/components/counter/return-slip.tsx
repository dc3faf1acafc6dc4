import { formatUsd } from "#app/lib/money.ts";
import { ReceiptFrame, type ReceiptData } from "./counter-receipt.tsx";

export type ReturnSlipData = {
  number: string;
  saleNumber: string;
  exchangeSaleNumber: string | null;
  at: string;
  clerkName: string;
  reason: string;
  amountCents: number;
  lines: { id: number; name: string; quantity: number; amountCents: number; taxable: boolean }[];
  refunds: { label: string; amountCents: number }[];
  shop: ReceiptData["shop"];
};

/** A counter return's slip, printed on the receipt's paper: what came back and how it was paid. */
export function ReturnSlip({ slip }: { slip: ReturnSlipData }) {
  return (
    <ReceiptFrame shop={slip.shop}>
      <h1 className="text-center text-base font-bold">Return {slip.number}</h1>
      <p className="text-center">
        {slip.at} · {slip.clerkName}
      </p>
      <p className="text-center">Receipt {slip.saleNumber}</p>
      <ul className="flex flex-col gap-1 border-y border-dashed border-black py-2">
        {slip.lines.map((line) => (
          <li key={line.id} className="flex justify-between gap-2">
            <span className="min-w-0 break-words">
              {line.quantity > 1 ? `${line.quantity} × ` : ""}
              {line.name}
            </span>
            <span className="shrink-0 tabular-nums">
              -{formatUsd(line.amountCents)}
              {line.taxable ? " T" : "  "}
            </span>
          </li>
        ))}
      </ul>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 tabular-nums">
        <dt className="font-bold">Returned, with tax</dt>
        <dd className="text-right font-bold">{formatUsd(slip.amountCents)}</dd>
        {slip.refunds.map((refund) => (
          <RefundRow key={refund.label} refund={refund} />
        ))}
      </dl>
      {slip.exchangeSaleNumber ? (
        <p>Exchanged: the credit paid sale {slip.exchangeSaleNumber}.</p>
      ) : null}
      <p>Reason: {slip.reason}</p>
      <p className="text-[0.7rem]">T: taxable; the tax charged on it is given back with it.</p>
    </ReceiptFrame>
  );
}

function RefundRow({ refund }: { refund: ReturnSlipData["refunds"][number] }) {
  return (
    <>
      <dt>{refund.label}</dt>
      <dd className="text-right">{formatUsd(refund.amountCents)}</dd>
    </>
  );
}
