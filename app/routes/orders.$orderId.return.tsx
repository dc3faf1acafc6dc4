import { data, Form, Link, redirect, useNavigation } from "react-router";
import { BackLink } from "#app/components/back-link.tsx";
import { FormMessage, SelectField, TextareaField } from "#app/components/form-field.tsx";
import { ReturnLinesField, ReturnMethodField } from "#app/components/return-request-fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireUser } from "#app/domain/accounts/session.server.ts";
import { lineField, readReturnRequestForm } from "#app/domain/returns/return-input.ts";
import {
  requestReturn,
  returnableOrder,
  returnsConfig,
} from "#app/domain/returns/returns.server.ts";
import { RETURN_REASONS } from "#app/domain/returns/status.ts";
import { publicUrl } from "#app/lib/env.server.ts";
import { positiveInt, privatePageHeaders } from "#app/lib/http.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopLongDate } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply, type Answer } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/orders.$orderId.return";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = ({ params }) => [
  ...pageMeta(`Return items of order #${params.orderId}`, "Send items back for a refund."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

async function load(userId: string, orderIdParam: string | undefined) {
  const orderId = positiveInt(orderIdParam);
  const config = returnsConfig();
  const found = orderId ? await returnableOrder(getDb(), userId, orderId, { config }) : null;
  if (!found) throw data("There is no such order.", { status: 404 });
  return { found, config };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { found, config } = await load(user.id, params.orderId);
  return {
    orderId: found.order.id,
    why: found.why,
    windowEndsAt: found.windowEndsAt
      ? formatShopLongDate(found.windowEndsAt, config.timeZone)
      : null,
    postageCents: found.postageOfferCents,
    lines: found.lines.map((line) => ({
      field: lineField(line.productType, line.serialNo),
      title: line.title,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      returnable: line.returnable,
    })),
  };
}

type ActionData = Answer;

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const orderId = positiveInt(params.orderId);
  if (!orderId) throw data("There is no such order.", { status: 404 });
  const form = await readForm(request);
  const values = Object.fromEntries(
    Object.entries(form).filter(
      ([name]) => /^quantity\./.test(name) || ["reason", "note", "method"].includes(name),
    ),
  );
  const parsed = readReturnRequestForm(form);
  if (!parsed.success) {
    const errors: NonNullable<Answer["errors"]> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] === "lines" ? "lines" : String(issue.path[0] ?? "form");
      errors[key] ??= issue.message;
    }
    return reply.refused("invalid", "Please check your return.", { errors, values });
  }
  const result = await requestReturn(
    getDb(),
    { ...parsed.data, userId: user.id, orderId },
    { config: returnsConfig(), ordersUrl: `${publicUrl()}/orders` },
  );
  if (!result.ok) {
    return reply.refused(
      result.reason,
      result.field ? "Please check your return." : result.message,
      { errors: result.field ? { [result.field]: result.message } : {}, values },
    );
  }
  throw redirect(`/orders?return=${result.number}#order-${orderId}`);
}

export default function ReturnItems({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionData | undefined;
  const values = answer?.values ?? {};
  const errors = errorsOf(answer);
  const busy = useNavigation().state === "submitting";
  const { orderId, why, lines } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <BackLink to="/orders">Back to Your Orders</BackLink>
      <h1 className="mt-2 text-3xl font-bold">Return items of order #{orderId}</h1>
      {why ? (
        <p className="mt-6" role="status">
          {why}{" "}
          <Link to="/returns" className="font-medium text-primary underline">
            Our returns policy
          </Link>
        </p>
      ) : (
        <>
          <p className="mt-2 text-muted-foreground">
            You can ask for a return until {loaderData.windowEndsAt}; we refund you to the card you
            paid with once the items are back with us.
          </p>
          {answer?.message ? (
            <div className="mt-4">
              <FormMessage tone="error">{answer.message}</FormMessage>
            </div>
          ) : null}
          <Form method="post" noValidate className="mt-6 flex flex-col gap-6">
            <ReturnLinesField lines={lines} values={values} errors={errors} />
            <SelectField
              label="Reason"
              name="reason"
              defaultValue={values.reason ?? ""}
              error={errors.reason}
              className="sm:max-w-sm"
              placeholder="Choose a reason"
              options={RETURN_REASONS}
            />
            <TextareaField
              label="Anything we should know? (optional)"
              name="note"
              rows={3}
              maxLength={1000}
              defaultValue={values.note ?? ""}
              error={errors.note}
            />
            <ReturnMethodField
              values={values}
              errors={errors}
              postageCents={loaderData.postageCents}
            />
            <div>
              <Button type="submit" disabled={busy}>
                Request return
              </Button>
            </div>
          </Form>
        </>
      )}
    </div>
  );
}
