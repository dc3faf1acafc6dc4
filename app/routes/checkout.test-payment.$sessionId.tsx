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
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/checkout.test-payment.$sessionId";

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

export async function loader({ request, params }: Route.LoaderArgs) {
  const order = await pendingOrder(request, params.sessionId);
  return {
    orderId: order.id,
    totalCents: order.totalCents,
    status: order.status,
    cancelPath: orderCancelPath(order.id, authSecret(getEnv())),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const order = await pendingOrder(request, params.sessionId);
  const form = await readForm(request);
  const values = { cardNumber: form.cardNumber ?? "", expiry: form.expiry ?? "" };
  if (order.status !== "pending") {
    return reply.refused("conflict", "This payment session has ended.", { values });
  }
  const outcome = checkTestCard(values.cardNumber, values.expiry);
  if (!outcome.ok && outcome.field) {
    const errors = { [outcome.field]: outcome.message };
    return reply.refused("invalid", outcome.message, { errors, values });
  }
  if (!outcome.ok) return reply.refused("declined", outcome.message, { values });
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
  throw redirect(`/cart-success?order=${order.id}`);
}

export default function TestPayment({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <TestModeNote>Test mode — no card is charged</TestModeNote>
      <h1 className="mt-6 text-3xl font-bold">Pay for order #{loaderData.orderId}</h1>
      {loaderData.status !== "pending" ? (
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
        Cancel and return to the cart
      </Link>
    </div>
  );
}
