import { FileUp } from "#app/components/ui/icons.tsx";
import { Link, useFetcher, useLocation } from "react-router";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import {
  CatalogCsvError,
  importCatalogCsv,
  type CatalogImportReport,
  type CatalogKind,
} from "#app/domain/catalog/catalog-csv.server.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.catalog.import";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Import CSV", "Bring titles into the catalogue from a CSV file."),
  { name: "robots", content: "noindex" },
];

function kindOf(request: Request): CatalogKind {
  return new URL(request.url).pathname.includes("/adult/") ? "adult" : "regular";
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  return { kind: kindOf(request) };
}

/** What the report says in one sentence. */
function summary(report: CatalogImportReport): string {
  if (report.written) return `Imported: ${report.added} added, ${report.updated} updated.`;
  if (report.rejected.length > 0) {
    return `Nothing was written: ${report.rejected.length} of ${report.total} rows need fixing.`;
  }
  return `Dry run: ${report.added} would be added, ${report.updated} updated, 0 rejected.`;
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaffAction(request, "catalogue");
  const { fields, files } = await readFormWithFiles(request);
  const file = files.file;
  if (!file) return reply.refused("invalid", "Choose a CSV file.");
  try {
    const report = await importCatalogCsv(getDb(), kindOf(request), file.stream(), {
      dryRun: fields.intent !== "import",
    });
    // Rows that need fixing refuse the whole file: nothing is written until every row is right.
    return report.rejected.length
      ? reply.refused("invalid", summary(report), { report })
      : reply.ok(summary(report), { report });
  } catch (error) {
    if (!(error instanceof CatalogCsvError)) throw error;
    return reply.refused("invalid", error.message);
  }
}

export default function ImportCatalog({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof action>();
  const location = useLocation();
  const busy = fetcher.state !== "idle";
  const answer = fetcher.data;
  const report = answer && "report" in answer ? answer.report : undefined;
  const listPath = loaderData.kind === "adult" ? "/admin/adult/items" : "/admin/items";
  const columns =
    loaderData.kind === "adult"
      ? "AdultSerialNo, ProductID, Condition, Price, Quantity, Title, Production, Release Date, PosterURL, Description"
      : "RegSerialNo, ProductID, QtyToList, Title, Release Year, Disc, Type, CurrentPrice, Description, Genres, Director, Cast, PosterURL";
  return (
    <>
      <h1 className="text-3xl font-bold">
        Import {loaderData.kind === "adult" ? "adult" : "regular"} titles
      </h1>
      <p className="mt-2 max-w-2xl text-sm text-muted-foreground">
        A CSV file with the columns {columns}. Rows with a serial that exists update that title;
        rows without one are added. Check the file first: nothing is written until every row is
        right, and then everything is written at once.
      </p>
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
                  {report.rejected.slice(0, 200).map((rejection) => (
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
                Back to the titles
              </Link>
            ) : null}
          </section>
        ) : null}
      </div>
    </>
  );
}
