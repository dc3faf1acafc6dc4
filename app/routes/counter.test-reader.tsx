import { data, Form, useNavigation } from "react-router";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { TestModeNote } from "#app/components/test-mode-note.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import { cardOutcome, testReaderCharge } from "#app/domain/counter/card-payments.server.ts";
import { presentTestCard } from "#app/domain/payments/card-reader.server.ts";
import { counterCardReader } from "#app/domain/payments/providers.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/counter.test-reader";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Test card reader | Reel & Repair" },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

/** The test card reader stands in for the counter's reader outside production only. */
function testReaderOnly() {
  if (counterCardReader()?.name !== "test") throw data(null, { status: 404 });
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "counter");
  testReaderOnly();
  const charge = await testReaderCharge(getDb());
  return { charge: charge && { number: charge.number, amountCents: charge.amountCents } };
}

/**
 * A card presented to the test reader: 4242… pays, 4000…0002 is declined. Either way the outcome
 * goes through `cardOutcome`, as Stripe's webhook does for the real reader.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireStaffAction(request, "counter");
  testReaderOnly();
  const form = await readForm(request);
  const values = { cardNumber: form.cardNumber ?? "" };
  const db = getDb();
  const charge = await testReaderCharge(db);
  if (!charge) return reply.refused("conflict", "The reader has nothing to charge.", { values });
  const presented = presentTestCard(values.cardNumber);
  if (!presented.ok && presented.field) {
    const errors = { [presented.field]: presented.message };
    return reply.refused("invalid", presented.message, { errors, values });
  }
  const base = { saleId: charge.saleId, attempt: charge.attempt, reference: charge.reference };
  await cardOutcome(
    db,
    presented.ok
      ? { ...base, paid: true, amountCents: charge.amountCents }
      : { ...base, paid: false, message: presented.message },
  );
  return presented.ok
    ? reply.ok(`Approved: ${formatUsd(charge.amountCents)} for sale ${charge.number}.`)
    : reply.refused("declined", presented.message);
}

export default function TestReader({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors: Record<string, string | undefined> = errorsOf(actionData);
  const { charge } = loaderData;
  return (
    <div className="flex max-w-md flex-col gap-4">
      <TestModeNote>
        Test mode — this page stands in for the card reader; no card is charged
      </TestModeNote>
      <h1 className="text-3xl font-bold">Test card reader</h1>
      {actionData && !actionData.errors ? (
        <FormMessage tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormMessage>
      ) : null}
      {charge ? (
        <Form method="post" noValidate className="flex flex-col gap-4">
          <p className="text-lg">
            Charge <strong>{formatUsd(charge.amountCents)}</strong> for sale {charge.number}
          </p>
          <FormField
            label="Card number"
            name="cardNumber"
            inputMode="numeric"
            autoComplete="off"
            maxLength={23}
            defaultValue={actionData?.values?.cardNumber}
            error={errors.cardNumber}
            hint="4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined."
          />
          <Button type="submit" size="lg" disabled={navigation.state !== "idle"}>
            Present the card
          </Button>
        </Form>
      ) : (
        <p>The reader is idle: no sale is waiting for a card.</p>
      )}
    </div>
  );
}
