import { formatUsd } from "#app/lib/money.ts";
import { SaleTotalsList } from "./pay-form.tsx";
import type { SaleTotals } from "#app/domain/counter/sale-money.ts";

export type ReceiptData = {
  number: string;
  status: "open" | "paid" | "voided";
  paidAt: string | null;
  clerkName: string;
  idChecked: boolean;
  lines: {
    id: number;
    name: string;
    quantity: number;
    unitPriceCents: number;
    discountCents: number;
    discountReason: string | null;
    taxable: boolean;
  }[];
  totals: SaleTotals;
  taxLabel: string;
  payments: {
    label: string;
    amountCents: number;
    tenderedCents: number | null;
    changeCents: number | null;
  }[];
  qr: string;
  shop: { name: string; address: string; phone: string };
  returnDays: number;
};

/**
 * A counter sale's receipt: 72 mm of print on an 80 mm roll (the print rules in app.css), the
 * same on screen. Its QR code opens the sale at the counter, for a return.
 */
export function CounterReceipt({ receipt }: { receipt: ReceiptData }) {
  return (
    <ReceiptFrame shop={receipt.shop}>
      <h1 className="text-center text-base font-bold">Receipt {receipt.number}</h1>
      <p className="text-center">
        {receipt.paidAt ?? "Not paid"} · {receipt.clerkName}
      </p>
      <ul className="flex flex-col gap-1 border-y border-dashed border-black py-2">
        {receipt.lines.map((line) => (
          <li key={line.id}>
            <div className="flex justify-between gap-2">
              <span className="min-w-0 break-words">{line.name}</span>
              <span className="shrink-0 tabular-nums">
                {formatUsd(line.unitPriceCents * line.quantity)}
                {line.taxable ? " T" : "  "}
              </span>
            </div>
            {line.quantity > 1 ? (
              <div className="pl-2">
                {line.quantity} × {formatUsd(line.unitPriceCents)}
              </div>
            ) : null}
            {line.discountCents > 0 ? (
              <div className="flex justify-between gap-2 pl-2">
                <span>Discount: {line.discountReason}</span>
                <span className="tabular-nums">-{formatUsd(line.discountCents)}</span>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <SaleTotalsList totals={receipt.totals} taxLabel={receipt.taxLabel} />
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 border-t border-dashed border-black pt-2 tabular-nums">
        {receipt.payments.map((payment) => (
          <PaymentRows key={payment.label} payment={payment} />
        ))}
      </dl>
      {receipt.idChecked ? <p>Photo ID checked: 18 or older.</p> : null}
      <p className="text-[0.7rem]">
        T: taxable. Returns within {receipt.returnDays} days with this receipt.
      </p>
      <div
        role="img"
        aria-label={`QR code of sale ${receipt.number}, for a return`}
        className="mx-auto size-28 [&>svg]:size-full"
        dangerouslySetInnerHTML={{ __html: receipt.qr }}
      />
      <p className="text-center">Thank you!</p>
    </ReceiptFrame>
  );
}

/**
 * The paper of everything the counter prints (a receipt, a return slip): 72 mm of print on an
 * 80 mm roll (the print rules in app.css), the same on screen, headed by the shop.
 */
export function ReceiptFrame({
  shop,
  children,
}: {
  shop: ReceiptData["shop"];
  children: React.ReactNode;
}) {
  return (
    <article className="counter-receipt mx-auto flex w-full max-w-[72mm] flex-col gap-2 rounded-md border bg-white p-3 font-mono text-[0.8rem] leading-snug text-black print:rounded-none print:border-0 print:p-0">
      <header className="border-b border-dashed border-black pb-2 text-center">
        <p className="text-base font-bold">{shop.name}</p>
        <p>{shop.address}</p>
        <p>{shop.phone}</p>
      </header>
      {children}
    </article>
  );
}

function PaymentRows({ payment }: { payment: ReceiptData["payments"][number] }) {
  if (payment.tenderedCents === null) {
    return (
      <>
        <dt>{payment.label}</dt>
        <dd className="text-right">{formatUsd(payment.amountCents)}</dd>
      </>
    );
  }
  return (
    <>
      <dt>{payment.label} tendered</dt>
      <dd className="text-right">{formatUsd(payment.tenderedCents)}</dd>
      <dt>Change</dt>
      <dd className="text-right">{formatUsd(payment.changeCents ?? 0)}</dd>
    </>
  );
}
