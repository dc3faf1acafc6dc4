import { formatUsd } from "#app/lib/money.ts";
import { renderEmail } from "./layout.ts";

export type ReceiptMail = {
  number: string;
  paidAt: string;
  lines: {
    name: string;
    quantity: number;
    unitPriceCents: number;
    discountCents: number;
    discountReason: string | null;
  }[];
  subtotalCents: number;
  discountCents: number;
  taxLabel: string;
  taxCents: number;
  totalCents: number;
  payments: {
    label: string;
    amountCents: number;
    tenderedCents: number | null;
    changeCents: number | null;
  }[];
  returnDays: number;
};

/** A counter sale's receipt, e-mailed at the customer's request: the same lines as on paper. */
export function counterReceiptMessage(receipt: ReceiptMail) {
  const lines = receipt.lines.flatMap((line) => [
    `${line.quantity} × ${line.name}: ${formatUsd(line.unitPriceCents * line.quantity)}`,
    ...(line.discountCents > 0
      ? [`  Discount (${line.discountReason}): -${formatUsd(line.discountCents)}`]
      : []),
  ]);
  const payments = receipt.payments.flatMap((payment) =>
    payment.tenderedCents === null
      ? [`${payment.label}: ${formatUsd(payment.amountCents)}`]
      : [
          `${payment.label} tendered: ${formatUsd(payment.tenderedCents)}`,
          `Change: ${formatUsd(payment.changeCents ?? 0)}`,
        ],
  );
  return renderEmail({
    subject: `Your receipt ${receipt.number}`,
    preview: `${formatUsd(receipt.totalCents)} paid at the counter on ${receipt.paidAt}.`,
    heading: `Receipt ${receipt.number}`,
    paragraphs: [
      `Thank you for shopping with us on ${receipt.paidAt}.`,
      ...lines,
      `Subtotal: ${formatUsd(receipt.subtotalCents)}`,
      ...(receipt.discountCents > 0 ? [`Discounts: -${formatUsd(receipt.discountCents)}`] : []),
      `${receipt.taxLabel}: ${formatUsd(receipt.taxCents)}`,
      `Total: ${formatUsd(receipt.totalCents)}`,
      ...payments,
    ],
    note: `Returns within ${receipt.returnDays} days: bring this e-mail or the paper receipt to the counter.`,
  });
}
