import { useState } from "react";
import { Link } from "react-router";
import { AdminSearch, RemoveDialog, RowActions } from "#app/components/admin/admin-table.tsx";
import { DataTable, type DataColumn } from "#app/components/admin/data-table.tsx";
import { STORE_ITEMS_PATH } from "#app/components/admin/store-items/store-item-form.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireActingStaff, requireStaff } from "#app/domain/accounts/session.server.ts";
import { archiveStoreItem, listStoreItems } from "#app/domain/store-items/items.server.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.store-items._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Store Items", "The store's own goods, sold at the counter."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  const search = new URL(request.url).searchParams;
  const query = (search.get("q") ?? "").trim().slice(0, 100);
  const list = await listStoreItems(getDb(), { query, page: positiveInt(search.get("page")) ?? 1 });
  return { ...list, query };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireActingStaff(request, "catalogue");
  const form = await readForm(request);
  if (form.intent !== "archive") return reply.unknownAction();
  const id = positiveInt(form.id);
  const archived = id ? await archiveStoreItem(getDb(), id, staff) : false;
  return archived
    ? reply.ok("Item taken off sale")
    : reply.refused("not-found", "That item was already taken off sale.");
}

type Row = Route.ComponentProps["loaderData"]["items"][number];

export default function StoreItems({ loaderData }: Route.ComponentProps) {
  const [archiving, setArchiving] = useState<Row | null>(null);
  const columns: DataColumn<Row>[] = [
    { key: "sku", label: "SKU", cell: (row) => row.sku, pin: "start" },
    { key: "name", label: "Name", cell: (row) => row.name, className: "min-w-48" },
    { key: "barcode", label: "Barcode", cell: (row) => row.barcode ?? "—" },
    { key: "price", label: "Price", cell: (row) => formatUsd(row.priceCents) },
    { key: "stock", label: "Stock", cell: (row) => row.stock },
    { key: "taxable", label: "Taxable", cell: (row) => (row.taxable ? "Yes" : "No") },
    {
      key: "actions",
      label: "Actions",
      hideLabel: true,
      pin: "end",
      headerClassName: "text-right",
      cell: (row) => (
        <RowActions
          name={row.name}
          editHref={`${STORE_ITEMS_PATH}/${row.id}/edit`}
          removeLabel="Take off sale"
          onRemove={() => setArchiving(row)}
        />
      ),
    },
  ];
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold">Store Items</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {loaderData.total === 1 ? "1 item" : `${loaderData.total} items`} on sale at the counter
            (never on the web shop)
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={`${STORE_ITEMS_PATH}/new`} className={buttonVariants()}>
            Add Item
          </Link>
          <Link
            to={`${STORE_ITEMS_PATH}/import`}
            className={buttonVariants({ variant: "outline" })}
          >
            Import CSV
          </Link>
          <a
            href={`${STORE_ITEMS_PATH}/export.csv`}
            className={buttonVariants({ variant: "outline" })}
            download
          >
            Export CSV
          </a>
        </div>
      </div>
      <div className="mt-4">
        <AdminSearch label="Search store items" query={loaderData.query} />
      </div>
      <DataTable
        caption="Store items"
        columns={columns}
        rows={loaderData.items}
        rowKey={(row) => row.id}
        empty={loaderData.query ? "No items match." : "No items yet."}
        page={loaderData.page}
        pageCount={loaderData.pageCount}
      />
      <ArchiveDialog row={archiving} onClose={() => setArchiving(null)} />
    </>
  );
}

/** Taking an item off sale keeps its sales and frees its barcode; it cannot be undone here. */
function ArchiveDialog({ row, onClose }: { row: Row | null; onClose: () => void }) {
  return (
    <RemoveDialog
      open={row !== null}
      heading="Take item off sale"
      description={
        row ? `Take "${row.name}" off sale? Its past sales keep it; its barcode is freed.` : ""
      }
      fields={{ intent: "archive", id: String(row?.id ?? "") }}
      confirmLabel="Take off sale"
      onClose={onClose}
    />
  );
}
