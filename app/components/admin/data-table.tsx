import { ArrowDown, ArrowUp, ArrowUpDown } from "#app/components/ui/icons.tsx";
import { Link, useLocation, useNavigation } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { Pagination } from "../pagination.tsx";
import { SidewaysScroll } from "#app/components/ui/sideways-scroll.tsx";

export type DataColumn<Row> = {
  key: string;
  label: string;
  /** The `sort` value of this column, when the table can be sorted by it. */
  sort?: string;
  /** The heading is only read out (e.g. a column of buttons). */
  hideLabel?: boolean;
  className?: string;
  headerClassName?: string;
  /**
   * Kept in view at the table's start or end while the columns between scroll sideways (a
   * narrow screen): what names the row, and what the list is looked at for (its status).
   */
  pin?: "start" | "end";
  cell: (row: Row) => React.ReactNode;
};

/** A pinned column's cells: on the card's colour, over the columns scrolling beneath them. */
const PINNED = {
  start: "sticky left-0 z-[1] bg-card shadow-[inset_-1px_0_0_var(--color-border)]",
  end: "sticky right-0 z-[1] bg-card shadow-[inset_1px_0_0_var(--color-border)]",
} as const;

function pinned(column: { pin?: "start" | "end" }) {
  return column.pin ? PINNED[column.pin] : undefined;
}

/** The URL with some search parameters changed; `page` goes back to 1 unless given. */
export function withParams(
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

/**
 * A back-office table (catalogues, orders, customers, the inbox): a captioned table that scrolls
 * sideways within itself on narrow screens, its pinned columns staying in view, sortable
 * headings when `sort` is given, an empty text, and pages.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  page,
  pageCount,
  sort,
  dir = "asc",
}: {
  caption: string;
  columns: DataColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  empty: string;
  page: number;
  pageCount: number;
  /** The column sorted by (the URL's `sort`), for tables that can be sorted. */
  sort?: string;
  dir?: "asc" | "desc";
}) {
  const navigation = useNavigation();
  return (
    <>
      <SidewaysScroll
        label={caption}
        className={cn(
          "relative mt-4 rounded-xl border bg-card",
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
                  // Headings wrap between words, so a two-word heading never widens its column
                  // past its cells and pushes the last columns out of sight.
                  className={cn(
                    "px-3 py-2 font-medium",
                    pinned(column),
                    column.className,
                    column.headerClassName,
                  )}
                >
                  {column.hideLabel ? (
                    <span className="sr-only">{column.label}</span>
                  ) : sort !== undefined ? (
                    <SortHeader column={column} sort={sort} dir={dir} />
                  ) : (
                    column.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td
                  colSpan={columns.length}
                  className="px-3 py-6 text-center text-muted-foreground"
                >
                  {empty}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={rowKey(row)} className="border-b last:border-0">
                  {columns.map((column) => (
                    <td
                      key={column.key}
                      className={cn("px-3 py-2", pinned(column), column.className)}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </SidewaysScroll>
      <div className="mt-4">
        <Pagination page={page} pageCount={pageCount} />
      </div>
    </>
  );
}

/** The top of a back-office list: heading, a line of counts, and actions on the right. */
export function AdminListHeader({
  heading,
  summary,
  actions,
}: {
  heading: string;
  summary?: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-3xl font-bold">{heading}</h1>
        {summary ? <p className="mt-1 text-sm text-muted-foreground">{summary}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
