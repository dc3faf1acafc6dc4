import { data, Form, Link, useNavigation } from "react-router";
import { BackLink } from "#app/components/back-link.tsx";
import { SectionCard } from "#app/components/admin/section-card.tsx";
import { FormMessage, SelectField, TextareaField } from "#app/components/form-field.tsx";
import { ReturnStatusBadge } from "#app/components/return-status-badge.tsx";
import { OrderLedgerList } from "#app/components/order-ledger.tsx";
import { HistoryCard } from "#app/components/admin/history-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireAdmin, requireAdminAction } from "#app/domain/accounts/session.server.ts";
import { paymentProviderNamed } from "#app/domain/payments/providers.server.ts";
import { conditionField, readReceiveForm, rejectSchema } from "#app/domain/returns/return-input.ts";
import {
  getReturnForAdmin,
  receiveReturn,
  refundReturn,
  rejectReturn,
  returnsConfig,
  type ReturnResult,
} from "#app/domain/returns/returns.server.ts";
import {
  LINE_CONDITION_LABELS,
  LINE_CONDITIONS,
  parseReturnLabel,
  RETURN_METHOD_LABELS,
  RETURN_STATUS_LABELS,
  returnLabel,
  type ReturnStatus,
} from "#app/domain/returns/status.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.returns.$number";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  // The label the loader read from the address, which may be written "RMA-1042" or "1042".
  ...pageMeta(`Return ${loaderData?.ret.label ?? ""}`.trim(), "A customer's return."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

function notFound(): never {
  throw data("There is no such return.", { status: 404 });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const number = parseReturnLabel(params.number) ?? notFound();
  const found = (await getReturnForAdmin(getDb(), number, returnsConfig())) ?? notFound();
  const { row, order, items, refund, history, ledger } = found;
  const timeZone = getEnv().SHOP_TIME_ZONE;
  const when = (date: Date | null) => (date ? formatShopDateTime(date, timeZone) : null);
  return {
    ret: {
      number,
      label: returnLabel(number),
      status: row.status,
      reason: row.reason,
      note: row.note,
      method: RETURN_METHOD_LABELS[row.method],
      requested: when(row.createdAt)!,
      received: when(row.receivedAt),
      refunded: when(row.refundedAt),
      rejected: when(row.rejectedAt),
      rejectionReason: row.rejectionReason,
      refundReference: row.refundReference,
      refundError: row.status === "received" ? row.refundError : null,
    },
    order: {
      id: order.id,
      name: order.shippingName,
      email: order.shippingEmail,
      paymentProvider: order.paymentProvider,
      shipped: when(order.shippedAt),
    },
    items: items.map((item) => ({
      field: conditionField(item.productType, item.serialNo),
      title: item.title,
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
      condition: item.condition,
    })),
    refund,
    postagePromisedCents: row.method === "mail" ? row.postagePromisedCents : null,
    ledger,
    history: history.map((event) => ({
      id: event.id,
      change: event.fromStatus
        ? `${RETURN_STATUS_LABELS[event.fromStatus as ReturnStatus]} → ${RETURN_STATUS_LABELS[event.toStatus as ReturnStatus]}`
        : RETURN_STATUS_LABELS[event.toStatus as ReturnStatus],
      by: event.actorName ?? "The customer",
      note: event.note,
      when: when(event.createdAt)!,
    })),
  };
}

type ActionAnswer = {
  ok: boolean;
  message: string;
  errors?: Record<string, string | undefined>;
  values?: Record<string, string>;
};

const STATUS_CODE = {
  "not-found": 404,
  conflict: 409,
  invalid: 400,
  "refund-failed": 502,
} as const;

function answer(result: ReturnResult) {
  return result.ok
    ? { ok: true, message: result.message }
    : data<ActionAnswer>(
        { ok: false, message: result.message },
        { status: STATUS_CODE[result.reason] },
      );
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireAdminAction(request);
  const number = parseReturnLabel(params.number ?? "");
  if (!number) return data({ ok: false, message: "There is no such return." }, { status: 404 });
  const form = await readForm(request);
  const staff = { id: user.id, name: user.displayName };
  const ordersUrl = `${publicUrl()}/orders`;
  const db = getDb();
  switch (form.intent) {
    case "receive": {
      const found = await getReturnForAdmin(db, number, returnsConfig());
      if (!found) return data({ ok: false, message: "There is no such return." }, { status: 404 });
      const { conditions, errors } = readReceiveForm(form, found.items);
      if (Object.keys(errors).length > 0) {
        return data<ActionAnswer>(
          { ok: false, message: "Please say how each item came back.", errors, values: form },
          { status: 400 },
        );
      }
      return answer(await receiveReturn(db, { number, conditions }, { staff }));
    }
    case "refund":
      return answer(
        await refundReturn(
          db,
          { number },
          { staff, ordersUrl, providers: paymentProviderNamed, config: returnsConfig() },
        ),
      );
    case "reject": {
      const parsed = rejectSchema.safeParse(form);
      if (!parsed.success) {
        return data<ActionAnswer>(
          {
            ok: false,
            message: "Please check the rejection.",
            errors: fieldErrors(parsed.error),
            values: form,
          },
          { status: 400 },
        );
      }
      return answer(
        await rejectReturn(db, { number, reason: parsed.data.reason }, { staff, ordersUrl }),
      );
    }
    default:
      return data({ ok: false, message: "Unknown action." }, { status: 400 });
  }
}

type LoaderData = Route.ComponentProps["loaderData"];

function ReceiveForm({ items, answer }: { items: LoaderData["items"]; answer?: ActionAnswer }) {
  const busy = useNavigation().formData?.get("intent") === "receive";
  return (
    <Form method="post" noValidate className="flex flex-col gap-4">
      <input type="hidden" name="intent" value="receive" />
      <p className="text-sm">
        The parcel is here: say of each item whether it goes back on sale. Stock comes back with the
        refund.
      </p>
      {items.map((item) => (
        <SelectField
          key={item.field}
          label={`${item.quantity} × ${item.title}`}
          name={item.field}
          defaultValue={answer?.values?.[item.field] ?? ""}
          error={answer?.errors?.[item.field]}
          className="sm:max-w-md"
          placeholder="Choose its condition"
          options={LINE_CONDITIONS.map((condition) => ({
            value: condition,
            label: LINE_CONDITION_LABELS[condition],
          }))}
        />
      ))}
      <div>
        <Button type="submit" disabled={busy}>
          Mark as received
        </Button>
      </div>
    </Form>
  );
}

function RejectForm({ answer }: { answer?: ActionAnswer }) {
  const busy = useNavigation().formData?.get("intent") === "reject";
  return (
    <Form method="post" noValidate className="flex flex-col gap-3 border-t pt-4">
      <input type="hidden" name="intent" value="reject" />
      <TextareaField
        label="Reason for rejecting (the customer is told)"
        name="reason"
        rows={2}
        maxLength={500}
        defaultValue={answer?.values?.reason ?? ""}
        error={answer?.errors?.reason}
      />
      <div>
        <Button type="submit" variant="destructive" disabled={busy}>
          Reject return
        </Button>
      </div>
    </Form>
  );
}

function RefundForm({ total }: { total: string }) {
  const busy = useNavigation().formData?.get("intent") === "refund";
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="refund" />
      <Button type="submit" disabled={busy}>
        Refund {total}
      </Button>
    </Form>
  );
}

