import { randomUUID } from "node:crypto";
import type { ReactNode } from "react";
import { data, Form, Link, redirect } from "react-router";
import { FormField, FormMessage, SelectField } from "#app/components/form-field.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { refundCeiling } from "#app/domain/accounts/permissions.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import { staffOf } from "#app/domain/accounts/staff.ts";
import { counterReturnsConfig } from "#app/domain/counter/counter-config.server.ts";
import { quantityField, readReturnForm } from "#app/domain/counter/return-input.ts";
import { recordCounterReturn, saleForReturn } from "#app/domain/counter/returns.server.ts";
import { openSaleOf } from "#app/domain/counter/sales.server.ts";
import {
  COUNTER_RETURN_REASONS,
  counterReturnNumber,
  saleIdOf,
} from "#app/domain/counter/status.ts";
import { openTill } from "#app/domain/counter/till.server.ts";
import { paymentProviderFor } from "#app/domain/payments/providers.server.ts";
import type { Answer } from "#app/lib/answer.ts";
import { cn } from "#app/lib/cn.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { reply } from "#app/lib/reply.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopLongDate } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/counter.sales.$number.return";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = ({ params }) => [
  ...pageMeta(`Return from ${params.number}`, "Items of a counter sale brought back."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "counter");
  const db = getDb();
  const config = counterReturnsConfig();
  const id = saleIdOf(params.number);
  const sale = id === undefined ? undefined : await saleForReturn(db, id, config);
  if (!sale) throw data("There is no such sale.", { status: 404 });
  const till = await openTill(db);
  const open = till ? await openSaleOf(db, till.id, config.taxRate) : undefined;
  return {
    key: randomUUID(),
    sale: {
      number: sale.number,
      totalCents: sale.totalCents,
      windowEnds: formatShopLongDate(sale.windowEndsAt, config.timeZone),
      why: sale.why,
      cardLeftCents: sale.cardPaidCents - sale.cardRefundedCents,
      lines: sale.lines.map((line) => ({
        id: line.id,
        name: line.name,
        quantity: line.quantity,
        returned: line.returned,
        returnable: line.returnable,
      })),
    },
    tillOpen: till !== undefined,
    exchangeSale:
      open && open.lines.length > 0
        ? { number: open.number, totalCents: open.totals.totalCents, hasAdult: open.hasAdult }
        : null,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireStaffAction(request, "counter");
  const form = await readForm(request);
  const read = readReturnForm(form);
  if (!read.ok) {
    return reply.refused("invalid", read.message, { errors: read.errors, values: form });
  }
  const id = saleIdOf(params.number);
  if (id === undefined) return reply.refused("not-found", "There is no such sale.");
  const env = getEnv();
  const { values } = read;
  const done = await recordCounterReturn(
    getDb(),
    {
      saleId: id,
      key: values.key,
      reason: values.reason,
      quantities: values.quantities,
      exchange:
        values.intent === "exchange"
          ? { cashTenderedCents: values.cashTendered, idCheckBirthDate: values.idCheck }
          : undefined,
    },
    {
      staff: staffOf(user),
      limitCents: refundCeiling(user.role, env.COUNTER_REFUND_LIMIT_CENTS),
      cardProvider: paymentProviderFor(false),
      config: counterReturnsConfig(env),
    },
  );
  if (done.ok) throw redirect(`/counter/returns/${counterReturnNumber(done.returnId)}`);
  return reply.result(done, { values: form });
}

