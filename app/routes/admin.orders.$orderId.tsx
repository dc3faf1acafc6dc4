import { data, Link } from "react-router";
import { HistoryCard } from "#app/components/admin/history-card.tsx";
import { OrderActions, type OrderAnswer } from "#app/components/admin/orders/order-actions.tsx";
import { OrderFacts } from "#app/components/admin/orders/order-record.tsx";
import { PickupCard } from "#app/components/admin/orders/pickup-card.tsx";
import { staffOf } from "#app/domain/accounts/staff.ts";
import { SectionCard } from "#app/components/admin/section-card.tsx";
import { ExtraPaymentsCard } from "#app/components/admin/extra-payments-card.tsx";
import { FormMessage } from "#app/components/form-field.tsx";
import { OrderStatusBadge } from "#app/components/order-status-badge.tsx";
import { OrderSummary } from "#app/components/order-summary.tsx";
import { ReturnStatusBadge } from "#app/components/return-status-badge.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { can } from "#app/domain/accounts/permissions.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import { getOrderForAdmin } from "#app/domain/orders/admin-orders.server.ts";
import { markReadyForPickup } from "#app/domain/orders/pickups.server.ts";
import { shipmentSchema } from "#app/domain/orders/shipment-input.ts";
import {
  cancelOrder,
  completeOrder,
  refundOrder,
  shipOrder,
} from "#app/domain/orders/staff-actions.server.ts";
import {
  listExtraPayments,
  refundExtraPayment,
} from "#app/domain/payments/extra-payments.server.ts";
import { paymentProviderNamed } from "#app/domain/payments/providers.server.ts";
import { ledgersOf, returnsOfOrders } from "#app/domain/returns/returns.server.ts";
import {
  RETURN_STATUS_LABELS,
  returnLabel,
  type ReturnStatus,
} from "#app/domain/returns/status.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { positiveInt, privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { shippingOption } from "#app/lib/shipping.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.orders.$orderId";
import { usePageAnswer } from "#app/components/use-page-answer.ts";

