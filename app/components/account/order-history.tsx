import { OrderList } from "#app/components/order-card.tsx";
import { OrdersLoading } from "#app/components/orders-loading.tsx";
import { AccountSection } from "./account-section.tsx";

/** View Order History: the loading text at once, then the orders with their returns. */
export function OrderHistory({
  loading,
  ...orders
}: { loading: boolean } & React.ComponentProps<typeof OrderList>) {
  return (
    <AccountSection wide>
      <h1 className="mt-4 text-2xl font-bold">Your Orders</h1>
      <OrdersLoading loading={loading} />
      {loading ? null : <OrderList {...orders} />}
    </AccountSection>
  );
}
