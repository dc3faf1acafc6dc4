import { OrderSummary } from "#app/components/order-summary.tsx";
import { OrderStatusBadge } from "#app/components/order-status-badge.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireUser } from "#app/domain/accounts/session.server.ts";
import { listCustomerOrders } from "#app/domain/orders/customer-orders.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/orders";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Your Orders", "Your orders at Reel & Repair."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return {
    orders: await listCustomerOrders(getDb(), user.id),
    timeZone: getEnv().SHOP_TIME_ZONE,
  };
}

/** In the shop's time zone, so the server's page and the browser's agree. */
const longDate = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleDateString("en-US", {
    timeZone,
    year: "numeric",
    month: "long",
    day: "numeric",
  });

export default function Orders({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Your Orders</h1>
      {loaderData.orders.length === 0 ? (
        <p className="mt-6 text-muted-foreground">You have no orders yet.</p>
      ) : (
        <ul className="mt-6 flex flex-col gap-6">
          {loaderData.orders.map((order) => (
            <li key={order.id}>
              <Card>
                <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
                  <CardTitle>Order #{order.id}</CardTitle>
                  <OrderStatusBadge status={order.status} />
                </CardHeader>
                <CardContent className="flex flex-col gap-4 text-sm">
                  <p>Placed {longDate(order.createdAt, loaderData.timeZone)}</p>
                  {order.shippedAt ? (
                    <p>
                      Shipped {longDate(order.shippedAt, loaderData.timeZone)}
                      {order.carrier ? ` with ${order.carrier}` : ""}
                      {order.trackingNumber ? (
                        <>
                          {" · "}Tracking number: <strong>{order.trackingNumber}</strong>
                        </>
                      ) : null}
                    </p>
                  ) : null}
                  {order.refundedAt ? (
                    <p>
                      Refunded {longDate(order.refundedAt, loaderData.timeZone)} to the card you
                      paid with.
                    </p>
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
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
