import { SectionCard } from "#app/components/admin/section-card.tsx";
import type { RefundAmount } from "#app/domain/returns/refund-amount.ts";
import { LINE_CONDITION_LABELS } from "#app/domain/returns/status.ts";
import { formatUsd } from "#app/lib/money.ts";
import type { ReturnItem } from "./return-actions.tsx";

type ReturnShown = {
  reason: string;
  note: string | null;
  method: string;
  received: string | null;
  refunded: string | null;
  rejected: string | null;
  rejectionReason: string | null;
  refundReference: string | null;
};

type OrderShown = {
  name: string;
  email: string;
  paymentProvider: string | null;
  shipped: string | null;
};

/** The return's facts and its refund, side by side. */
export function ReturnFacts({
  ret,
  order,
  refund,
  postagePromisedCents,
}: {
  ret: ReturnShown;
  order: OrderShown;
  refund: RefundAmount;
  postagePromisedCents: number | null;
}) {
  const money = (cents: number | null) => formatUsd(cents ?? 0);
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <SectionCard title="The return">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Customer</dt>
          <dd>
            {order.name} ({order.email})
          </dd>
          <dt className="text-muted-foreground">Reason</dt>
          <dd>{ret.reason}</dd>
          {ret.note ? (
            <>
              <dt className="text-muted-foreground">Note</dt>
              <dd className="whitespace-pre-line">{ret.note}</dd>
            </>
          ) : null}
          <dt className="text-muted-foreground">Coming back</dt>
          <dd>{ret.method}</dd>
          <dt className="text-muted-foreground">Shipped</dt>
          <dd>{order.shipped ?? "—"}</dd>
          {ret.received ? (
            <>
              <dt className="text-muted-foreground">Received</dt>
              <dd>{ret.received}</dd>
            </>
          ) : null}
          {ret.rejected ? (
            <>
              <dt className="text-muted-foreground">Rejected</dt>
              <dd>
                {ret.rejected}: {ret.rejectionReason}
              </dd>
            </>
          ) : null}
        </dl>
      </SectionCard>
      <SectionCard title={ret.refunded ? "Refunded" : "Refund"}>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Items</dt>
          <dd>{money(refund.goodsCents)}</dd>
          <dt className="text-muted-foreground">Shipping</dt>
          <dd>{money(refund.shippingCents)}</dd>
          <dt className="text-muted-foreground">Sales tax</dt>
          <dd>{money(refund.taxCents)}</dd>
          <dt className="text-muted-foreground">Toward postage</dt>
          <dd>
            {money(refund.postageCents)}
            {postagePromisedCents !== null
              ? ` (promised ${money(postagePromisedCents)} when asked for)`
              : ""}
          </dd>
          <dt className="font-semibold">Total</dt>
          <dd className="font-semibold">{money(refund.totalCents)}</dd>
          {ret.refunded ? (
            <>
              <dt className="text-muted-foreground">When</dt>
              <dd>
                {ret.refunded}
                <span className="block break-all">{ret.refundReference}</span>
              </dd>
            </>
          ) : (
            <>
              <dt className="text-muted-foreground">Through</dt>
              <dd>{order.paymentProvider ?? "—"}</dd>
            </>
          )}
        </dl>
      </SectionCard>
    </div>
  );
}

/** The returned items, each with the condition it came back in. */
export function ReturnItems({ items }: { items: ReturnItem[] }) {
  return (
    <SectionCard title="Items">
      <ul className="flex flex-col gap-2 text-sm">
        {items.map((item) => (
          <li key={item.field} className="flex flex-wrap justify-between gap-2">
            <span>
              {item.quantity} × {item.title} at {formatUsd(item.unitPriceCents)}
            </span>
            <span className="text-muted-foreground">
              {item.condition ? LINE_CONDITION_LABELS[item.condition] : "Not received yet"}
            </span>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}
