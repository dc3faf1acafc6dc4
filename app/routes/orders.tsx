import { OrderSummary } from "#app/components/order-summary.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireUser } from "#app/domain/accounts/session.server.ts";
import { listCustomerOrders } from "#app/domain/orders/customer-orders.server.ts";
import type { OrderStatus } from "#app/lib/catalog.ts";
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
  return { orders: await listCustomerOrders(getDb(), user.id) };
}

const BADGE: Record<OrderStatus, "secondary" | "success" | "default" | "outline" | "destructive"> =
  {
    pending: "secondary",
    paid: "default",
    shipped: "outline",
    completed: "success",
    cancelled: "destructive",
    expired: "destructive",
    refunded: "destructive",
  };

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
                  <Badge variant={BADGE[order.status]} className="capitalize">
                    {order.status}
                  </Badge>
                </CardHeader>
                <CardContent className="flex flex-col gap-4 text-sm">
                  <p>
                    Placed{" "}
                    {new Date(order.createdAt).toLocaleDateString("en-US", {
                      year: "numeric",
                      month: "long",
                      day: "numeric",
                    })}
                  </p>
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
