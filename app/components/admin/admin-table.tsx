import { ArrowDown, ArrowUp, ArrowUpDown, Pencil, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher, useLocation, useNavigate, useNavigation } from "react-router";
import { toast } from "sonner";
import { cn } from "#app/lib/cn.ts";
import { Pagination } from "../pagination.tsx";
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

/** The URL with some search parameters changed; `page` goes back to 1 unless given. */
function withParams(
  location: { pathname: string; search: string },
  changes: Record<string, string | null>,
) {
  const params = new URLSearchParams(location.search);
  if (!("page" in changes)) params.delete("page");
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ""}`;
}

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

export type AdminColumn<Row> = {
  key: string;
  label: string;
  /** The `sort` value of this column, when it can be sorted. */
  sort?: string;
  className?: string;
  cell: (row: Row) => React.ReactNode;
};

function SortHeader({
  column,
  sort,
  dir,
}: {
  column: { label: string; sort?: string };
  sort: string;
  dir: "asc" | "desc";
}) {
  const location = useLocation();
  if (!column.sort) return <>{column.label}</>;
  const active = sort === column.sort;
  const next = active && dir === "asc" ? "desc" : "asc";
  const Icon = active ? (dir === "asc" ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <Link
      to={withParams(location, { sort: column.sort, dir: next })}
      className="inline-flex items-center gap-1 hover:underline"
      aria-label={`Sort by ${column.label} ${next === "asc" ? "ascending" : "descending"}`}
    >
      {column.label}
      <Icon aria-hidden="true" className="size-3.5" />
    </Link>
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
  columns: AdminColumn<Row>[];
  rows: Row[];
  sort: string;
  dir: "asc" | "desc";
  page: number;
  pageCount: number;
  editHref: (row: Row) => string;
}) {
  const navigation = useNavigation();
  const [deleting, setDeleting] = useState<Row | null>(null);
  return (
    <>
      <div
        className={cn(
          "relative mt-4 overflow-x-auto rounded-xl border bg-card",
          navigation.state === "loading" && "opacity-60",
        )}
      >
        <table className="w-full text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr className="border-b text-left">
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={
                    column.sort && column.sort === sort
                      ? dir === "asc"
                        ? "ascending"
                        : "descending"
                      : undefined
                  }
                  className={cn("px-3 py-2 font-medium whitespace-nowrap", column.className)}
                >
                  <SortHeader column={column} sort={sort} dir={dir} />
                </th>
              ))}
              <th scope="col" className="px-3 py-2 text-right font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td
                  colSpan={columns.length + 1}
                  className="px-3 py-6 text-center text-muted-foreground"
                >
                  No titles match.
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.serialNo} className="border-b last:border-0">
                  {columns.map((column) => (
                    <td key={column.key} className={cn("px-3 py-2", column.className)}>
                      {column.cell(row)}
                    </td>
                  ))}
                  <td className="px-3 py-2">
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
                        <Trash2 aria-hidden="true" />
                        Delete
                      </Button>
                    </div>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="mt-4">
        <Pagination page={page} pageCount={pageCount} />
      </div>
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

/** "100,905 titles", or "10,000+ titles" when a search was counted only so far. */
export function titleCount(total: number, capped: boolean) {
  return `${total.toLocaleString("en-US")}${capped ? "+" : ""} titles`;
}
