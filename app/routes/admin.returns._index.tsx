import { Link } from "react-router";
import { AdminSearch } from "#app/components/admin/admin-table.tsx";
import { AdminListHeader, DataTable, type DataColumn } from "#app/components/admin/data-table.tsx";
import { StatusTabs } from "#app/components/admin/status-tabs.tsx";
import { ReturnStatusBadge } from "#app/components/return-status-badge.tsx";
import { getDb } from "#app/db/client.server.ts";
import { listQuery } from "#app/domain/admin/lists.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { listReturnsForAdmin, type AdminReturnFilter } from "#app/domain/returns/returns.server.ts";
import {
  RETURN_METHOD_LABELS,
  RETURN_STATUS_LABELS,
  RETURN_STATUSES,
  returnLabel,
  type ReturnStatus,
} from "#app/domain/returns/status.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.returns._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Returns", "Customers' returns: to receive, to refund, done."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

function filterOf(value: string | null): AdminReturnFilter {
  if (value === "all") return "all";
  return RETURN_STATUSES.includes(value as ReturnStatus) ? (value as ReturnStatus) : "open";
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "returns");
  const params = new URL(request.url).searchParams;
  const filter = filterOf(params.get("status"));
  const { query, page: requested } = listQuery(params);
  const { rows, counts, page, pageCount } = await listReturnsForAdmin(
    getDb(),
    filter,
    { requested },
    query,
  );
  const timeZone = getEnv().SHOP_TIME_ZONE;
  return {
    filter,
    query,
    counts,
    page,
    pageCount,
    rows: rows.map((row) => ({
      number: row.number,
      label: returnLabel(row.number),
      orderId: row.orderId,
      customer: row.name,
      email: row.email,
      items: row.items,
      method: RETURN_METHOD_LABELS[row.method],
      reason: row.reason,
      requested: formatShopDateTime(row.createdAt, timeZone),
      status: row.status,
      refund: row.refundCents === null ? null : formatUsd(row.refundCents),
      refundFailed: row.refundError !== null && row.status === "received",
    })),
  };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

const columns: DataColumn<Row>[] = [
  {
    key: "return",
    label: "Return",
    className: "whitespace-nowrap",
    cell: (row) => (
      <Link to={`/admin/returns/${row.number}`} className="font-medium text-primary underline">
        {row.label}
      </Link>
    ),
  },
  {
    key: "order",
    label: "Order",
    className: "whitespace-nowrap",
    cell: (row) => (
      <Link to={`/admin/orders/${row.orderId}`} className="text-primary underline">
        #{row.orderId}
      </Link>
    ),
  },
  {
    key: "customer",
    label: "Customer",
    cell: (row) => (
      <>
        {row.customer}
        <span className="block text-xs text-muted-foreground">{row.email}</span>
      </>
    ),
  },
  {
    key: "items",
    label: "Items",
    cell: (row) => (
      <>
        {row.items === 1 ? "1 item" : `${row.items} items`}
        <span className="block text-xs text-muted-foreground">
          {row.reason} · {row.method}
        </span>
      </>
    ),
  },
  {
    key: "requested",
    label: "Requested",
    className: "whitespace-nowrap",
    cell: (row) => row.requested,
  },
  {
    key: "status",
    label: "Status",
    cell: (row) => (
      <>
        <ReturnStatusBadge status={row.status} />
        {row.refund ? <span className="block text-xs">{row.refund}</span> : null}
        {row.refundFailed ? (
          <span className="block text-xs font-semibold text-destructive">Refund failed</span>
        ) : null}
      </>
    ),
  },
];

export default function AdminReturns({ loaderData }: Route.ComponentProps) {
  const { filter, query, counts, rows } = loaderData;
  const tabs: { tab: AdminReturnFilter; label: string; count: number }[] = [
    { tab: "open", label: "Open", count: counts.open },
    ...RETURN_STATUSES.map((status) => ({
      tab: status,
      label: RETURN_STATUS_LABELS[status],
      count: counts[status],
    })),
  ];
  const shown = query
    ? `Returns matching “${query}”`
    : filter === "open"
      ? "Open returns"
      : filter === "all"
        ? "All returns"
        : `Returns: ${RETURN_STATUS_LABELS[filter]}`;
  return (
    <>
      <AdminListHeader
        heading="Returns"
        summary={`${counts.requested.toLocaleString("en-US")} to receive · ${counts.received.toLocaleString("en-US")} to refund`}
      />
      <div className="mt-4">
        <AdminSearch label="Search by RMA, order number, name or e-mail" query={query} />
      </div>
      <StatusTabs
        label="Returns by status"
        tabs={tabs}
        // While searching, the results span every status: no tab is the current one.
        current={query ? null : filter}
        href={(tab) => (tab === "open" ? "/admin/returns" : `/admin/returns?status=${tab}`)}
      />
      <h2 className="mt-4 text-lg font-semibold">{shown}</h2>
      <DataTable
        caption={filter === "open" && !query ? `${shown}, oldest first` : `${shown}, newest first`}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.number}
        empty={query ? "No return matches." : "No returns here."}
        page={loaderData.page}
        pageCount={loaderData.pageCount}
      />
    </>
  );
}
