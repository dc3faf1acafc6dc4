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
      <RowActions
        name={row.title}
        editHref={editHref(row)}
        removeLabel="Delete"
        onRemove={() => setDeleting(row)}
      />
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

/** A row's Edit link and its remove button (which opens a `RemoveDialog`). */
export function RowActions({
  name,
  editHref,
  removeLabel,
  onRemove,
}: {
  /**
   * What the row is called: the buttons' accessible names are their text and this ("Delete
   * Jaws"), so what is read out starts with what is seen (WCAG 2.5.3).
   */
  name: string;
  editHref: string;
  removeLabel: string;
  onRemove: () => void;
}) {
  return (
    <div className="flex justify-end gap-1">
      <Link
        to={editHref}
        className={buttonVariants({ variant: "outline", size: "sm" })}
        aria-label={`Edit ${name}`}
      >
        <Pencil aria-hidden="true" />
        Edit
      </Link>
      <Button variant="outline" size="sm" aria-label={`${removeLabel} ${name}`} onClick={onRemove}>
        <Trash aria-hidden="true" />
        {removeLabel}
      </Button>
    </div>
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
  return (
    <RemoveDialog
      open={row !== null}
      heading="Delete title"
      description={row ? `Delete "${row.title}"? This cannot be undone.` : ""}
      fields={{ intent: "delete", serialNo: String(row?.serialNo ?? "") }}
      confirmLabel="Delete"
      onClose={onClose}
    />
  );
}

/**
 * The confirmation before a row of a back-office table is removed: it posts `fields` to the
 * page's action and says how that went.
 */
export function RemoveDialog({
  open,
  heading,
  description,
  fields,
  confirmLabel,
  onClose,
}: {
  open: boolean;
  heading: string;
  description: string;
  /** The hidden fields posted: the intent and the row's id. */
  fields: Record<string, string>;
  confirmLabel: string;
  onClose: () => void;
}) {
  const fetcher = useFetcher<{ ok: boolean; message: string | null }>();
  const busy = fetcher.state !== "idle";
  useFetcherAnswer(fetcher, (answer) => {
    if (answer.ok) {
      if (answer.message) toast.success(answer.message);
      onClose();
    } else if (answer.message) {
      toast.error(answer.message);
    }
  });
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{heading}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={busy}>
              {confirmLabel}
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
