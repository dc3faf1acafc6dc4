import { CsvImportForm } from "#app/components/admin/csv-import-form.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireActingStaff, requireStaff } from "#app/domain/accounts/session.server.ts";
import {
  catalogCsvColumns,
  importCatalogCsv,
  type CatalogKind,
} from "#app/domain/catalog/catalog-csv.server.ts";
import { answerCsvImport } from "#app/lib/csv.server.ts";
import { pageMeta } from "#app/lib/site.ts";
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
  const kind = kindOf(request);
  return { kind, columns: catalogCsvColumns(kind).join(", ") };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireActingStaff(request, "catalogue");
  return answerCsvImport(request, (file, { dryRun }) =>
    importCatalogCsv(getDb(), kindOf(request), file, { dryRun, staff }),
  );
}

export default function ImportCatalog({ loaderData }: Route.ComponentProps) {
  const adult = loaderData.kind === "adult";
  return (
    <>
      <h1 className="text-3xl font-bold">Import {adult ? "adult" : "regular"} titles</h1>
      <p className="mt-2 max-w-2xl text-sm text-muted-foreground">
        A CSV file with the columns {loaderData.columns}. Rows with a serial that exists update that
        title; rows without one are added. Check the file first: nothing is written until every row
        is right, and then everything is written at once.
      </p>
      <CsvImportForm
        listPath={adult ? "/admin/adult/items" : "/admin/items"}
        listLabel="Back to the titles"
      />
    </>
  );
}
