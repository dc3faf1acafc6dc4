import { data, Link } from "react-router";
import {
  ReturnActions,
  type ReturnAnswer as ActionAnswer,
} from "#app/components/admin/returns/return-actions.tsx";
import { ReturnFacts, ReturnItems } from "#app/components/admin/returns/return-record.tsx";
import { BackLink } from "#app/components/back-link.tsx";
import { staffOf } from "#app/domain/accounts/staff.ts";
import { SectionCard } from "#app/components/admin/section-card.tsx";
import { FormMessage } from "#app/components/form-field.tsx";
import { ReturnStatusBadge } from "#app/components/return-status-badge.tsx";
import { OrderLedgerList } from "#app/components/order-ledger.tsx";
import { HistoryCard } from "#app/components/admin/history-card.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { refundCeiling } from "#app/domain/accounts/permissions.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import { paymentProviderNamed } from "#app/domain/payments/providers.server.ts";
import { conditionField, readReceiveForm, rejectSchema } from "#app/domain/returns/return-input.ts";
import {
  getReturnForAdmin,
  receiveReturn,
  refundReturn,
  rejectReturn,
  returnsConfig,
} from "#app/domain/returns/returns.server.ts";
import {
  parseReturnLabel,
  RETURN_METHOD_LABELS,
  RETURN_STATUS_LABELS,
  returnLabel,
  type ReturnStatus,
} from "#app/domain/returns/status.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.returns.$number";
import { usePageAnswer } from "#app/components/use-page-answer.ts";

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
  await requireStaff(request, "returns");
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

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireStaffAction(request, "returns");
  const number = parseReturnLabel(params.number ?? "");
  if (!number) return reply.refused("not-found", "There is no such return.");
  const form = await readForm(request);
  const staff = staffOf(user);
  const ordersUrl = `${publicUrl()}/orders`;
  const db = getDb();
  switch (form.intent) {
    case "receive": {
      const found = await getReturnForAdmin(db, number, returnsConfig());
      if (!found) return reply.refused("not-found", "There is no such return.");
      const { conditions, errors } = readReceiveForm(form, found.items);
      if (Object.keys(errors).length > 0) {
        return reply.refused("invalid", "Please say how each item came back.", {
          errors,
          values: form,
        });
      }
      return reply.result(await receiveReturn(db, { number, conditions }, { staff }));
    }
    case "refund":
      return reply.result(
        await refundReturn(
          db,
          { number },
          {
            staff,
            ordersUrl,
            providers: paymentProviderNamed,
            config: returnsConfig(),
            limitCents: refundCeiling(user.role, getEnv().COUNTER_REFUND_LIMIT_CENTS),
          },
        ),
      );
    case "reject": {
      const parsed = rejectSchema.safeParse(form);
      if (!parsed.success) {
        return reply.refused("invalid", "Please check the rejection.", {
          errors: fieldErrors(parsed.error),
          values: form,
        });
      }
      return reply.result(
        await rejectReturn(db, { number, reason: parsed.data.reason }, { staff, ordersUrl }),
      );
    }
    default:
      return reply.unknownAction();
  }
}

export default function AdminReturn({ loaderData, actionData }: Route.ComponentProps) {
  const { ret, order, items, refund, history } = loaderData;
  const answer = usePageAnswer(actionData) as ActionAnswer | undefined;
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
        <ReturnActions ret={ret} items={items} refundCents={refund.totalCents} answer={answer} />
      </SectionCard>
      <ReturnFacts
        ret={ret}
        order={order}
        refund={refund}
        postagePromisedCents={loaderData.postagePromisedCents}
      />
      <SectionCard title={`Money of order #${order.id}`}>
        <OrderLedgerList ledger={loaderData.ledger} />
      </SectionCard>
      <ReturnItems items={items} />
      <HistoryCard history={history} />
    </div>
  );
}
