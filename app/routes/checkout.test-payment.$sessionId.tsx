import { data, Form, Link, redirect, useNavigation } from "react-router";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { TestModeNote } from "#app/components/test-mode-note.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireUser } from "#app/domain/accounts/session.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { orderCancelPath } from "#app/domain/orders/cancel-link.server.ts";
import { getCustomerOrderBySession } from "#app/domain/orders/customer-orders.server.ts";
import { markOrderPaid } from "#app/domain/orders/fulfilment.server.ts";
import { checkTestCard } from "#app/domain/payments/test-provider.server.ts";
import {
  recordOnlineRepairPayment,
  repairCheckout,
  repairCheckoutPaid,
} from "#app/domain/repair-tickets/payments.server.ts";
import { repairDesk } from "#app/domain/repair-tickets/shop-context.server.ts";
import { ticketStatusPath } from "#app/domain/repair-tickets/status-link.server.ts";
import { ticketLabel } from "#app/domain/repair-tickets/status.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/checkout.test-payment.$sessionId";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Test payment | Reel & Repair" },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

/** The built-in test provider's card page: the signed-in owner of a pending order only. */
async function pendingOrder(request: Request, sessionId: string) {
  if (getEnv().APP_ENV === "production") throw data(null, { status: 404 });
  const user = await requireUser(request);
  const order = await getCustomerOrderBySession(getDb(), user.id, sessionId);
  if (!order || order.paymentExpiresAt === null) throw data(null, { status: 404 });
  if (order.status === "paid") throw redirect(`/cart-success?order=${order.id}`);
  return order;
}

/**
 * A repair's pay-link session (decision 023, point 8): anyone holding its unguessable id, as on
 * Stripe's page; null when the session is not a repair's. Paid already: back to the repair.
 */
async function repairSession(sessionId: string) {
  if (getEnv().APP_ENV === "production") throw data(null, { status: 404 });
  const checkout = await repairCheckout(getDb(), sessionId);
  if (!checkout) return null;
  const statusPath = ticketStatusPath(checkout.ticketNumber, repairDesk().secret);
  if (await repairCheckoutPaid(getDb(), sessionId)) throw redirect(`${statusPath}?paid=1`);
  return { ...checkout, statusPath, open: checkout.expiresAt > new Date() };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const repair = await repairSession(params.sessionId);
  if (repair) {
    return {
      heading: `Pay for repair ${ticketLabel(repair.ticketNumber)}`,
      totalCents: repair.amountCents,
      open: repair.open,
      cancelPath: repair.statusPath,
      cancelLabel: "Cancel and return to your repair",
    };
  }
  const order = await pendingOrder(request, params.sessionId);
  return {
    heading: `Pay for order #${order.id}`,
    totalCents: order.totalCents,
    open: order.status === "pending",
    cancelPath: orderCancelPath(order.id, authSecret(getEnv())),
    cancelLabel: "Cancel and return to the cart",
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const repair = await repairSession(params.sessionId);
  const order = repair ? null : await pendingOrder(request, params.sessionId);
  const form = await readForm(request);
  const values = { cardNumber: form.cardNumber ?? "", expiry: form.expiry ?? "" };
  if (repair ? !repair.open : order!.status !== "pending") {
    return reply.refused("conflict", "This payment session has ended.", { values });
  }
  const outcome = checkTestCard(values.cardNumber, values.expiry);
  if (!outcome.ok && outcome.field) {
    const errors = { [outcome.field]: outcome.message };
    return reply.refused("invalid", outcome.message, { errors, values });
  }
  if (!outcome.ok) return reply.refused("declined", outcome.message, { values });
  if (repair) {
    await recordOnlineRepairPayment(getDb(), {
      provider: "test",
      eventId: `test:${params.sessionId}`,
      sessionId: params.sessionId,
      paymentReference: `test_payment_${params.sessionId}`,
      amountCents: repair.amountCents,
    });
    throw redirect(`${repair.statusPath}?paid=1`);
  }
  await markOrderPaid(
    getDb(),
    {
      paymentSessionId: params.sessionId,
      provider: "test",
      eventId: `test:${params.sessionId}`,
      paymentReference: `test_payment_${params.sessionId}`,
    },
    { ordersUrl: `${publicUrl()}/orders` },
  );
  throw redirect(`/cart-success?order=${order!.id}`);
}

export default function TestPayment({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors: Record<string, string | undefined> = errorsOf(actionData);
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <TestModeNote>Test mode — no card is charged</TestModeNote>
      <h1 className="mt-6 text-3xl font-bold">{loaderData.heading}</h1>
      {!loaderData.open ? (
        <p className="mt-4">This payment session has ended.</p>
      ) : (
        <Form method="post" noValidate className="mt-6 flex flex-col gap-4">
          {actionData && !actionData.errors ? (
            <FormMessage tone="error">{actionData.message}</FormMessage>
          ) : null}
          <FormField
            label="Card number"
            name="cardNumber"
            inputMode="numeric"
            autoComplete="cc-number"
            maxLength={23}
            defaultValue={actionData?.values?.cardNumber}
            error={errors.cardNumber}
            hint="4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined."
          />
          <FormField
            label="Expiry (MM/YY)"
            name="expiry"
            autoComplete="cc-exp"
            maxLength={7}
            defaultValue={actionData?.values?.expiry}
            error={errors.expiry}
          />
          <Button type="submit" size="lg" disabled={navigation.state !== "idle"}>
            Pay {formatUsd(loaderData.totalCents)}
          </Button>
        </Form>
      )}
      <Link
        to={loaderData.cancelPath}
        className="mt-4 inline-block text-sm font-medium text-primary underline"
      >
        {loaderData.cancelLabel}
      </Link>
    </div>
  );
}