export const meta: Route.MetaFunction = ({ params }) => [
  ...pageMeta(`Order #${params.orderId}`, "An order of the shop."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

function notFound(): never {
  throw data("There is no such order.", { status: 404 });
}

/** Who changed a status when no staff member did: the customer, the provider, or the shop. */
function automaticActor(to: OrderStatus, from: OrderStatus | null): string {
  if (to === "pending") return "Customer (checkout)";
  if (to === "paid") return "Payment provider";
  if (to === "expired") return "Shop (payment window closed)";
  if (to === "cancelled" && from === "pending") return "Customer or payment provider";
  return "Shop";
}

/** "paid → shipped", or for one of its returns "Return RMA-1001: Requested → Received". */
function eventChange(event: {
  fromStatus: string | null;
  toStatus: string;
  returnNumber: number | null;
}): string {
  if (event.returnNumber === null) {
    return event.fromStatus ? `${event.fromStatus} → ${event.toStatus}` : event.toStatus;
  }
  const label = (status: string) => RETURN_STATUS_LABELS[status as ReturnStatus] ?? status;
  const change = event.fromStatus
    ? `${label(event.fromStatus)} → ${label(event.toStatus)}`
    : label(event.toStatus);
  return `Return ${returnLabel(event.returnNumber)}: ${change}`;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireStaff(request, "orders.view");
  const orderId = positiveInt(params.orderId) ?? notFound();
  const found = (await getOrderForAdmin(getDb(), orderId)) ?? notFound();
  const timeZone = getEnv().SHOP_TIME_ZONE;
  const { order, customer, lines, history } = found;
  const when = (date: Date | null) => (date ? formatShopDateTime(date, timeZone) : null);
  const extraPayments = (await listExtraPayments(getDb(), order.id)).map((payment) => ({
    id: payment.id,
    amountCents: payment.amountCents,
    reason: payment.reason,
    received: when(new Date(payment.receivedAt))!,
    refunded: when(payment.refundedAt ? new Date(payment.refundedAt) : null),
    sessionId: payment.sessionId,
  }));
  return {
    // A clerk reads the order; shipping, cancelling and refunding it are an admin's.
    mayManage: can(user.role, "orders.manage"),
    mayMarkReady: can(user.role, "pickups"),
    extraPayments,
    order: {
      id: order.id,
      status: order.status,
      placed: when(order.createdAt)!,
      shipping: {
        name: order.shippingName,
        address: order.shippingAddress,
        city: order.shippingCity,
        state: order.shippingState,
        postalCode: order.shippingPostalCode,
        phone: order.shippingPhone,
        email: order.shippingEmail,
        method: shippingOption(order.shippingMethod).name,
      },
      subtotalCents: order.subtotalCents,
      shippingCents: order.shippingCents,
      taxCents: order.taxCents,
      totalCents: order.totalCents,
      paymentProvider: order.paymentProvider,
      paymentReference: order.paymentReference ?? order.paymentSessionId,
      paid: when(order.paidAt),
      shipped: when(order.shippedAt),
      carrier: order.carrier,
      trackingNumber: order.trackingNumber,
      refunded: when(order.refundedAt),
      refundReference: order.refundReference,
      pickup:
        order.fulfilment === "pickup"
          ? {
              ready: when(order.readyForPickupAt),
              code: order.pickupCode,
              collected: when(order.collectedAt),
              collectedByName: order.collectedByName,
            }
          : null,
      refundDue:
        (order.paidAt !== null &&
          order.refundedAt === null &&
          (order.status === "cancelled" || order.status === "expired")) ||
        extraPayments.some((payment) => !payment.refunded),
    },
    customer,
    lines: lines.map((line) => ({ ...line, key: `${line.productType}:${line.serialNo}` })),
    ledger: (await ledgersOf(getDb(), [order])).get(order.id)!,
    returns: ((await returnsOfOrders(getDb(), [order.id])).get(order.id) ?? []).map((entry) => ({
      number: entry.number,
      label: entry.label,
      status: entry.status,
      items: entry.lines.map((line) => `${line.quantity} × ${line.title}`).join(", "),
      refund: entry.refundCents === null ? null : formatUsd(entry.refundCents),
    })),
    history: history.map((event) => ({
      id: event.id,
      change: eventChange(event),
      by:
        event.actorName ??
        (event.returnNumber === null
          ? automaticActor(event.toStatus as OrderStatus, event.fromStatus as OrderStatus | null)
          : "Customer"),
      note: event.note,
      when: when(event.createdAt)!,
    })),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const form = await readForm(request);
  // A clerk makes a pickup order ready; everything else here is an admin's.
  const user = await requireStaffAction(
    request,
    form.intent === "ready-for-pickup" ? "pickups" : "orders.manage",
  );
  const orderId = positiveInt(params.orderId);
  if (!orderId) return reply.refused("not-found", "There is no such order.");
  const staff = staffOf(user);
  const common = {
    staff,
    ordersUrl: `${publicUrl()}/orders`,
    providers: paymentProviderNamed,
  };
  const db = getDb();
  switch (form.intent) {
    case "ship": {
      const parsed = shipmentSchema.safeParse(form);
      if (!parsed.success) {
        return reply.refused("invalid", "Please check the shipping details.", {
          errors: fieldErrors(parsed.error),
          values: { carrier: form.carrier ?? "", trackingNumber: form.trackingNumber ?? "" },
        });
      }
      return reply.result(await shipOrder(db, { orderId, ...parsed.data }, common));
    }
    case "complete":
      return reply.result(await completeOrder(db, { orderId }, { staff }));
    case "ready-for-pickup":
      return reply.result(await markReadyForPickup(db, { orderId }, common));
    case "cancel":
      return reply.result(await cancelOrder(db, { orderId }, common));
    case "refund":
      return reply.result(await refundOrder(db, { orderId }, common));
    case "refund-extra": {
      const extraPaymentId = positiveInt(form.extraPaymentId);
      if (!extraPaymentId) return reply.refused("invalid", "Unknown payment.");
      const refunded = await refundExtraPayment(db, {
        orderId,
        extraPaymentId,
        providerNamed: paymentProviderNamed,
      });
      return refunded.ok
        ? reply.ok("The payment taken twice was refunded.")
        : reply.refused("conflict", refunded.message);
    }
    default:
      return reply.unknownAction();
  }
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, customer, lines, history } = loaderData;
  const answer = usePageAnswer(actionData) as OrderAnswer | undefined;
  const customerName = [customer.firstName, customer.lastName].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-6">
      <div>
        <Link to="/admin/orders" className="text-sm text-primary underline">
          All orders
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-bold">Order #{order.id}</h1>
          <OrderStatusBadge status={order.status} />
          {order.refundDue ? <span className="text-sm font-medium">Refund due</span> : null}
        </div>
        <p className="mt-1 text-sm text-muted-foreground">Placed {order.placed}</p>
      </div>
      {answer && !answer.errors ? (
        <FormMessage tone={answer.ok ? "success" : "error"}>{answer.message}</FormMessage>
      ) : null}
      {loaderData.mayManage && loaderData.extraPayments.length > 0 ? (
        <ExtraPaymentsCard payments={loaderData.extraPayments} />
      ) : null}
      {loaderData.mayManage ? (
        <SectionCard title="Actions">
          <OrderActions order={order} answer={answer} />
        </SectionCard>
      ) : null}
      {order.pickup ? (
        <PickupCard
          status={order.status}
          pickup={order.pickup}
          mayMarkReady={loaderData.mayMarkReady}
        />
      ) : null}
      <OrderFacts
        order={order}
        customer={customer}
        customerName={customerName}
        ledger={loaderData.ledger}
      />
      <SectionCard title="Items">
        <OrderSummary
          items={lines}
          subtotalCents={order.subtotalCents}
          shippingCents={order.shippingCents}
          taxCents={order.taxCents}
          totalCents={order.totalCents}
        />
      </SectionCard>
      {loaderData.returns.length > 0 ? (
        <SectionCard title="Returns">
          <ul className="flex flex-col gap-2 text-sm">
            {loaderData.returns.map((entry) => (
              <li key={entry.number} className="flex flex-wrap items-center gap-2">
                <Link to={`/admin/returns/${entry.number}`} className="text-primary underline">
                  {entry.label}
                </Link>
                <ReturnStatusBadge status={entry.status} />
                <span>{entry.items}</span>
                {entry.refund ? <span>· refunded {entry.refund}</span> : null}
              </li>
            ))}
          </ul>
        </SectionCard>
      ) : null}
      <HistoryCard history={history} />
    </div>
  );
}