export default function CounterReturn({ loaderData, actionData }: Route.ComponentProps) {
  const { sale, key, tillOpen, exchangeSale } = loaderData;
  const answer = actionData as Answer | undefined;
  const errors = errorsOf(answer);
  const values = answer && !answer.ok ? (answer.values ?? {}) : {};
  const formError = answer && !answer.ok && !answer.errors ? answer.message : null;
  return (
    <div className="flex max-w-2xl flex-col gap-4">
      <h1 className="text-3xl font-bold">Return from sale {sale.number}</h1>
      <p className="text-sm text-muted-foreground">
        Paid {formatUsd(sale.totalCents)}. Returns with the receipt until {sale.windowEnds}.
      </p>
      {sale.why ? (
        <>
          <FormMessage tone="error">{sale.why}</FormMessage>
          <BackToReceipt number={sale.number} />
        </>
      ) : (
        <Form method="post" className="flex flex-col gap-4">
          <input type="hidden" name="key" value={key} />
          {formError ? <FormMessage tone="error">{formError}</FormMessage> : null}
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 text-lg font-semibold">What comes back</legend>
            {errors.lines ? (
              <p className="text-sm font-medium text-destructive">{errors.lines}</p>
            ) : null}
            <ul className="flex flex-col divide-y rounded-md border">
              {sale.lines.map((line) => (
                <li key={line.id} className="flex flex-wrap items-end justify-between gap-3 p-3">
                  <span className="min-w-0">
                    <span className="block font-medium">{line.name}</span>
                    <span className="block text-xs text-muted-foreground">
                      Sold {line.quantity}
                      {line.returned > 0 ? `, ${line.returned} returned already` : ""}
                    </span>
                  </span>
                  {line.returnable > 0 ? (
                    <FormField
                      className="w-36"
                      label={
                        <>
                          How many (of {line.returnable})
                          <span className="sr-only"> of “{line.name}”</span>
                        </>
                      }
                      name={quantityField(line.id)}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={line.returnable}
                      defaultValue={values[quantityField(line.id)] ?? ""}
                      error={errors[quantityField(line.id)]}
                    />
                  ) : (
                    <span className="text-sm text-muted-foreground">All returned</span>
                  )}
                </li>
              ))}
            </ul>
          </fieldset>
          <SelectField
            label="Why it comes back"
            name="reason"
            required
            defaultValue={values.reason ?? ""}
            error={errors.reason}
          >
            <option value="">Choose a reason</option>
            {COUNTER_RETURN_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {reason}
              </option>
            ))}
          </SelectField>
          <ReturnWay way="refund" heading="Refund" className="gap-2">
            <p className="text-sm">
              The money goes back the way it was paid:{" "}
              {sale.cardLeftCents > 0
                ? `to the card that paid (up to ${formatUsd(sale.cardLeftCents)}), any rest in cash from the till.`
                : "in cash from the till."}
              {tillOpen ? "" : " The till is closed: open it to refund cash."}
            </p>
            <Button type="submit" name="intent" value="refund" className="self-start">
              Refund
            </Button>
          </ReturnWay>
          <ReturnWay way="exchange" heading="Exchange" className="gap-3">
            {exchangeSale ? (
              <>
                <p className="text-sm">
                  The goods returned pay toward sale {exchangeSale.number} (
                  {formatUsd(exchangeSale.totalCents)}) open at the counter; any difference is paid
                  in cash, or given back as a refund.
                </p>
                <FormField
                  label="Cash for the difference ($)"
                  name="cashTendered"
                  inputMode="decimal"
                  className="max-w-xs"
                  defaultValue={values.cashTendered ?? ""}
                  error={errors.cashTendered}
                />
                {exchangeSale.hasAdult ? (
                  <FormField
                    label="Birth date on the customer's ID"
                    name="idCheck"
                    type="date"
                    className="max-w-xs"
                    defaultValue={values.idCheck ?? ""}
                    error={errors.idCheck}
                  />
                ) : null}
                <Button
                  type="submit"
                  name="intent"
                  value="exchange"
                  variant="outline"
                  className="self-start"
                >
                  Exchange for sale {exchangeSale.number}
                </Button>
              </>
            ) : (
              <p className="text-sm">
                To exchange, scan the new title into a sale{" "}
                <Link to="/counter" className="text-primary underline">
                  at the counter
                </Link>{" "}
                first, then come back to this receipt.
              </p>
            )}
            {errors.exchange ? (
              <p className="text-sm font-medium text-destructive">{errors.exchange}</p>
            ) : null}
          </ReturnWay>
          <BackToReceipt number={sale.number} />
        </Form>
      )}
    </div>
  );
}

/** One way the goods' value goes back, a refund or an exchange: a section under its heading. */
function ReturnWay({
  way,
  heading,
  className,
  children,
}: {
  way: "refund" | "exchange";
  heading: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${way}-heading`} className={cn("flex flex-col", className)}>
      <h2 id={`${way}-heading`} className="text-lg font-semibold">
        {heading}
      </h2>
      {children}
    </section>
  );
}

function BackToReceipt({ number }: { number: string }) {
  return (
    <Link
      to={`/counter/sales/${number}`}
      className={buttonVariants({ variant: "link", className: "self-start px-0" })}
    >
      Back to receipt {number}
    </Link>
  );
}
