import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "sonner";
import { AdminCatalogueHeader, AdminTable } from "#app/components/admin/admin-table.tsx";
import { type DataColumn } from "#app/components/admin/data-table.tsx";
import { useFetcherAnswer } from "#app/components/use-fetcher-answer.ts";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogClose,
} from "#app/components/ui/dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import {
  adminListParams,
  deleteRegularTitle,
  listRegularTitlesForAdmin,
  REGULAR_SORTS,
  setStaffPick,
} from "#app/domain/catalog/admin-titles.server.ts";
import { countLabel } from "#app/lib/count-label.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply, type Answer } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.items._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("All Regular Items", "Manage the regular catalogue."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  const params = adminListParams(new URL(request.url).searchParams, REGULAR_SORTS);
  const list = await listRegularTitlesForAdmin(getDb(), params);
  return { ...list, query: params.query, sort: params.sort, dir: params.dir, picks: params.picks };
}

const STAFF_PICK_LIMIT_MESSAGE =
  "You can only have up to 5 staff picks. Please remove one before adding another.";

export async function action({ request }: Route.ActionArgs) {
  await requireStaffAction(request, "catalogue");
  const form = await readForm(request);
  const serialNo = positiveInt(form.serialNo);
  if (!serialNo) return reply.refused("invalid", "No such title.");
  if (form.intent === "delete") {
    const deleted = await deleteRegularTitle(getDb(), serialNo);
    return deleted
      ? reply.ok("Title deleted")
      : reply.refused("not-found", "That title was already deleted.");
  }
  if (form.intent === "staff-pick") {
    const result = await setStaffPick(getDb(), serialNo, form.on === "true");
    if (result === "limit-reached") {
      return reply.refused("conflict", STAFF_PICK_LIMIT_MESSAGE, { limit: true });
    }
    if (result === "not-found") return reply.refused("not-found", "No such title.");
    return reply.ok(result === "on" ? "Added to Staff Picks" : "Removed from Staff Picks");
  }
  return reply.unknownAction();
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

function StaffPickSwitch({ row, onLimit }: { row: Row; onLimit: () => void }) {
  const fetcher = useFetcher<Answer & { limit?: boolean }>();
  const pending = fetcher.formData ? fetcher.formData.get("on") === "true" : row.staffPick;
  useFetcherAnswer(fetcher, (answer) => {
    if (answer.limit) onLimit();
    else if (!answer.ok) toast.error(answer.message);
  });
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="staff-pick" />
      <input type="hidden" name="serialNo" value={row.serialNo} />
      <input type="hidden" name="on" value={String(!row.staffPick)} />
      <button
        type="submit"
        role="switch"
        aria-checked={pending}
        aria-label={`Staff pick: ${row.title}`}
        className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent bg-input transition-colors aria-checked:bg-primary"
      >
        <span
          aria-hidden="true"
          className={`block size-5 rounded-full bg-background shadow transition-transform ${pending ? "translate-x-5" : "translate-x-0"}`}
        />
      </button>
    </fetcher.Form>
  );
}

export default function AdminRegularItems({ loaderData }: Route.ComponentProps) {
  const [limitReached, setLimitReached] = useState(false);
  const columns: DataColumn<Row>[] = [
    { key: "serial", label: "RegSerialNo", sort: "serial", cell: (row) => row.serialNo },
    {
      key: "title",
      label: "Title",
      sort: "title",
      cell: (row) => row.title,
      className: "min-w-48",
    },
    { key: "disc", label: "Disc", sort: "disc", cell: (row) => row.disc },
    { key: "year", label: "Release Year", sort: "year", cell: (row) => row.releaseYear ?? "—" },
    {
      key: "price",
      label: "CurrentPrice",
      sort: "price",
      cell: (row) => formatUsd(row.priceCents),
    },
    { key: "qty", label: "QtyToList", sort: "qty", cell: (row) => row.qty },
    {
      key: "pick",
      label: "Staff Pick",
      cell: (row) => <StaffPickSwitch row={row} onLimit={() => setLimitReached(true)} />,
    },
  ];
  return (
    <>
      <AdminCatalogueHeader
        heading="All Regular Items"
        basePath="/admin/items"
        summary={
          <>
            {countLabel(loaderData.total, loaderData.capped, "title")} · {loaderData.staffPickCount}{" "}
            of 5 staff picks ·{" "}
            {loaderData.picks ? (
              <Link to="/admin/items" className="font-medium text-primary underline">
                Show all titles
              </Link>
            ) : (
              <Link to="/admin/items?picks=1" className="font-medium text-primary underline">
                Show staff picks
              </Link>
            )}
          </>
        }
        searchLabel="Search regular titles"
        query={loaderData.query}
      />
      <AdminTable
        caption="Regular titles"
        columns={columns}
        rows={loaderData.rows}
        sort={loaderData.sort}
        dir={loaderData.dir}
        page={loaderData.page}
        pageCount={loaderData.pageCount}
        editHref={(row) => `/admin/items/${row.serialNo}/edit`}
      />
      <Dialog open={limitReached} onOpenChange={setLimitReached}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Staff Pick Limit Reached</DialogTitle>
            <DialogDescription>{STAFF_PICK_LIMIT_MESSAGE}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button>OK</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
