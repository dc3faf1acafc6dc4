import { SidewaysScroll } from "#app/components/ui/sideways-scroll.tsx";
import { formatUsd } from "#app/lib/money.ts";

type SummaryItem = { key: string; title: string; quantity: number; unitPriceCents: number };

/**
 * An order's lines and money as the server computed them (spec §2 order card: Item, Qty, Unit
 * Price, Total), with shipping and sales tax on their own lines. Used by the review step, the
 * order history and the success page.
 */
export function OrderSummary({
  items,
  subtotalCents,
  shippingCents,
  taxCents,
  totalCents,
}: {
  items: SummaryItem[];
  subtotalCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}) {
  return (
    <SidewaysScroll label="Items in the order" className="mt-3">
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b text-left text-muted-foreground">
            <th scope="col" className="py-2 font-medium">
              Item
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Qty
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Unit Price
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.key} className="border-b last:border-0">
              <td className="py-2 pr-2">{item.title}</td>
              <td className="py-2 text-right">{item.quantity}</td>
              <td className="py-2 text-right">{formatUsd(item.unitPriceCents)}</td>
              <td className="py-2 text-right">{formatUsd(item.unitPriceCents * item.quantity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="mt-3 ml-auto grid max-w-64 grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
        <dt>Subtotal</dt>
        <dd className="text-right">{formatUsd(subtotalCents)}</dd>
        <dt>Shipping</dt>
        <dd className="text-right">{shippingCents === 0 ? "Free" : formatUsd(shippingCents)}</dd>
        <dt>Sales tax</dt>
        <dd className="text-right">{formatUsd(taxCents)}</dd>
        <dt className="border-t pt-1 font-semibold">Total</dt>
        <dd className="border-t pt-1 text-right font-semibold">{formatUsd(totalCents)}</dd>
      </dl>
    </SidewaysScroll>
  );
}
