import { data, Form, Link, useNavigation, type ShouldRevalidateFunction } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { EstimateTable } from "#app/components/repair-estimate.tsx";
import { RepairInvoice } from "#app/components/repair-invoice.tsx";
import { RepairLinkEnded } from "#app/components/repair-link-ended.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { repairDesk } from "#app/domain/repair-tickets/shop-context.server.ts";
import {
  CUSTOMER_WORDS,
  isWorkAhead,
  paidByLabel,
  promisedDateLabel,
  STATUS_LABELS,
  ticketLabel,
} from "#app/domain/repair-tickets/status.ts";
import { invoiceShown, ticketMoney } from "#app/domain/repair-tickets/payments.server.ts";
import {
  ticketOfStatusLink,
  ticketPayPath,
} from "#app/domain/repair-tickets/status-link.server.ts";
import {
  decideEstimate,
  deviceName,
  getTicket,
} from "#app/domain/repair-tickets/tickets.server.ts";
import { repairStatusLinkEnded, RETENTION_DAYS } from "#app/domain/retention/periods.ts";
import { repairStatusLinkState } from "#app/domain/retention/retention.server.ts";
import { clientIp } from "#app/lib/client-ip.ts";
import { shopContact } from "#app/lib/env.server.ts";
import { positiveInt, privatePageHeaders } from "#app/lib/http.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { formatShopDate, formatShopDateTime, formatShopLongDate } from "#app/lib/shop-time.ts";
import { pageMeta, SHOP_ADDRESS } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/repairs.$label.$token";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(
    loaderData ? `Your repair ${loaderData.label}` : "Your repair",
    "The status of your repair.",
  ),
  { name: "robots", content: "noindex" },
];

// The link is the customer's key: never kept by a shared cache, never indexed.
export const headers: Route.HeadersFunction = () => ({
  ...privatePageHeaders(),
  "X-Robots-Tag": "noindex",
});

const NOT_FOUND = "This repair link is not valid.";

/** The ticket the signed link is for; anything else (a forged link, another ticket's) is a 404. */
function ticketOfLink(params: { label?: string; token?: string }): number {
  const number = ticketOfStatusLink(params.label, params.token, repairDesk().secret);
  if (number === undefined) throw data(NOT_FOUND, { status: 404 });
  return number;
}

const ESTIMATE_STATE = {
  pending: "Waiting for your decision",
  approved: "You approved it",
  declined: "You declined it",
  superseded: "Replaced by a newer estimate",
} as const;

