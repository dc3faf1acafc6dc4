import { Form, Link } from "react-router";
import { IdCheckField } from "#app/components/counter/id-check-field.tsx";
import { PickupSearchForm, type TypedSearch } from "#app/components/counter/pickup-search-form.tsx";
import { FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import { staffOf } from "#app/domain/accounts/staff.ts";
import { counterConfig } from "#app/domain/counter/counter-config.server.ts";
import {
  collectPickupSchema,
  pickupCodeSearchSchema,
  pickupNameSearchSchema,
  readCounterForm,
} from "#app/domain/counter/counter-input.ts";
import {
  collectionRefusal,
  collectPickup,
  findPickup,
  type PickupSearch,
} from "#app/domain/counter/pickup-collection.server.ts";
import type { Answer } from "#app/lib/answer.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { reply } from "#app/lib/reply.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/counter.pickups";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Pickups", "Web orders collected at the counter."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

/** What the clerk searched by (the address keeps it, so a scan can be a bookmark): checked. */
function readSearch(params: URLSearchParams): { search: TypedSearch; find: PickupSearch | null } {
  const values = Object.fromEntries(params);
  const byName = params.has("orderNumber");
  if (!byName && !params.has("code")) return { search: { values, errors: {} }, find: null };
  const parsed = byName
    ? readCounterForm(pickupNameSearchSchema, values)
    : readCounterForm(pickupCodeSearchSchema, values);
  if (!parsed.ok) {
    return { search: { values, errors: parsed.errors }, find: null };
  }
  return { search: { values, errors: {} }, find: parsed.values };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "pickups");
  const { search, find } = readSearch(new URL(request.url).searchParams);
  if (!find) return { search, order: null };
  const found = await findPickup(getDb(), find);
  if (!found.ok) {
    const field = found.field ?? "code";
    return { search: { ...search, errors: { [field]: found.message } }, order: null };
  }
  const { timeZone } = counterConfig();
  const { order } = found;
  const when = (date: Date | null) => (date ? formatShopDateTime(date, timeZone) : null);
  return {
    search,
    order: {
      id: order.id,
      name: order.name,
      email: order.email,
      total: formatUsd(order.totalCents),
      lines: order.lines,
      hasAdult: order.hasAdult,
      collected: when(order.collectedAt),
      collectedByName: order.collectedByName,
      refusal: collectionRefusal(order)?.message ?? null,
    },
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireStaffAction(request, "pickups");
  const form = await readForm(request);
  const parsed = readCounterForm(collectPickupSchema, form);
  if (!parsed.ok) {
    return reply.refused("invalid", parsed.message, { errors: parsed.errors, values: form });
  }
  const result = await collectPickup(
    getDb(),
    { orderId: parsed.values.orderId, idCheckBirthDate: parsed.values.idCheck },
    { staff: staffOf(user), timeZone: counterConfig().timeZone },
  );
  return reply.result(result, { values: form });
}

export default function Pickups({ loaderData, actionData }: Route.ComponentProps) {
  const { search, order } = loaderData;
  const answer = actionData as Answer | undefined;
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-3xl font-bold">Pickups</h1>
        <Link to="/counter" className="text-sm text-primary underline">
          Back to the counter
        </Link>
      </header>
      <div className="grid gap-4 md:grid-cols-2">
        <PickupSearchForm
          heading="By pickup code"
          search={search}
          fields={[
            {
              label: "Pickup code",
              name: "code",
              autoComplete: "off",
              autoCapitalize: "characters",
              spellCheck: false,
              maxLength: 40,
              hint: "Type it, or scan the QR code in the customer's e-mail.",
              autoFocus: !order,
            },
          ]}
          submit="Find by code"
        />
        <PickupSearchForm
          heading="By name and order number"
          search={search}
          fields={[
            {
              label: "Order number",
              name: "orderNumber",
              inputMode: "numeric",
              autoComplete: "off",
              maxLength: 16,
            },
            { label: "Customer's name", name: "name", autoComplete: "off", maxLength: 200 },
          ]}
          submit="Find by name"
        />
      </div>
      {order ? <PickupOrder order={order} answer={answer} /> : null}
    </div>
  );
}

function PickupOrder({
  order,
  answer,
}: {
  order: NonNullable<Route.ComponentProps["loaderData"]["order"]>;
  answer: Answer | undefined;
}) {
  const errors = errorsOf(answer);
  return (
    <section
      aria-labelledby="pickup-order-heading"
      className="flex flex-col gap-3 rounded-md border p-4"
    >
      <h2 id="pickup-order-heading" className="text-lg font-semibold">
        Order #{order.id} for {order.name}
      </h2>
      <p className="text-sm text-muted-foreground">
        {order.email} · {order.total}, paid online
      </p>
      <ul className="flex flex-col gap-1 text-sm">
        {order.lines.map((line) => (
          <li key={`${line.productType}:${line.title}`}>
            {line.quantity} × {line.title}
            {line.productType === "adult" ? " (adult title: ID check)" : ""}
          </li>
        ))}
      </ul>
      {answer?.ok ? (
        <p role="status" className="text-sm font-medium text-success">
          {answer.message}
        </p>
      ) : order.collected ? (
        <FormMessage tone="error">
          Collected already, {order.collected}
          {order.collectedByName ? `, handed over by ${order.collectedByName}` : ""}.
        </FormMessage>
      ) : order.refusal ? (
        <FormMessage tone="error">{order.refusal}</FormMessage>
      ) : (
        <Form method="post" noValidate className="flex flex-col gap-3">
          {answer && !answer.ok && !answer.errors ? (
            <FormMessage tone="error">{answer.message}</FormMessage>
          ) : null}
          <input type="hidden" name="orderId" value={order.id} />
          {order.hasAdult ? (
            <IdCheckField value={answer?.values?.idCheck ?? ""} error={errors.idCheck} />
          ) : null}
          <div>
            <Button type="submit" size="lg">
              Hand over order #{order.id}
            </Button>
          </div>
        </Form>
      )}
    </section>
  );
}
