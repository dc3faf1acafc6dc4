import { Form, Link, useLocation } from "react-router";
import { AdminSearch } from "#app/components/admin/admin-table.tsx";
import { AdminListHeader, DataTable, type DataColumn } from "#app/components/admin/data-table.tsx";
import { OrderStatusBadge } from "#app/components/order-status-badge.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { getDb } from "#app/db/client.server.ts";
import { can } from "#app/domain/accounts/permissions.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { listQuery } from "#app/domain/admin/lists.server.ts";
import { countLabel } from "#app/lib/count-label.ts";
import { adminOrderFilter, listOrdersForAdmin } from "#app/domain/orders/admin-orders.server.ts";
import { ORDER_STATUSES } from "#app/domain/orders/status.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.orders._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Orders", "The shop's orders."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaff(request, "orders.view");
  const params = new URL(request.url).searchParams;
  const filter = adminOrderFilter(params);
  const list = await listOrdersForAdmin(getDb(), filter, listQuery(params).page);
  const timeZone = getEnv().SHOP_TIME_ZONE;
  return {
    ...list,
    rows: list.rows.map((row) => ({ ...row, placed: formatShopDateTime(row.createdAt, timeZone) })),
    filter,
    // The export carries every customer's address: an admin's (a clerk reads the list only).
    mayExport: can(user.role, "orders.manage"),
  };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

const columns: DataColumn<Row>[] = [
  {
    key: "number",
    label: "Order",
    cell: (row) => (
      <Link to={`/admin/orders/${row.id}`} className="font-medium text-primary underline">
        #{row.id}
      </Link>
    ),
  },
  { key: "placed", label: "Placed", cell: (row) => row.placed, className: "whitespace-nowrap" },
  { key: "customer", label: "Customer", cell: (row) => row.name },
  { key: "email", label: "E-mail", cell: (row) => row.email, className: "break-all" },
  { key: "items", label: "Items", cell: (row) => row.itemCount },
  { key: "total", label: "Total", cell: (row) => formatUsd(row.totalCents) },
  {
    key: "status",
    label: "Status",
    cell: (row) => (
      <span className="flex flex-wrap items-center gap-1">
        <OrderStatusBadge status={row.status} />
        {row.refundDue ? <span className="text-xs font-medium">Refund due</span> : null}
      </span>
    ),
  },
];

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { filter } = loaderData;
  const location = useLocation();
  const exportQuery = new URLSearchParams(location.search);
  exportQuery.delete("page");
  const exportHref = `/admin/orders/export.csv${exportQuery.size ? `?${exportQuery}` : ""}`;
  return (
    <>
      <AdminListHeader
        heading="Orders"
        summary={countLabel(loaderData.total, loaderData.capped, "order")}
        actions={
          loaderData.mayExport ? (
            <a href={exportHref} className={buttonVariants({ variant: "outline" })} download>
              Export CSV
            </a>
          ) : null
        }
      />
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <AdminSearch label="Search by order number, name or e-mail" query={filter.query} />
        {/* A plain GET form: the status filter works without JavaScript too. */}
        <Form method="get" className="flex items-end gap-2">
          {filter.query ? <input type="hidden" name="q" value={filter.query} /> : null}
          <div className="flex flex-col gap-1.5">
            <label htmlFor="order-status" className="text-sm font-medium">
              Status
            </label>
            <NativeSelect
              id="order-status"
              name="status"
              defaultValue={filter.status ?? ""}
              key={filter.status ?? ""}
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
              className="w-40"
              placeholder="All statuses"
              options={ORDER_STATUSES.map((status) => ({
                value: status,
                label: status[0]!.toUpperCase() + status.slice(1),
              }))}
            />
          </div>
          <Button type="submit" variant="outline">
            Filter
          </Button>
        </Form>
      </div>
      <DataTable
        caption="Orders, newest first"
        columns={columns}
        rows={loaderData.rows}
        rowKey={(row) => row.id}
        empty="No orders match."
        page={loaderData.page}
        pageCount={loaderData.pageCount}
      />
    </>
  );
}
