import { data, redirect } from "react-router";
import { REGULAR_FIELDS, TitleForm } from "#app/components/admin/title-form.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireAdmin, requireAdminAction } from "#app/domain/accounts/session.server.ts";
import { saveRegularTitle } from "#app/domain/catalog/title-forms.server.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.items.new";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Add Regular Title", "Add a title to the regular catalogue."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminAction(request);
  const result = await saveRegularTitle(getDb(), await readFormWithFiles(request));
  if (!result.ok) return data(result, { status: 400 });
  throw redirect(`/admin/items?q=${result.serialNo}&saved=${result.serialNo}`);
}

export default function AddRegularTitle({ actionData }: Route.ComponentProps) {
  return (
    <TitleForm
      heading="Add Regular Title"
      fields={REGULAR_FIELDS}
      values={actionData?.values ?? { qtyToList: "1" }}
      errors={actionData?.errors ?? {}}
      message={actionData?.message ?? null}
      submitLabel="Add Title"
      cancelHref="/admin/items"
    />
  );
}
