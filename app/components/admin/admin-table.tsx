import { Pencil, Trash } from "#app/components/ui/icons.tsx";
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher, useLocation, useNavigate, useNavigation } from "react-router";
import { toast } from "#app/components/toasts.tsx";
import { useFetcherAnswer } from "../use-fetcher-answer.ts";
import { Button, buttonVariants } from "../ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../ui/dialog.tsx";
import { Input } from "../ui/input.tsx";
import { DataTable, withParams, type DataColumn } from "./data-table.tsx";

/** Search as you type (spec: 300 ms after the last key), kept in the URL's `q`. */
export function AdminSearch({ label, query }: { label: string; query: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [value, setValue] = useState(query);
  const latest = useRef(location);
  latest.current = location;
  // Someone typed and at once followed a link elsewhere: the late search must not pull them back.
  const navigation = useNavigation();
  const leaving = useRef(false);
  leaving.current =
    navigation.state !== "idle" && navigation.location.pathname !== location.pathname;
  useEffect(() => setValue(query), [query]);
  useEffect(() => {
    if (value.trim() === query) return;
    const timer = window.setTimeout(() => {
      if (leaving.current) return;
      void navigate(withParams(latest.current, { q: value.trim() }), { replace: true });
    }, 300);
    return () => window.clearTimeout(timer);
  }, [value, query, navigate]);
  return (
    <form
      role="search"
      aria-label={label}
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        void navigate(withParams(location, { q: value.trim() }), { replace: true });
      }}
    >
      <label htmlFor="admin-search" className="sr-only">
        {label}
      </label>
      <Input
        id="admin-search"
        name="q"
        type="search"
        placeholder={label}
        value={value}
        maxLength={100}
        onChange={(event) => setValue(event.target.value)}
        className="w-full sm:w-80"
      />
    </form>
  );
}

/** A catalogue table of the back office: sortable headers, edit and delete per row, pages. */
export function AdminTable<Row extends { serialNo: number; title: string }>({
  caption,
  columns,
  rows,
  sort,
  dir,
  page,
  pageCount,
  editHref,
}: {
  caption: string;
  columns: DataColumn<Row>[];
  rows: Row[];
  sort: string;
  dir: "asc" | "desc";
  page: number;
  pageCount: number;
  editHref: (row: Row) => string;
}) {
  const [deleting, setDeleting] = useState<Row | null>(null);
  const actions: DataColumn<Row> = {
    key: "actions",
    label: "Actions",
    hideLabel: true,
    // Pinned to the table's right edge: where the table scrolls sideways, the buttons stay whole
    // and in sight, and the columns scroll beneath them.
    className: "sticky right-0 bg-card shadow-[inset_1px_0_0_var(--color-border)]",
    headerClassName: "text-right",
    cell: (row) => (
      <div className="flex justify-end gap-1">
        <Link
          to={editHref(row)}
          className={buttonVariants({ variant: "outline", size: "sm" })}
          aria-label={`Edit ${row.title}`}
        >
          <Pencil aria-hidden="true" />
          Edit
        </Link>
        <Button
          variant="outline"
          size="sm"
          aria-label={`Delete ${row.title}`}
          onClick={() => setDeleting(row)}
        >
          <Trash aria-hidden="true" />
          Delete
        </Button>
      </div>
    ),
  };
  return (
    <>
      <DataTable
        caption={caption}
        columns={[...columns, actions]}
        rows={rows}
        rowKey={(row) => row.serialNo}
        empty="No titles match."
        page={page}
        pageCount={pageCount}
        sort={sort}
        dir={dir}
      />
      <DeleteDialog row={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

/** Spec §4: deletion is permanent after this confirmation. */
function DeleteDialog({
  row,
  onClose,
}: {
  row: { serialNo: number; title: string } | null;
  onClose: () => void;
}) {
  const fetcher = useFetcher<{ ok: boolean; message: string }>();
  const busy = fetcher.state !== "idle";
  useFetcherAnswer(fetcher, (answer) => {
    if (answer.ok) {
      toast.success(answer.message);
      onClose();
    } else {
      toast.error(answer.message);
    }
  });
  return (
    <Dialog open={row !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete title</DialogTitle>
          <DialogDescription>
            {row ? `Delete "${row.title}"? This cannot be undone.` : ""}
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="serialNo" value={row?.serialNo ?? ""} />
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={busy}>
              Delete
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}

/** The top of a catalogue table: heading, counts, add / import / export, and the search box. */
export function AdminCatalogueHeader({
  heading,
  basePath,
  summary,
  searchLabel,
  query,
}: {
  heading: string;
  /** "/admin/items" or "/admin/adult/items". */
  basePath: string;
  summary: React.ReactNode;
  searchLabel: string;
  query: string;
}) {
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold">{heading}</h1>
          <p className="mt-1 text-sm text-muted-foreground">{summary}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={`${basePath}/new`} className={buttonVariants()}>
            Add Title
          </Link>
          <Link to={`${basePath}/import`} className={buttonVariants({ variant: "outline" })}>
            Import CSV
          </Link>
          <a
            href={`${basePath}/export.csv`}
            className={buttonVariants({ variant: "outline" })}
            download
          >
            Export CSV
          </a>
        </div>
      </div>
      <div className="mt-4">
        <AdminSearch label={searchLabel} query={query} />
      </div>
    </>
  );
}
