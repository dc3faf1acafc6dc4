import { redirect, useLocation } from "react-router";
import { CATALOGUE_FORMS, catalogueOfPath, TitleForm } from "#app/components/admin/title-form.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireActingStaff, requireStaff } from "#app/domain/accounts/session.server.ts";
import { saveAdultTitle, saveRegularTitle } from "#app/domain/catalog/title-forms.server.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.catalog.new";
import { errorsOf } from "#app/lib/answer.ts";

// One module for both catalogues' "add a title" pages: the address says which (app/routes.ts).

export const meta: Route.MetaFunction = ({ location }) => {
  const { name } = CATALOGUE_FORMS[catalogueOfPath(location.pathname)];
  return [
    ...pageMeta(`Add ${name} Title`, `Add a title to the ${name.toLowerCase()} catalogue.`),
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireActingStaff(request, "catalogue");
  const kind = catalogueOfPath(new URL(request.url).pathname);
  const save = kind === "adult" ? saveAdultTitle : saveRegularTitle;
  const result = await save(getDb(), await readFormWithFiles(request), { staff });
  if (!result.ok) {
    const { reason, message, errors, values } = result;
    return reply.refused(reason, message, { errors, values });
  }
  const { listPath } = CATALOGUE_FORMS[kind];
  throw redirect(`${listPath}?q=${result.serialNo}&saved=${result.serialNo}`);
}

export default function AddTitle({ actionData }: Route.ComponentProps) {
  const catalogue = CATALOGUE_FORMS[catalogueOfPath(useLocation().pathname)];
  return (
    <TitleForm
      heading={`Add ${catalogue.name} Title`}
      fields={catalogue.fields}
      values={actionData?.values ?? catalogue.newValues}
      errors={errorsOf(actionData)}
      message={actionData && !actionData.errors ? actionData.message : null}
      submitLabel="Add Title"
      cancelHref={catalogue.listPath}
    />
  );
}
