import { data, redirect } from "react-router";
import { ADULT_FIELDS, TitleForm } from "#app/components/admin/title-form.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireAdmin, requireAdminAction } from "#app/domain/accounts/session.server.ts";
import { saveAdultTitle } from "#app/domain/catalog/title-forms.server.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.adult.items.new";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Add Adult Title", "Add a title to the adult catalogue."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminAction(request);
  const result = await saveAdultTitle(getDb(), await readFormWithFiles(request));
  if (!result.ok) return data(result, { status: 400 });
  throw redirect(`/admin/adult/items?q=${result.serialNo}&saved=${result.serialNo}`);
}

export default function AddAdultTitle({ actionData }: Route.ComponentProps) {
  return (
    <TitleForm
      heading="Add Adult Title"
      fields={ADULT_FIELDS}
      values={actionData?.values ?? { quantity: "1" }}
      errors={actionData?.errors ?? {}}
      message={actionData?.message ?? null}
      submitLabel="Add Title"
      cancelHref="/admin/adult/items"
    />
  );
}
