import { data, redirect } from "react-router";
import { StockHistory } from "#app/components/admin/stock-history.tsx";
import {
  STORE_ITEMS_PATH,
  StoreItemForm,
} from "#app/components/admin/store-items/store-item-form.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireActingStaff, requireStaff } from "#app/domain/accounts/session.server.ts";
import { stockLedger } from "#app/domain/stock/ledger.server.ts";
import { readStoreItemForm } from "#app/domain/store-items/item-input.ts";
import { getStoreItem, updateStoreItem } from "#app/domain/store-items/items.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import { formatPriceInput } from "#app/lib/money.ts";
import { uploadedPosterSrc } from "#app/lib/uploaded-posters.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.store-items.$id.edit";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(`Edit ${loaderData?.item.name ?? "store item"}`, "Edit one of the store's goods."),
  { name: "robots", content: "noindex" },
];

/** How many of an item's latest stock changes its page shows. */
const STOCK_HISTORY_ROWS = 50;

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  const id = positiveInt(params.id);
  const item = id ? await getStoreItem(getDb(), id) : undefined;
  if (!item || item.archived) throw data("This item does not exist.", { status: 404 });
  const moves = await stockLedger(getDb(), { type: "item", id: item.id }, STOCK_HISTORY_ROWS);
  const values = {
    sku: item.sku,
    name: item.name,
    priceCents: formatPriceInput(item.priceCents),
    stock: String(item.stock),
    taxable: item.taxable ? "on" : "",
    barcode: item.barcode ?? "",
  };
  const photo = uploadedPosterSrc(item.photoUrl);
  return {
    item,
    values,
    moves,
    timeZone: getEnv().SHOP_TIME_ZONE,
    photo: photo ? { src: photo, alt: `Photo of ${item.name}` } : undefined,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireActingStaff(request, "catalogue");
  const id = positiveInt(params.id);
  if (!id) throw data("This item does not exist.", { status: 404 });
  const { fields, files } = await readFormWithFiles(request);
  const form = readStoreItemForm(fields);
  if (!form.ok) {
    const message = Object.values(form.errors)[0] ?? "Please check the form.";
    return reply.refused("invalid", message, { errors: form.errors, values: form.typed });
  }
  const saved = await updateStoreItem(getDb(), id, form.values, staff, files.photo);
  if (!saved.ok) return reply.result(saved, { values: form.typed });
  throw redirect(`${STORE_ITEMS_PATH}?q=${encodeURIComponent(form.values.sku)}`);
}

export default function EditStoreItem({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <StoreItemForm
        heading={`Edit ${loaderData.item.name}`}
        values={actionData?.values ?? loaderData.values}
        errors={errorsOf(actionData)}
        message={actionData && !actionData.errors ? actionData.message : null}
        submitLabel="Save Changes"
        photo={loaderData.photo}
      />
      <StockHistory moves={loaderData.moves} timeZone={loaderData.timeZone} />
    </>
  );
}
