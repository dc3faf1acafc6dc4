import { Link } from "react-router";
import { SectionCard } from "#app/components/admin/section-card.tsx";
import { OrderLedgerList } from "#app/components/order-ledger.tsx";

type OrderShown = {
  shipping: {
    name: string;
    address: string;
    city: string;
    state: string;
    postalCode: string;
    phone: string;
    email: string;
    method: string;
  };
  shipped: string | null;
  carrier: string | null;
  trackingNumber: string | null;
  paymentProvider: string | null;
  paymentReference: string | null;
  paid: string | null;
  refunded: string | null;
  refundReference: string | null;
};

/** Who ordered and where it goes, beside how it was paid and refunded. */
export function OrderFacts({
  order,
  customer,
  customerName,
  ledger,
}: {
  order: OrderShown;
  customer: { id: string; email: string };
  customerName: string;
  ledger: React.ComponentProps<typeof OrderLedgerList>["ledger"];
}) {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <SectionCard title="Customer and shipping" contentClassName="flex flex-col gap-3 text-sm">
        <p>
          <Link to={`/admin/customers/${customer.id}`} className="text-primary underline">
            {customerName || customer.email}
          </Link>{" "}
          ({customer.email})
        </p>
        <address className="not-italic">
          {order.shipping.name}
          <br />
          {order.shipping.address}
          <br />
          {order.shipping.city}, {order.shipping.state} {order.shipping.postalCode}
          <br />
          {order.shipping.phone} · {order.shipping.email}
        </address>
        <p>Shipping method: {order.shipping.method}</p>
        {order.shipped ? (
          <p>
            Shipped {order.shipped}
            {order.carrier ? ` with ${order.carrier}` : ""}
            {order.trackingNumber ? ` · Tracking number: ${order.trackingNumber}` : ""}
          </p>
        ) : null}
      </SectionCard>
      <SectionCard title="Payment">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Provider</dt>
          <dd>{order.paymentProvider ?? "None yet"}</dd>
          <dt className="text-muted-foreground">Reference</dt>
          <dd className="break-all">{order.paymentReference ?? "—"}</dd>
          <dt className="text-muted-foreground">Paid</dt>
          <dd>{order.paid ?? "Not paid"}</dd>
          {order.refunded ? (
            <>
              <dt className="text-muted-foreground">Refunded</dt>
              <dd>
                {order.refunded}
                <span className="block break-all">{order.refundReference}</span>
              </dd>
            </>
          ) : null}
        </dl>
        {ledger.refunds.length > 0 ? (
          <div className="mt-3 border-t pt-3">
            <OrderLedgerList ledger={ledger} />
          </div>
        ) : null}
      </SectionCard>
    </div>
  );
}
