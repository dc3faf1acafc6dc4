import { Form, Link, redirect } from "react-router";
import type { CounterAnswer } from "#app/components/counter/counter-answer.ts";
import { AwaitingCard } from "#app/components/counter/awaiting-card.tsx";
import { PayForm } from "#app/components/counter/pay-form.tsx";
import { SaleLines } from "#app/components/counter/sale-lines.tsx";
import { ScanForm } from "#app/components/counter/scan-form.tsx";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireActingStaff, requireStaff } from "#app/domain/accounts/session.server.ts";
import { counterConfig, taxLabel } from "#app/domain/counter/counter-config.server.ts";
import { openTillSchema, readCounterForm } from "#app/domain/counter/counter-input.ts";
import { counterAction } from "#app/domain/counter/counter-actions.server.ts";
import { getSale, openSaleOf } from "#app/domain/counter/sales.server.ts";
import { saleIdOf, saleNumber } from "#app/domain/counter/status.ts";
import { openTill, openTillSession } from "#app/domain/counter/till.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { reply } from "#app/lib/reply.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/counter._index";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Counter", "The store's till: scan, take payment, print the receipt."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "counter");
  const db = getDb();
  const config = counterConfig();
  const till = await openTill(db);
  if (!till) return { till: null, sale: null, paid: null, taxLabel: taxLabel(config.taxRate) };
  const search = new URL(request.url).searchParams;
  // After a card payment the address names the sale: paid by now, or still on the till.
  const [sale, paid] = await Promise.all([
    openSaleOf(db, till.id, config.taxRate),
    lastPaid(search.get("paid") ?? search.get("card"), till.id, config.taxRate),
  ]);
  const cardAsked = search.get("card");
  return {
    till: {
      openedAt: formatShopDateTime(till.openedAt, config.timeZone),
      openedByName: till.openedByName,
    },
    sale: sale && {
      number: sale.number,
      totals: sale.totals,
      hasAdult: sale.hasAdult,
      awaitingCard:
        sale.status === "awaiting_card"
          ? { cardCents: sale.cardCents ?? 0, cashTenderedCents: sale.cashTenderedCents ?? 0 }
          : null,
      // Why the card just asked for did not pay: shown once, on the page the payment led to.
      cardMessage: cardAsked === String(sale.id) ? sale.cardMessage : null,
      lines: sale.lines.map((line) => ({
        id: line.id,
        name: line.name,
        adult: line.productType === "adult",
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        discountCents: line.discountCents,
        discountReason: line.discountReason,
        taxable: line.taxable,
      })),
    },
    paid,
    taxLabel: taxLabel(config.taxRate),
  };
}

/** The sale just paid at this till (its number in the address), for its change and receipt. */
async function lastPaid(param: string | null, tillId: number, taxRate: number) {
  const id = param ? saleIdOf(`S-${param}`) : undefined;
  const sale = id === undefined ? undefined : await getSale(getDb(), id, taxRate);
  if (!sale || sale.status !== "paid" || sale.tillSessionId !== tillId) return null;
  const change = sale.payments.reduce((sum, payment) => sum + (payment.changeCents ?? 0), 0);
  return { number: saleNumber(sale.id), totalCents: sale.totals.totalCents, changeCents: change };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireActingStaff(request, "counter");
  const form = await readForm(request);
  const db = getDb();
  if (form.intent === "open-till") {
    const read = readCounterForm(openTillSchema, form);
    if (!read.ok)
      return reply.refused("invalid", read.message, { errors: read.errors, values: form });
    const opened = await openTillSession(db, read.values.float, staff);
    if (!opened.ok) return reply.result(opened);
    throw redirect("/counter");
  }
  const answer = await counterAction(db, form, staff, counterConfig());
  if ("paidSaleId" in answer) throw redirect(`/counter?paid=${answer.paidSaleId}`);
  if ("openSale" in answer) throw redirect(`/counter/sales/${answer.openSale}`);
  if ("openPickup" in answer) {
    throw redirect(`/counter/pickups?${new URLSearchParams({ code: answer.openPickup })}`);
  }
  if ("cardSaleId" in answer) throw redirect(`/counter?card=${answer.cardSaleId}`);
  return answer.ok
    ? reply.ok(answer.message, answer.results ? { results: answer.results } : undefined)
    : reply.refused(answer.reason, answer.message, {
        errors: answer.errors,
        values: form,
      });
}

