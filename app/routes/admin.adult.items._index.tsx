import { AdminCatalogueHeader, AdminTable } from "#app/components/admin/admin-table.tsx";
import { type DataColumn } from "#app/components/admin/data-table.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import {
  ADULT_SORTS,
  adminListParams,
  deleteAdultTitle,
  listAdultTitlesForAdmin,
} from "#app/domain/catalog/admin-titles.server.ts";
import { countLabel } from "#app/lib/count-label.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.adult.items._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("All Adult Items", "Manage the adult catalogue."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  const params = adminListParams(new URL(request.url).searchParams, ADULT_SORTS);
  const list = await listAdultTitlesForAdmin(getDb(), params);
  return { ...list, query: params.query, sort: params.sort, dir: params.dir };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaffAction(request, "catalogue");
  const form = await readForm(request);
  const serialNo = positiveInt(form.serialNo);
  if (form.intent !== "delete" || !serialNo) {
    return reply.unknownAction();
  }
  const deleted = await deleteAdultTitle(getDb(), serialNo);
  return deleted
    ? reply.ok("Title deleted")
    : reply.refused("not-found", "That title was already deleted.");
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

const COLUMNS: DataColumn<Row>[] = [
  { key: "serial", label: "AdultSerialNo", sort: "serial", cell: (row) => row.serialNo },
  { key: "title", label: "Title", sort: "title", cell: (row) => row.title, className: "min-w-48" },
  {
    key: "production",
    label: "Production",
    sort: "production",
    cell: (row) => row.production ?? "—",
  },
  { key: "date", label: "Release Date", sort: "date", cell: (row) => row.releaseDate ?? "—" },
  { key: "price", label: "Price", sort: "price", cell: (row) => formatUsd(row.priceCents) },
  { key: "qty", label: "Quantity", sort: "qty", cell: (row) => row.qty },
];

export default function AdminAdultItems({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AdminCatalogueHeader
        heading="All Adult Items"
        basePath="/admin/adult/items"
        summary={countLabel(loaderData.total, loaderData.capped, "title")}
        searchLabel="Search adult titles"
        query={loaderData.query}
      />
      <AdminTable
        caption="Adult titles"
        columns={COLUMNS}
        rows={loaderData.rows}
        sort={loaderData.sort}
        dir={loaderData.dir}
        page={loaderData.page}
        pageCount={loaderData.pageCount}
        editHref={(row) => `/admin/adult/items/${row.serialNo}/edit`}
      />
    </>
  );
}
