import { data, redirect } from "react-router";
import { ADULT_FIELDS, TitleForm } from "#app/components/admin/title-form.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireAdmin, requireAdminAction } from "#app/domain/accounts/session.server.ts";
import { getAdultTitleForEdit } from "#app/domain/catalog/admin-titles.server.ts";
import { adultFormValues, saveAdultTitle } from "#app/domain/catalog/title-forms.server.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import { posterSrc } from "#app/lib/posters.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.adult.items.$adultSerialNo.edit";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(`Edit ${loaderData?.title ?? "title"}`, "Edit an adult title."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const serialNo = positiveInt(params.adultSerialNo);
  const row = serialNo ? await getAdultTitleForEdit(getDb(), serialNo) : null;
  if (!row) throw data("This title does not exist.", { status: 404 });
  return {
    poster: posterSrc("adult", row.adultSerialNo, row.posterUrl),
    serialNo: row.adultSerialNo,
    title: row.title,
    values: adultFormValues(row),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdminAction(request);
  const serialNo = positiveInt(params.adultSerialNo);
  if (!serialNo) throw data("This title does not exist.", { status: 404 });
  const result = await saveAdultTitle(getDb(), await readFormWithFiles(request), serialNo);
  if (!result.ok) return data(result, { status: 400 });
  throw redirect(`/admin/adult/items?q=${serialNo}&saved=${serialNo}`);
}

export default function EditAdultTitle({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <TitleForm
      heading={`Edit ${loaderData.title} (AdultSerialNo ${loaderData.serialNo})`}
      fields={ADULT_FIELDS}
      values={actionData?.values ?? loaderData.values}
      errors={actionData?.errors ?? {}}
      message={actionData?.message ?? null}
      submitLabel="Save Changes"
      poster={{ src: loaderData.poster, alt: `Poster of ${loaderData.title}` }}
      cancelHref="/admin/adult/items"
    />
  );
}
