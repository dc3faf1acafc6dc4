import { Link, useFetcher, useLocation } from "react-router";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { FileUp } from "#app/components/ui/icons.tsx";
import type { Answer } from "#app/lib/answer.ts";
import type { CsvImportReport } from "#app/lib/csv.server.ts";

/** The rejected rows a page lists; the count says how many there are in all. */
const SHOWN_REJECTIONS = 200;

/**
 * A back-office CSV import: the file checked first (a dry run), then imported once every row is
 * right, with the report of either. The page's action answers through `answerCsvImport`.
 */
export function CsvImportForm({ listPath, listLabel }: { listPath: string; listLabel: string }) {
  const fetcher = useFetcher<Answer & { report?: CsvImportReport }>();
  const location = useLocation();
  const busy = fetcher.state !== "idle";
  const answer = fetcher.data;
  const report = answer?.report;
  return (
    <>
      <fetcher.Form
        method="post"
        encType="multipart/form-data"
        action={location.pathname}
        className="mt-6 flex max-w-xl flex-col gap-4"
      >
        <FormField label="CSV file" name="file" type="file" accept=".csv,text/csv" required />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="dry-run" variant="outline" disabled={busy}>
            Check file (dry run)
          </Button>
          <Button
            type="submit"
            name="intent"
            value="import"
            disabled={busy || !report || report.dryRun === false || report.rejected.length > 0}
          >
            <FileUp aria-hidden="true" />
            Import
          </Button>
        </div>
      </fetcher.Form>
      <div className="mt-6 max-w-3xl" aria-live="polite">
        {busy ? <p>Reading the file…</p> : null}
        {!busy && answer && !report ? (
          <FormMessage tone="error">{answer.message}</FormMessage>
        ) : null}
        {!busy && report ? (
          <section aria-label="Import report" className="rounded-xl border bg-card p-4">
            <p className="font-semibold">{answer?.message}</p>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 text-sm">
              <dt>Rows</dt>
              <dd>{report.total}</dd>
              <dt>{report.written ? "Added" : "Would be added"}</dt>
              <dd>{report.added}</dd>
              <dt>{report.written ? "Updated" : "Would be updated"}</dt>
              <dd>{report.updated}</dd>
              <dt>Rejected</dt>
              <dd>{report.rejected.length}</dd>
            </dl>
            {report.rejected.length > 0 ? (
              <table className="mt-3 w-full text-sm">
                <caption className="sr-only">Rejected rows</caption>
                <thead>
                  <tr className="border-b text-left">
                    <th scope="col" className="py-1 pr-3">
                      Row
                    </th>
                    <th scope="col" className="py-1">
                      Reasons
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {report.rejected.slice(0, SHOWN_REJECTIONS).map((rejection) => (
                    <tr key={rejection.row} className="border-b last:border-0">
                      <td className="py-1 pr-3 align-top">{rejection.row}</td>
                      <td className="py-1">{rejection.reasons.join(" ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {report.written ? (
              <Link to={listPath} className="mt-3 inline-block font-medium text-primary underline">
                {listLabel}
              </Link>
            ) : null}
          </section>
        ) : null}
      </div>
    </>
  );
}
