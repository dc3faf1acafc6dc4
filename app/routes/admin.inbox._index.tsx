import { Form, Link } from "react-router";
import { AdminListHeader, DataTable, type DataColumn } from "#app/components/admin/data-table.tsx";
import { SelectField } from "#app/components/form-field.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { countLabel } from "#app/lib/count-label.ts";
import { inboxFilter, listInbox } from "#app/domain/inbox/inbox.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.inbox._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Inbox", "Contact messages and repair requests."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

const STATE_WORDS = { open: "open", handled: "handled", all: "" } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "inbox");
  const filter = inboxFilter(new URL(request.url).searchParams);
  const timeZone = getEnv().SHOP_TIME_ZONE;
  const list = await listInbox(getDb(), filter, { timeZone });
  const noun = [STATE_WORDS[filter.state], "item"].filter(Boolean).join(" ");
  return {
    filter,
    summary: countLabel(list.total, false, noun),
    kindCounts: list.kindCounts,
    stateCounts: list.stateCounts,
    page: list.page,
    pageCount: list.pageCount,
    rows: list.rows.map(({ createdAt, ...row }) => ({
      ...row,
      received: formatShopDateTime(createdAt, timeZone),
    })),
  };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

const KIND_LABELS = { contact: "Message", repair: "Repair request" } as const;

function emptyText(filter: Route.ComponentProps["loaderData"]["filter"]) {
  const what =
    filter.kind === "contact"
      ? "messages"
      : filter.kind === "repair"
        ? "repair requests"
        : "messages or repair requests";
  return filter.state === "all" ? `No ${what} yet.` : `No ${filter.state} ${what}.`;
}

const columns: DataColumn<Row>[] = [
  {
    key: "kind",
    label: "Kind",
    className: "whitespace-nowrap",
    cell: (row) => KIND_LABELS[row.kind],
  },
  {
    key: "from",
    label: "From",
    className: "min-w-44",
    cell: (row) => (
      <>
        <span className={row.unread ? "font-semibold" : undefined}>{row.name}</span>
        <span className="block text-xs break-all text-muted-foreground">{row.email}</span>
      </>
    ),
  },
  {
    key: "subject",
    label: "Subject",
    className: "min-w-64",
    cell: (row) => (
      <span className="flex flex-wrap items-center gap-2">
        {row.unread ? <Badge>New</Badge> : null}
        <Link
          to={`/admin/inbox/${row.kind}/${row.id}`}
          className={row.unread ? "font-semibold hover:underline" : "hover:underline"}
        >
          {row.subject}
          {row.unread ? <span className="sr-only"> (unread)</span> : null}
        </Link>
      </span>
    ),
  },
  {
    key: "received",
    label: "Received",
    className: "whitespace-nowrap",
    cell: (row) => row.received,
  },
  {
    key: "state",
    label: "State",
    className: "whitespace-nowrap",
    cell: (row) => (
      <span className="flex flex-wrap gap-1">
        <Badge variant={row.handled ? "success" : "secondary"}>
          {row.handled ? "Handled" : "Open"}
        </Badge>
        {row.cancelled ? <Badge variant="outline">Cancelled</Badge> : null}
      </span>
    ),
  },
];

export default function AdminInbox({ loaderData }: Route.ComponentProps) {
  const { filter, kindCounts, stateCounts } = loaderData;
  return (
    <>
      <AdminListHeader heading="Inbox" summary={loaderData.summary} />
      {/* A plain GET form: the filter lives in the URL and works without JavaScript. */}
      <Form
        key={`${filter.kind}-${filter.state}`}
        method="get"
        className="mt-4 flex flex-wrap items-end gap-3"
        aria-label="Filter the inbox"
      >
        <SelectField label="Kind" name="kind" defaultValue={filter.kind} className="w-56">
          <option value="all">All ({kindCounts.all})</option>
          <option value="contact">Messages ({kindCounts.contact})</option>
          <option value="repair">Repair requests ({kindCounts.repair})</option>
        </SelectField>
        <SelectField label="State" name="state" defaultValue={filter.state} className="w-44">
          <option value="open">Open ({stateCounts.open})</option>
          <option value="handled">Handled ({stateCounts.handled})</option>
          <option value="all">All ({stateCounts.all})</option>
        </SelectField>
        <Button type="submit" variant="outline">
          Show
        </Button>
      </Form>
      <DataTable
        caption="Contact messages and repair requests, newest first"
        columns={columns}
        rows={loaderData.rows}
        rowKey={(row) => `${row.kind}-${row.id}`}
        empty={emptyText(filter)}
        page={loaderData.page}
        pageCount={loaderData.pageCount}
      />
    </>
  );
}
