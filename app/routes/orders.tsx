import { OrderList } from "#app/components/order-card.tsx";
import { OrdersLoading, useOrdersLoading } from "#app/components/orders-loading.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireUser } from "#app/domain/accounts/session.server.ts";
import { FormMessage } from "#app/components/form-field.tsx";
import { listCustomerOrders } from "#app/domain/orders/customer-orders.server.ts";
import { returnsConfig, returnsForCustomerOrders } from "#app/domain/returns/returns.server.ts";
import { parseReturnLabel, returnLabel } from "#app/domain/returns/status.ts";
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
  const orders = await listCustomerOrders(getDb(), user.id);
  const returns = await returnsForCustomerOrders(getDb(), orders, { config: returnsConfig() });
  // After a return request: its number, if it is one of this customer's returns.
  const asked = parseReturnLabel(new URL(request.url).searchParams.get("return") ?? "");
  const requested = Object.values(returns).some((info) =>
    info.returns.some((entry) => entry.number === asked),
  )
    ? asked
    : undefined;
  return {
    orders,
    returns,
    requested: requested ? returnLabel(requested) : null,
    timeZone: getEnv().SHOP_TIME_ZONE,
  };
}

export default function Orders({ loaderData }: Route.ComponentProps) {
  const loading = useOrdersLoading("/orders");
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Your Orders</h1>
      <OrdersLoading loading={loading} />
      {loaderData.requested ? (
        <div className="mt-4">
          <FormMessage tone="success">
            Your return {loaderData.requested} is requested. We have e-mailed you the instructions.
          </FormMessage>
        </div>
      ) : null}
      <OrderList
        orders={loaderData.orders}
        timeZone={loaderData.timeZone}
        returns={loaderData.returns}
      />
    </div>
  );
}