function Actions({ loaderData, answer }: { loaderData: LoaderData; answer?: ActionAnswer }) {
  const { ret, items, refund } = loaderData;
  if (ret.status === "requested") {
    return (
      <div className="flex flex-col gap-4">
        <ReceiveForm items={items} answer={answer} />
        <RejectForm answer={answer} />
      </div>
    );
  }
  if (ret.status === "received") {
    return (
      <div className="flex flex-col gap-4">
        {ret.refundError ? (
          <FormMessage tone="error">
            The last refund did not go through ({ret.refundError}). Try the refund again.
          </FormMessage>
        ) : null}
        <p className="text-sm">
          Refunding gives the customer {formatUsd(refund.totalCents)} back to their card, puts the
          items marked back to stock on sale and e-mails the customer.
        </p>
        <div>
          <RefundForm total={formatUsd(refund.totalCents)} />
        </div>
        <RejectForm answer={answer} />
      </div>
    );
  }
  return <p className="text-sm text-muted-foreground">Nothing left to do for this return.</p>;
}

export default function AdminReturn({ loaderData, actionData }: Route.ComponentProps) {
  const { ret, order, items, refund, history } = loaderData;
  const answer = actionData as ActionAnswer | undefined;
  const money = (cents: number | null) => formatUsd(cents ?? 0);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <BackLink to="/admin/returns">Back to Returns</BackLink>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-bold">Return {ret.label}</h1>
          <ReturnStatusBadge status={ret.status} />
        </div>
        <p className="mt-1 text-sm text-muted-foreground">
          Requested {ret.requested} for{" "}
          <Link to={`/admin/orders/${order.id}`} className="text-primary underline">
            order #{order.id}
          </Link>
        </p>
      </div>
      {answer && !answer.errors ? (
        <FormMessage tone={answer.ok ? "success" : "error"}>{answer.message}</FormMessage>
      ) : null}
      <SectionCard title="Actions">
        <Actions loaderData={loaderData} answer={answer} />
      </SectionCard>
      <div className="grid gap-6 md:grid-cols-2">
        <SectionCard title="The return">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Customer</dt>
            <dd>
              {order.name} ({order.email})
            </dd>
            <dt className="text-muted-foreground">Reason</dt>
            <dd>{ret.reason}</dd>
            {ret.note ? (
              <>
                <dt className="text-muted-foreground">Note</dt>
                <dd className="whitespace-pre-line">{ret.note}</dd>
              </>
            ) : null}
            <dt className="text-muted-foreground">Coming back</dt>
            <dd>{ret.method}</dd>
            <dt className="text-muted-foreground">Shipped</dt>
            <dd>{order.shipped ?? "—"}</dd>
            {ret.received ? (
              <>
                <dt className="text-muted-foreground">Received</dt>
                <dd>{ret.received}</dd>
              </>
            ) : null}
            {ret.rejected ? (
              <>
                <dt className="text-muted-foreground">Rejected</dt>
                <dd>
                  {ret.rejected}: {ret.rejectionReason}
                </dd>
              </>
            ) : null}
          </dl>
        </SectionCard>
        <SectionCard title={ret.refunded ? "Refunded" : "Refund"}>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Items</dt>
            <dd>{money(refund.goodsCents)}</dd>
            <dt className="text-muted-foreground">Shipping</dt>
            <dd>{money(refund.shippingCents)}</dd>
            <dt className="text-muted-foreground">Sales tax</dt>
            <dd>{money(refund.taxCents)}</dd>
            <dt className="text-muted-foreground">Toward postage</dt>
            <dd>
              {money(refund.postageCents)}
              {loaderData.postagePromisedCents !== null
                ? ` (promised ${money(loaderData.postagePromisedCents)} when asked for)`
                : ""}
            </dd>
            <dt className="font-semibold">Total</dt>
            <dd className="font-semibold">{money(refund.totalCents)}</dd>
            {ret.refunded ? (
              <>
                <dt className="text-muted-foreground">When</dt>
                <dd>
                  {ret.refunded}
                  <span className="block break-all">{ret.refundReference}</span>
                </dd>
              </>
            ) : (
              <>
                <dt className="text-muted-foreground">Through</dt>
                <dd>{order.paymentProvider ?? "—"}</dd>
              </>
            )}
          </dl>
        </SectionCard>
      </div>
      <SectionCard title={`Money of order #${order.id}`}>
        <OrderLedgerList ledger={loaderData.ledger} />
      </SectionCard>
      <SectionCard title="Items">
        <ul className="flex flex-col gap-2 text-sm">
          {items.map((item) => (
            <li key={item.field} className="flex flex-wrap justify-between gap-2">
              <span>
                {item.quantity} × {item.title} at {formatUsd(item.unitPriceCents)}
              </span>
              <span className="text-muted-foreground">
                {item.condition ? LINE_CONDITION_LABELS[item.condition] : "Not received yet"}
              </span>
            </li>
          ))}
        </ul>
      </SectionCard>
      <HistoryCard history={history} />
    </div>
  );
}
