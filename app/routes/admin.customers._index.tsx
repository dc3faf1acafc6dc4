import { data, Link } from "react-router";
import { AdminSearch } from "#app/components/admin/admin-table.tsx";
import { AdminListHeader, DataTable, type DataColumn } from "#app/components/admin/data-table.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { listQuery } from "#app/domain/admin/lists.server.ts";
import { countLabel } from "#app/lib/count-label.ts";
import {
  listCustomersForAdmin,
  type AdminCustomer,
} from "#app/domain/customers/admin-customers.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatShopDate } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.customers._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Customers", "The shop's customers."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "customers");
  const params = listQuery(new URL(request.url).searchParams);
  const list = await listCustomersForAdmin(getDb(), params);
  const timeZone = getEnv().SHOP_TIME_ZONE;
  if (!list.ok) {
    return data({ ...list, query: params.query, timeZone, summary: "" }, { status: 503 });
  }
  return {
    ...list,
    query: params.query,
    timeZone,
    summary: countLabel(list.total, list.capped, "customer"),
  };
}

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const columns: DataColumn<AdminCustomer>[] = [
    {
      key: "email",
      label: "E-mail",
      className: "min-w-48",
      cell: (row) => (
        <Link
          to={`/admin/customers/${encodeURIComponent(row.id)}`}
          className="font-medium text-primary underline break-all"
        >
          {row.email}
        </Link>
      ),
    },
    { key: "first", label: "First name", cell: (row) => row.firstName ?? "—" },
    { key: "last", label: "Last name", cell: (row) => row.lastName ?? "—" },
    {
      key: "born",
      label: "Date of birth",
      className: "whitespace-nowrap",
      cell: (row) => row.dateOfBirth ?? "—",
    },
    {
      key: "joined",
      label: "Joined",
      className: "whitespace-nowrap",
      cell: (row) => formatShopDate(new Date(row.createdAt), loaderData.timeZone),
    },
  ];
  return (
    <>
      <AdminListHeader heading="Customers" summary={loaderData.summary || undefined} />
      <div className="mt-4">
        <AdminSearch label="Search customers by e-mail or name" query={loaderData.query} />
      </div>
      {loaderData.ok ? (
        <DataTable
          caption="Customers, newest first"
          columns={columns}
          rows={loaderData.rows}
          rowKey={(row) => row.id}
          empty={loaderData.query ? "No customers match." : "No customers yet."}
          page={loaderData.page}
          pageCount={loaderData.pageCount}
        />
      ) : (
        <p role="alert" className="mt-6 font-medium text-destructive">
          Error: {loaderData.message}
        </p>
      )}
    </>
  );
}
