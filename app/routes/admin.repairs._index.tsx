import { Link } from "react-router";
import { AdminSearch } from "#app/components/admin/admin-table.tsx";
import { AdminListHeader, DataTable, type DataColumn } from "#app/components/admin/data-table.tsx";
import { StatusTabs } from "#app/components/admin/status-tabs.tsx";
import { RepairStatusBadge } from "#app/components/repair-status-badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { listQuery } from "#app/domain/admin/lists.server.ts";
import { repairDesk } from "#app/domain/repair-tickets/shop-context.server.ts";
import {
  OPEN_STATUSES,
  promisedDateLabel,
  STATUS_LABELS,
  ticketLabel,
  TICKET_STATUSES,
  type TicketStatus,
} from "#app/domain/repair-tickets/status.ts";
import { deviceName, repairBoard } from "#app/domain/repair-tickets/tickets.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { countLabel } from "#app/lib/count-label.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.repairs._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Repairs", "The repair board: tickets by status."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

type Tab = TicketStatus | "open";

function tabOf(value: string | null): Tab {
  return TICKET_STATUSES.includes(value as TicketStatus) ? (value as TicketStatus) : "open";
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "repairs");
  const params = new URL(request.url).searchParams;
  const status = tabOf(params.get("status"));
  const { query, page } = listQuery(params);
  const { today } = repairDesk();
  const board = await repairBoard(getDb(), { status, query, today, page });
  const openCount = OPEN_STATUSES.reduce((sum, open) => sum + board.counts[open], 0);
  return {
    status,
    query,
    total: board.total,
    capped: board.capped,
    page: board.page,
    pageCount: board.pageCount,
    counts: board.counts,
    openCount,
    overdueCount: board.overdueCount,
    rows: board.rows.map((row) => ({
      number: row.number,
      label: ticketLabel(row.number),
      customer: row.customerName,
      phone: row.customerPhone,
      device: deviceName(row),
      serial: row.deviceSerial,
      promised: promisedDateLabel(row.promisedDate),
      overdue: row.overdue,
      status: row.status,
    })),
  };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

const columns: DataColumn<Row>[] = [
  {
    key: "ticket",
    label: "Ticket",
    className: "whitespace-nowrap",
    pin: "start",
    cell: (row) => (
      <Link to={`/admin/repairs/${row.label}`} className="font-medium text-primary underline">
        {row.label}
      </Link>
    ),
  },
  {
    key: "customer",
    label: "Customer",
    cell: (row) => (
      <>
        {row.customer}
        <span className="block text-xs text-muted-foreground">{row.phone}</span>
      </>
    ),
  },
  {
    key: "device",
    label: "Device",
    cell: (row) => (
      <>
        {row.device}
        {row.serial ? (
          <span className="block text-xs text-muted-foreground">Serial {row.serial}</span>
        ) : null}
      </>
    ),
  },
  {
    key: "promised",
    label: "Promised",
    className: "whitespace-nowrap",
    cell: (row) => (
      <>
        {row.promised}
        {row.overdue ? <span className="ml-2 font-semibold text-destructive">Overdue</span> : null}
      </>
    ),
  },
  {
    key: "status",
    label: "Status",
    pin: "end",
    cell: (row) => <RepairStatusBadge status={row.status} />,
  },
];

function Tabs({ loaderData }: { loaderData: Route.ComponentProps["loaderData"] }) {
  const tabs: { tab: Tab; label: string; count: number }[] = [
    { tab: "open", label: "Open", count: loaderData.openCount },
    ...TICKET_STATUSES.map((status) => ({
      tab: status,
      label: STATUS_LABELS[status],
      count: loaderData.counts[status],
    })),
  ];
  // While searching, the results span every status: no tab is the current one.
  return (
    <StatusTabs
      label="Tickets by status"
      tabs={tabs}
      current={loaderData.query ? null : loaderData.status}
      href={(tab) => (tab === "open" ? "/admin/repairs" : `/admin/repairs?status=${tab}`)}
    />
  );
}

export default function RepairBoard({ loaderData }: Route.ComponentProps) {
  const { query, status, rows, overdueCount, page, pageCount } = loaderData;
  const shown = query
    ? `Tickets matching “${query}”`
    : status === "open"
      ? "Open tickets"
      : `Tickets: ${STATUS_LABELS[status]}`;
  const pages = pageCount > 1 ? `, page ${page} of ${pageCount}` : "";
  return (
    <>
      <AdminListHeader
        heading="Repairs"
        summary={`${loaderData.openCount.toLocaleString("en-US")} open · ${overdueCount.toLocaleString("en-US")} overdue`}
        actions={
          <Link to="/admin/repairs/new" className={buttonVariants()}>
            New ticket
          </Link>
        }
      />
      <Tabs loaderData={loaderData} />
      <div className="mt-4">
        <AdminSearch label="Search by ticket number, name, phone or serial" query={query} />
      </div>
      <h2 className="mt-4 text-lg font-semibold">{shown}</h2>
      <p className="text-sm text-muted-foreground">
        {countLabel(loaderData.total, loaderData.capped, "ticket")}
      </p>
      <DataTable
        caption={`${shown}, earliest promised date first${pages}`}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.number}
        empty={query ? "No ticket matches." : "No tickets here."}
        page={page}
        pageCount={pageCount}
      />
    </>
  );
}
