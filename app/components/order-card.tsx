import type { CustomerOrder } from "#app/domain/orders/customer-orders.server.ts";
import { dateFormat } from "#app/lib/shop-time.ts";
import { OrderStatusBadge } from "./order-status-badge.tsx";
import { OrderSummary } from "./order-summary.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "./ui/card.tsx";

/** In the shop's time zone, so the server's page and the browser's agree. */
const longDate = (iso: string, timeZone: string) =>
  dateFormat("en-US", { timeZone, year: "numeric", month: "long", day: "numeric" }).format(
    new Date(iso),
  );

/** One of a customer's orders, as My Orders and My Account show it. */
export function OrderCard({ order, timeZone }: { order: CustomerOrder; timeZone: string }) {
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Order #{order.id}</CardTitle>
        <OrderStatusBadge status={order.status} />
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <p>Placed {longDate(order.createdAt, timeZone)}</p>
        {order.shippedAt ? (
          <p>
            Shipped {longDate(order.shippedAt, timeZone)}
            {order.carrier ? ` with ${order.carrier}` : ""}
            {order.trackingNumber ? (
              <>
                {" · "}Tracking number: <strong>{order.trackingNumber}</strong>
              </>
            ) : null}
          </p>
        ) : null}
        {order.refundedAt ? (
          <p>Refunded {longDate(order.refundedAt, timeZone)} to the card you paid with.</p>
        ) : null}
        <address className="not-italic">
          <strong>Shipping to</strong>
          <br />
          {order.shipping.name}
          <br />
          {order.shipping.address}, {order.shipping.city}, {order.shipping.state}{" "}
          {order.shipping.postalCode}
          <br />
          {order.shipping.phone} · {order.shipping.email}
        </address>
        <OrderSummary
          items={order.items.map((item) => ({
            ...item,
            key: `${item.productType}:${item.serialNo}`,
          }))}
          subtotalCents={order.subtotalCents}
          shippingCents={order.shippingCents}
          taxCents={order.taxCents}
          totalCents={order.totalCents}
        />
      </CardContent>
    </Card>
  );
}

/** 'You have no orders yet.' or one card per order. */
export function OrderList({ orders, timeZone }: { orders: CustomerOrder[]; timeZone: string }) {
  if (orders.length === 0) {
    return <p className="mt-6 text-muted-foreground">You have no orders yet.</p>;
  }
  return (
    <ul className="mt-6 flex flex-col gap-6">
      {orders.map((order) => (
        <li key={order.id}>
          <OrderCard order={order} timeZone={timeZone} />
        </li>
      ))}
    </ul>
  );
}
