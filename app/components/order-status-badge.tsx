import type { OrderStatus } from "#app/domain/orders/status.ts";
import { Badge } from "./ui/badge.tsx";

/** DESIGN §3.3: the spec's colours hold for pending (secondary) and completed (success). */
const VARIANT: Record<
  OrderStatus,
  "secondary" | "success" | "default" | "outline" | "destructive"
> = {
  pending: "secondary",
  paid: "default",
  shipped: "outline",
  completed: "success",
  cancelled: "destructive",
  expired: "destructive",
  refunded: "destructive",
};

/** An order's status as a badge; the word itself carries the meaning, not only the colour. */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <Badge variant={VARIANT[status]} className="capitalize">
      {status}
    </Badge>
  );
}