export default function Counter({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as CounterAnswer | undefined;
  if (!loaderData.till) return <OpenTill answer={answer} />;
  return <Selling data={loaderData} answer={answer} />;
}

function Selling({
  data: { till, sale, paid, taxLabel },
  answer,
}: {
  data: Route.ComponentProps["loaderData"] & { till: object };
  answer: CounterAnswer | undefined;
}) {
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-3xl font-bold">Counter</h1>
        <p className="text-sm text-muted-foreground">
          Till opened {till.openedAt} by {till.openedByName} ·{" "}
          <Link to="/counter/pickups" className="text-primary underline">
            Pickups
          </Link>{" "}
          ·{" "}
          <Link to="/counter/till" className="text-primary underline">
            Close the till
          </Link>
        </p>
      </header>
      {paid ? (
        <p
          role="status"
          className="rounded-md border border-success/40 bg-success/5 px-3 py-2 text-sm font-medium text-success"
        >
          Sale {paid.number} paid: {formatUsd(paid.totalCents)}. Change due:{" "}
          {formatUsd(paid.changeCents)}.{" "}
          <Link to={`/counter/sales/${paid.number}`} className="underline">
            Receipt {paid.number}
          </Link>
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-[1fr_20rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <ScanForm
            saleNumber={sale?.number ?? null}
            linesKey={(sale?.lines ?? [])
              .map((line) => `${line.id}:${line.quantity}:${line.discountCents}`)
              .join(",")}
            fallback={answer?.results || answer?.errors?.code ? answer : undefined}
          />
          <section aria-labelledby="counter-sale-heading" className="flex flex-col gap-2">
            <h2 id="counter-sale-heading" className="text-lg font-semibold">
              {sale ? `Sale ${sale.number}` : "New sale"}
            </h2>
            <SaleLines lines={sale?.lines ?? []} />
          </section>
        </div>
        {sale?.awaitingCard ? (
          <AwaitingCard
            totals={sale.totals}
            taxLabel={taxLabel}
            {...sale.awaitingCard}
            answer={answer?.errors?.code || answer?.results ? undefined : answer}
          />
        ) : sale && sale.lines.length > 0 ? (
          <PayForm
            totals={sale.totals}
            taxLabel={taxLabel}
            needsIdCheck={sale.hasAdult}
            cardMessage={sale.cardMessage}
            answer={answer?.errors?.code || answer?.results ? undefined : answer}
          />
        ) : null}
      </div>
    </div>
  );
}

function OpenTill({ answer }: { answer: CounterAnswer | undefined }) {
  const errors = errorsOf(answer);
  return (
    <div className="flex max-w-md flex-col gap-4">
      <h1 className="text-3xl font-bold">Counter</h1>
      <p>The till is closed. Count the float into the drawer and open it to start selling.</p>
      {answer && !answer.ok && !answer.errors ? (
        <FormMessage tone="error">{answer.message}</FormMessage>
      ) : null}
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="open-till" />
        <FormField
          label="Float ($)"
          name="float"
          inputMode="decimal"
          required
          defaultValue={answer?.values?.float ?? ""}
          error={errors.float}
        />
        <Button type="submit">Open the till</Button>
      </Form>
      <Link to="/counter/till" className={buttonVariants({ variant: "link" })}>
        Z reports of closed tills
      </Link>
      <Link to="/counter/pickups" className={buttonVariants({ variant: "link" })}>
        Pickups
      </Link>
    </div>
  );
}
