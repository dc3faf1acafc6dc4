import { redirect } from "react-router";
import {
  NEW_STORE_ITEM,
  STORE_ITEMS_PATH,
  StoreItemForm,
} from "#app/components/admin/store-items/store-item-form.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireActingStaff, requireStaff } from "#app/domain/accounts/session.server.ts";
import { readStoreItemForm } from "#app/domain/store-items/item-input.ts";
import { addStoreItem } from "#app/domain/store-items/items.server.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.store-items.new";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Add Store Item", "Add one of the store's own goods, sold at the counter."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireActingStaff(request, "catalogue");
  const { fields, files } = await readFormWithFiles(request);
  const form = readStoreItemForm(fields);
  if (!form.ok) {
    const message = Object.values(form.errors)[0] ?? "Please check the form.";
    return reply.refused("invalid", message, { errors: form.errors, values: form.typed });
  }
  const saved = await addStoreItem(getDb(), form.values, staff, files.photo);
  if (!saved.ok) return reply.result(saved, { values: form.typed });
  throw redirect(`${STORE_ITEMS_PATH}?q=${encodeURIComponent(form.values.sku)}`);
}

export default function AddStoreItem({ actionData }: Route.ComponentProps) {
  return (
    <StoreItemForm
      heading="Add Store Item"
      values={actionData?.values ?? NEW_STORE_ITEM}
      errors={errorsOf(actionData)}
      message={actionData && !actionData.errors ? actionData.message : null}
      submitLabel="Add Item"
    />
  );
}
