import { Link } from "react-router";
import type { CustomerOrder } from "#app/domain/orders/customer-orders.server.ts";
import type { OrderReturns } from "#app/domain/returns/returns.server.ts";
import { RETURN_METHOD_LABELS } from "#app/domain/returns/status.ts";
import { formatUsd } from "#app/lib/money.ts";
import { formatShopLongDate } from "#app/lib/shop-time.ts";
import { SHOP } from "#app/lib/site.ts";
import { OrderLedgerList } from "./order-ledger.tsx";
import { OrderStatusBadge } from "./order-status-badge.tsx";
import { OrderSummary } from "./order-summary.tsx";
import { ReturnStatusBadge } from "./return-status-badge.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "./ui/card.tsx";

/** In the shop's time zone, so the server's page and the browser's agree. */
const longDate = (iso: string | Date, timeZone: string) =>
  formatShopLongDate(new Date(iso), timeZone);

/** The order's returns, and the way to start one while the window is open. */
function OrderReturnsPart({
  orderId,
  info,
  timeZone,
}: {
  orderId: number;
  info: OrderReturns;
  timeZone: string;
}) {
  const closed = info.why && info.windowEndsAt ? info.why : null;
  if (info.returns.length === 0 && !info.canReturn && !closed) return null;
  return (
    <section aria-label={`Returns of order #${orderId}`} className="flex flex-col gap-3">
      {info.returns.map((entry) => (
        <div key={entry.number} className="rounded-md border p-3">
          <p className="flex flex-wrap items-center gap-2">
            <strong>Return {entry.label}</strong>
            <ReturnStatusBadge status={entry.status} />
          </p>
          <p className="mt-1">
            {entry.lines.map((line) => `${line.quantity} × ${line.title}`).join(", ")}
          </p>
          <p className="mt-1 text-muted-foreground">
            {entry.status === "refunded" && entry.refundCents !== null && entry.refundedAt
              ? `Refunded ${formatUsd(entry.refundCents)} on ${longDate(entry.refundedAt, timeZone)} to the card you paid with.`
              : entry.status === "rejected"
                ? `Not accepted: ${entry.rejectionReason}`
                : entry.status === "received"
                  ? "It is back with us; your refund is on its way."
                  : `${RETURN_METHOD_LABELS[entry.method]}, with the return number ${entry.label}.`}
          </p>
        </div>
      ))}
      {info.ledger.refunds.length > 0 ? (
        <div aria-label={`Money of order #${orderId}`} role="group">
          <OrderLedgerList ledger={info.ledger} />
        </div>
      ) : null}
      {info.canReturn && info.windowEndsAt ? (
        <p>
          <Link
            to={`/orders/${orderId}/return`}
            className="font-medium text-primary underline"
            aria-label={`Return items of order #${orderId}`}
          >
            Return items
          </Link>{" "}
          <span className="text-muted-foreground">
            (free, until {longDate(info.windowEndsAt, timeZone)})
          </span>
        </p>
      ) : closed ? (
        <p className="text-muted-foreground">{closed}</p>
      ) : null}
    </section>
  );
}

/** Where a pickup order is: ready (with the code to show at the counter), or collected. */
function PickupFacts({
  pickup,
  timeZone,
}: {
  pickup: NonNullable<CustomerOrder["pickup"]>;
  timeZone: string;
}) {
  if (pickup.collectedAt) return <p>Collected {longDate(pickup.collectedAt, timeZone)}.</p>;
  if (!pickup.readyAt || !pickup.code) return null;
  return (
    <p>
      Ready for pickup since {longDate(pickup.readyAt, timeZone)}. Show this code at the counter:{" "}
      <strong className="font-mono text-base">{pickup.code}</strong>
    </p>
  );
}

/** One of a customer's orders, as My Orders and My Account show it. */
export function OrderCard({
  order,
  timeZone,
  returns,
}: {
  order: CustomerOrder;
  timeZone: string;
  returns?: OrderReturns | undefined;
}) {
  return (
    <Card id={`order-${order.id}`}>
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
        {order.pickup ? <PickupFacts pickup={order.pickup} timeZone={timeZone} /> : null}
        <address className="not-italic">
          <strong>{order.pickup ? "Pick up at the store" : "Shipping to"}</strong>
          <br />
          {order.shipping.name}
          <br />
          {order.pickup ? `${SHOP.name}, ` : ""}
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
        {returns ? (
          <OrderReturnsPart orderId={order.id} info={returns} timeZone={timeZone} />
        ) : null}
      </CardContent>
    </Card>
  );
}

/** 'You have no orders yet.' or one card per order. */
export function OrderList({
  orders,
  timeZone,
  returns = {},
}: {
  orders: CustomerOrder[];
  timeZone: string;
  returns?: Record<number, OrderReturns>;
}) {
  if (orders.length === 0) {
    return <p className="mt-6 text-muted-foreground">You have no orders yet.</p>;
  }
  return (
    <ul className="mt-6 flex flex-col gap-6">
      {orders.map((order) => (
        <li key={order.id}>
          <OrderCard order={order} timeZone={timeZone} returns={returns[order.id]} />
        </li>
      ))}
    </ul>
  );
}
