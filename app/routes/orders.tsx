import { OrderList } from "#app/components/order-card.tsx";
import { OrdersLoading, useOrdersLoading } from "#app/components/orders-loading.tsx";
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

export default function Orders({ loaderData }: Route.ComponentProps) {
  const loading = useOrdersLoading("/orders");
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Your Orders</h1>
      <OrdersLoading loading={loading} />
      <OrderList orders={loaderData.orders} timeZone={loaderData.timeZone} />
    </div>
  );
}
