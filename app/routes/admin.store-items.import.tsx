import { CsvImportForm } from "#app/components/admin/csv-import-form.tsx";
import { STORE_ITEMS_PATH } from "#app/components/admin/store-items/store-item-form.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireActingStaff, requireStaff } from "#app/domain/accounts/session.server.ts";
import {
  importStoreItemsCsv,
  STORE_ITEM_CSV_COLUMNS,
} from "#app/domain/store-items/items-csv.server.ts";
import { answerCsvImport } from "#app/lib/csv.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.store-items.import";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Import Store Items", "Bring the store's items in from a CSV file."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  return { columns: STORE_ITEM_CSV_COLUMNS.join(", ") };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireActingStaff(request, "catalogue");
  return answerCsvImport(request, (file, { dryRun }) =>
    importStoreItemsCsv(getDb(), file, { dryRun, staff }),
  );
}

export default function ImportStoreItems({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1 className="text-3xl font-bold">Import store items</h1>
      <p className="mt-2 max-w-2xl text-sm text-muted-foreground">
        A CSV file with the columns {loaderData.columns}, as the export writes them. A row whose SKU
        is an item&apos;s updates that item; any other row adds one. A file without the Barcode
        column keeps the items&apos; barcodes. Check the file first: nothing is written until every
        row is right, and then everything is written at once.
      </p>
      <CsvImportForm listPath={STORE_ITEMS_PATH} listLabel="Back to the store items" />
    </>
  );
}
