import { useNavigation } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { Pagination } from "../pagination.tsx";

export type DataColumn<Row> = {
  key: string;
  label: string;
  className?: string;
  cell: (row: Row) => React.ReactNode;
};

/**
 * A back-office list that is not a catalogue (orders, customers, the inbox): a captioned table
 * that scrolls sideways on phones, an empty text, and pages. Rows link out from their cells.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  page,
  pageCount,
}: {
  caption: string;
  columns: DataColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  empty: string;
  page: number;
  pageCount: number;
}) {
  const navigation = useNavigation();
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
                  className={cn("px-3 py-2 font-medium whitespace-nowrap", column.className)}
                >
                  {column.label}
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
                    <td key={column.key} className={cn("px-3 py-2", column.className)}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
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
