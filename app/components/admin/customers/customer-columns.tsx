import { Link } from "react-router";
import { type DataColumn } from "#app/components/admin/data-table.tsx";
import { OrderStatusBadge } from "#app/components/order-status-badge.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import type {
  CustomerAppointment,
  CustomerOrderSummary,
} from "#app/domain/customers/admin-customers.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";

/** A customer's orders, as the customer page lists them. */
export function orderColumns(timeZone: string): DataColumn<CustomerOrderSummary>[] {
  return [
    {
      key: "order",
      label: "Order",
      cell: (order) => (
        <Link to={`/admin/orders/${order.id}`} className="font-medium text-primary underline">
          #{order.id}
        </Link>
      ),
    },
    {
      key: "date",
      label: "Date",
      className: "whitespace-nowrap",
      cell: (order) => formatShopDateTime(new Date(order.createdAt), timeZone),
    },
    { key: "items", label: "Items", className: "text-right", cell: (order) => order.itemCount },
    {
      key: "total",
      label: "Total",
      className: "text-right tabular-nums",
      cell: (order) => formatUsd(order.totalCents),
    },
    {
      key: "status",
      label: "Status",
      cell: (order) => <OrderStatusBadge status={order.status} />,
    },
  ];
}

/** A customer's repair appointments, as the customer page lists them. */
export function appointmentColumns(timeZone: string): DataColumn<CustomerAppointment>[] {
  return [
    {
      key: "service",
      label: "Service",
      cell: (booking) => (
        <Link
          to={`/admin/inbox/repair/${booking.id}`}
          className="font-medium text-primary underline"
        >
          {booking.serviceType}
        </Link>
      ),
    },
    {
      key: "when",
      label: "When",
      className: "whitespace-nowrap",
      cell: (booking) => formatShopDateTime(new Date(booking.startsAt), timeZone),
    },
    {
      key: "status",
      label: "Status",
      cell: (booking) => (
        <Badge
          variant={booking.status === "cancelled" ? "destructive" : "secondary"}
          className="capitalize"
        >
          {booking.status}
        </Badge>
      ),
    },
  ];
}
