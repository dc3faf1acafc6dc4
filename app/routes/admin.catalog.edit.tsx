import { data, redirect, useLocation } from "react-router";
import { StockHistory } from "#app/components/admin/stock-history.tsx";
import { CATALOGUE_FORMS, catalogueOfPath, TitleForm } from "#app/components/admin/title-form.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireActingStaff, requireStaff } from "#app/domain/accounts/session.server.ts";
import {
  getAdultTitleForEdit,
  getRegularTitleForEdit,
} from "#app/domain/catalog/admin-titles.server.ts";
import {
  adultFormValues,
  regularFormValues,
  saveAdultTitle,
  saveRegularTitle,
} from "#app/domain/catalog/title-forms.server.ts";
import { barcodeOf } from "#app/domain/stock/barcodes.server.ts";
import { stockLedger } from "#app/domain/stock/ledger.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import { posterSrc } from "#app/lib/posters.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.catalog.edit";
import { errorsOf } from "#app/lib/answer.ts";

// One module for both catalogues' edit pages: the address says which (app/routes.ts).

export const meta: Route.MetaFunction = ({ loaderData, location }) => [
  ...pageMeta(
    `Edit ${loaderData?.title ?? "title"}`,
    `Edit ${CATALOGUE_FORMS[catalogueOfPath(location.pathname)].described}.`,
  ),
  { name: "robots", content: "noindex" },
];

/** The catalogue and serial number the address names. */
function titleOf(request: Request, params: Route.LoaderArgs["params"]) {
  const kind = catalogueOfPath(new URL(request.url).pathname);
  const serialNo = positiveInt(
    "adultSerialNo" in params ? params.adultSerialNo : params.regSerialNo,
  );
  return { kind, serialNo };
}

/** How many of a title's latest stock changes its edit page shows. */
const STOCK_HISTORY_ROWS = 50;

async function findForEdit(kind: "regular" | "adult", serialNo: number) {
  if (kind === "adult") {
    const row = await getAdultTitleForEdit(getDb(), serialNo);
    return (
      row && {
        poster: posterSrc("adult", row.adultSerialNo, row.posterUrl),
        serialNo: row.adultSerialNo,
        title: row.title,
        values: {
          ...adultFormValues(row),
          barcode: await barcodeOf(getDb(), { type: "adult", id: row.adultSerialNo }),
        },
      }
    );
  }
  const row = await getRegularTitleForEdit(getDb(), serialNo);
  return (
    row && {
      poster: posterSrc("regular", row.regSerialNo, row.posterUrl),
      serialNo: row.regSerialNo,
      title: row.title,
      values: {
        ...regularFormValues(row),
        barcode: await barcodeOf(getDb(), { type: "regular", id: row.regSerialNo }),
      },
    }
  );
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
  const { kind, serialNo } = titleOf(request, params);
  const found = serialNo ? await findForEdit(kind, serialNo) : null;
  if (!found) throw data("This title does not exist.", { status: 404 });
  const moves = await stockLedger(getDb(), { type: kind, id: found.serialNo }, STOCK_HISTORY_ROWS);
  return { ...found, moves, timeZone: getEnv().SHOP_TIME_ZONE };
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireActingStaff(request, "catalogue");
  const { kind, serialNo } = titleOf(request, params);
  if (!serialNo) throw data("This title does not exist.", { status: 404 });
  const save = kind === "adult" ? saveAdultTitle : saveRegularTitle;
  const result = await save(getDb(), await readFormWithFiles(request), { serialNo, staff });
  if (!result.ok) {
    const { reason, message, errors, values } = result;
    return reply.refused(reason, message, { errors, values });
  }
  throw redirect(`${CATALOGUE_FORMS[kind].listPath}?q=${serialNo}&saved=${serialNo}`);
}

export default function EditTitle({ loaderData, actionData }: Route.ComponentProps) {
  const catalogue = CATALOGUE_FORMS[catalogueOfPath(useLocation().pathname)];
  return (
    <>
      <TitleForm
        heading={`Edit ${loaderData.title} (${catalogue.serialColumn} ${loaderData.serialNo})`}
        fields={catalogue.fields}
        values={actionData?.values ?? loaderData.values}
        errors={errorsOf(actionData)}
        message={actionData && !actionData.errors ? actionData.message : null}
        submitLabel="Save Changes"
        poster={{ src: loaderData.poster, alt: `Poster of ${loaderData.title}` }}
        cancelHref={catalogue.listPath}
      />
      <StockHistory moves={loaderData.moves} timeZone={loaderData.timeZone} />
    </>
  );
}