/** What the page says after the pay link: back from the provider, or refused before it. */
function payNotice(
  search: URLSearchParams,
  balanceCents: number,
): { ok: boolean; message: string } | null {
  if (search.has("paid")) {
    return {
      ok: true,
      message:
        balanceCents > 0
          ? "Thank you: your payment is being confirmed. This page shows it once it is."
          : "Thank you: your repair is paid.",
    };
  }
  if (search.get("pay") === "failed") {
    return {
      ok: false,
      message:
        "We could not start the online payment. Please try again in a moment, or pay at the counter.",
    };
  }
  if (search.get("pay") === "none") {
    return { ok: false, message: "There is nothing to pay online for this repair now." };
  }
  return null;
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const number = ticketOfLink(params);
  const found = await getTicket(getDb(), number);
  if (!found) throw data(NOT_FOUND, { status: 404 });
  const { timeZone, secret } = repairDesk();
  const when = (date: Date) => formatShopDateTime(date, timeZone);
  const { ticket, events, estimates } = found;
  const money = await ticketMoney(getDb(), number);
  const collectedOn =
    ticket.status === "collected" && ticket.paymentMethod && ticket.closedAt
      ? formatShopLongDate(ticket.closedAt, timeZone)
      : null;
  const contact = shopContact();
  const shop = { address: SHOP_ADDRESS, phone: contact.phone, hours: contact.hours };
  if (ticket.closedAt && repairStatusLinkEnded(ticket.closedAt, new Date())) {
    return data(
      {
        ended: true as const,
        label: ticketLabel(number),
        closedOn: formatShopDate(ticket.closedAt, timeZone),
        days: RETENTION_DAYS.repairStatusLink,
        shop,
      },
      { status: 410 },
    );
  }
  const owing = ticket.status === "ready" && money.account.balanceCents > 0;
  return {
    ended: false as const,
    label: ticketLabel(number),
    invoice: invoiceShown(money, when),
    pay: owing
      ? { path: ticketPayPath(number, secret), amount: formatUsd(money.account.balanceCents) }
      : null,
    payNotice: payNotice(new URL(request.url).searchParams, money.account.balanceCents),
    device: deviceName(ticket),
    status: ticket.status,
    words: CUSTOMER_WORDS[ticket.status],
    // "Ready by" is a promise about work still to do: not said once it is ready or declined.
    promised: isWorkAhead(ticket.status) ? promisedDateLabel(ticket.promisedDate) : null,
    // What was paid, and how, once collected; the receipt prints on a page of its own.
    paid: collectedOn
      ? !ticket.paidCents
        ? `Collected free of charge on ${collectedOn}.`
        : `Paid ${formatUsd(ticket.paidCents)} (${paidByLabel(money.payments.map((payment) => payment.method))}) on ${collectedOn}.`
      : null,
    closed: ticket.closedAt !== null,
    shop,
    // Who did what at the shop is the shop's business: the customer sees the steps and when
    // (corrections of the ticket's details are not steps of the repair).
    history: events
      .filter((event) => !event.changes)
      .map((event) => ({
        id: event.id,
        when: when(event.createdAt),
        step: STATUS_LABELS[event.toStatus],
      })),
    estimates: estimates.map((estimate) => ({
      id: estimate.id,
      version: estimate.version,
      status: estimate.status,
      state: ESTIMATE_STATE[estimate.status],
      decided: estimate.decidedAt ? when(estimate.decidedAt) : null,
      note: estimate.note,
      lines: estimate.lines,
      subtotalCents: estimate.subtotalCents,
      taxRate: estimate.taxRate,
      taxCents: estimate.taxCents,
      totalCents: estimate.totalCents,
    })),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const number = ticketOfLink(params);
  if ((await repairStatusLinkState(getDb(), number, new Date())) === "ended") {
    return reply.refused("expired", "This repair link has expired.");
  }
  const form = await readForm(request);
  const estimateId = positiveInt(form.estimateId);
  const decision = form.decision;
  if (!estimateId || (decision !== "approved" && decision !== "declined")) {
    return reply.refused("invalid", "Please choose Approve or Decline.");
  }
  const result = await decideEstimate(
    getDb(),
    number,
    { estimateId, decision },
    { clientIp: clientIp(request) },
  );
  return reply.result(result);
}

/**
 * A decision refused because the estimate changed meanwhile (replaced by the shop, or decided in
 * another tab) brings the page up to date, so the estimate shown is the one that can be decided.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  actionStatus,
  defaultShouldRevalidate,
}) => actionStatus === 409 || defaultShouldRevalidate;

type Estimate = Extract<Route.ComponentProps["loaderData"], { ended: false }>["estimates"][number];

function Decide({ estimate }: { estimate: Estimate }) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" className="mt-4 flex flex-wrap gap-2">
      <input type="hidden" name="estimateId" value={estimate.id} />
      <Button type="submit" name="decision" value="approved" disabled={busy}>
        Approve the estimate
      </Button>
      <Button type="submit" name="decision" value="declined" variant="outline" disabled={busy}>
        Decline
      </Button>
    </Form>
  );
}

export default function RepairStatus({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.ended) return <RepairLinkEnded {...loaderData} />;
  const current = loaderData.estimates.find((estimate) => estimate.status === "pending");
  const earlier = loaderData.estimates.filter((estimate) => estimate !== current);
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-10 sm:px-6">
      <div>
        <p className="text-sm font-medium text-muted-foreground">Repair {loaderData.label}</p>
        <h1 className="text-3xl font-bold">Your {loaderData.device}</h1>
      </div>
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormMessage>
      ) : null}
      <section aria-labelledby="status-now" className="rounded-xl border bg-card p-5">
        <h2 id="status-now" className="text-lg font-semibold">
          Now: {STATUS_LABELS[loaderData.status]}
        </h2>
        <p className="mt-2">{loaderData.words}</p>
        {loaderData.promised ? (
          <p className="mt-2 text-sm text-muted-foreground">
            We aim to have it ready by {loaderData.promised}.
          </p>
        ) : null}
        {loaderData.status === "ready" || loaderData.status === "declined" ? (
          <p className="mt-2 text-sm">
            Collect it at {loaderData.shop.address} ({loaderData.shop.hours}); bring your ticket
            number.
          </p>
        ) : null}
        {loaderData.paid ? (
          <p className="mt-2">
            {loaderData.paid}{" "}
            <Link to="receipt" relative="path" className="font-medium text-primary underline">
              Print your receipt
            </Link>
          </p>
        ) : null}
        <p className="mt-2 text-sm text-muted-foreground">
          Questions? Call {loaderData.shop.phone}, quoting {loaderData.label}.
        </p>
      </section>
      {loaderData.payNotice ? (
        <FormMessage tone={loaderData.payNotice.ok ? "success" : "error"}>
          {loaderData.payNotice.message}
        </FormMessage>
      ) : null}
      {loaderData.invoice ? (
        <section aria-labelledby="status-invoice" className="rounded-xl border bg-card p-5">
          <h2 id="status-invoice" className="text-lg font-semibold">
            Invoice
          </h2>
          <div className="mt-3">
            <RepairInvoice invoice={loaderData.invoice} />
          </div>
          {loaderData.pay ? (
            <p className="mt-4">
              <a
                href={loaderData.pay.path}
                className="inline-block rounded-md bg-primary px-4 py-2 font-medium text-primary-foreground"
              >
                Pay {loaderData.pay.amount} online
              </a>
            </p>
          ) : null}
        </section>
      ) : null}
      {current ? (
        <section aria-labelledby="estimate-current" className="rounded-xl border bg-card p-5">
          <h2 id="estimate-current" className="text-lg font-semibold">
            Your estimate
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Estimate {current.version}: {current.state}. Diagnosis is free: you pay only if you
            approve and collect the repaired device.
          </p>
          {current.note ? <p className="mt-2">{current.note}</p> : null}
          <div className="mt-3">
            <EstimateTable estimate={current} />
          </div>
          <Decide estimate={current} />
        </section>
      ) : null}
      {earlier.length > 0 ? (
        <section aria-labelledby="estimate-earlier" className="rounded-xl border bg-card p-5">
          <h2 id="estimate-earlier" className="text-lg font-semibold">
            {current ? "Earlier estimates" : "Estimates"}
          </h2>
          <ol className="mt-3 flex flex-col gap-5">
            {earlier.map((estimate) => (
              <li key={estimate.id}>
                <h3 className="font-medium">
                  Estimate {estimate.version}: {estimate.state}
                  {estimate.decided ? ` on ${estimate.decided}` : ""}
                </h3>
                <div className="mt-2">
                  <EstimateTable estimate={estimate} />
                </div>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      <section aria-labelledby="status-history" className="rounded-xl border bg-card p-5">
        <h2 id="status-history" className="text-lg font-semibold">
          What happened so far
        </h2>
        <ol className="mt-3 flex flex-col gap-1 text-sm">
          {loaderData.history.map((event) => (
            <li key={event.id}>
              <span className="text-muted-foreground">{event.when}</span>: {event.step}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
