import { randomUUID } from "node:crypto";
import { data, type ShouldRevalidateFunction } from "react-router";
import { CollectForm } from "#app/components/admin/repairs/collect-form.tsx";
import { DepositForm } from "#app/components/admin/repairs/deposit-form.tsx";
import { EstimateForm } from "#app/components/admin/repairs/estimate-form.tsx";
import { MoveForm } from "#app/components/admin/repairs/move-form.tsx";
import { RefundForm } from "#app/components/admin/repairs/refund-form.tsx";
import type {
  TicketAnswer as ActionData,
  TicketIntent as Intent,
} from "#app/components/admin/repairs/ticket-answer.ts";
import {
  Estimates,
  Photos,
  TicketDetails,
  TicketHistory,
} from "#app/components/admin/repairs/ticket-record.tsx";
import { TicketHeader, TicketNotices } from "#app/components/admin/repairs/ticket-header.tsx";
import { Message, Section } from "#app/components/admin/repairs/ticket-section.tsx";
import { RepairInvoice } from "#app/components/repair-invoice.tsx";
import { usePageAnswer } from "#app/components/use-page-answer.ts";
import {
  correctedFields,
  estimateRecord,
  historyEntry,
} from "#app/components/admin/repairs/ticket-view.ts";
import { staffOf } from "#app/domain/accounts/staff.ts";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import { paymentProviderFor } from "#app/domain/payments/providers.server.ts";
import {
  refundableCents,
  refundSources,
  refundWords,
} from "#app/domain/repair-tickets/deposit-refund.ts";
import { depositTaken } from "#app/domain/repair-tickets/desk-payments.server.ts";
import { repairDesk, ticketNumberParam } from "#app/domain/repair-tickets/shop-context.server.ts";
import {
  isWorkAhead,
  NEXT_STATUSES,
  paidDifference,
  paidByLabel,
  promisedDateLabel,
  statusesBefore,
  ticketLabel,
  UNREPAIRED_STATUSES,
} from "#app/domain/repair-tickets/status.ts";
import {
  ticketReceiptPath,
  ticketStatusPath,
} from "#app/domain/repair-tickets/status-link.server.ts";
import {
  collectSchema,
  depositSchema,
  estimateErrors,
  estimateSchema,
  moveSchema,
  readEstimateForm,
  refundSchema,
} from "#app/domain/repair-tickets/ticket-input.ts";
import {
  collectTicket,
  invoiceShown,
  refundDeposit,
  takeDeposit,
  ticketMoney,
} from "#app/domain/repair-tickets/payments.server.ts";
import {
  deviceName,
  getTicket,
  MANUAL_STATUSES,
  moveTicket,
  sendEstimate,
  type TicketFailure,
} from "#app/domain/repair-tickets/tickets.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import { REFUSAL_STATUS, reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.repairs.$number";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(
    loaderData ? `Ticket ${loaderData.ticket.label}` : "Repair ticket",
    "A repair ticket.",
  ),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

function notFound(): never {
  throw data("There is no such repair ticket.", { status: 404 });
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "repairs");
  const number = ticketNumberParam(params.number) ?? notFound();
  const found = (await getTicket(getDb(), number)) ?? notFound();
  const desk = repairDesk();
  const when = (date: Date) => formatShopDateTime(date, desk.timeZone);
  const { ticket, events, estimates, photos } = found;
  const approved = estimates.find((estimate) => estimate.status === "approved");
  const money = await ticketMoney(getDb(), number);
  const search = new URL(request.url).searchParams;
  const collected = ticket.status === "collected" && ticket.paymentMethod !== null;
  // The deposit taken with the ticket at intake, said with the notice that it is open.
  const intakeDeposit = search.has("opened")
    ? money.payments.find(
        (payment) => payment.kind === "deposit" && String(payment.id) === search.get("deposit"),
      )
    : undefined;
  const refundable = UNREPAIRED_STATUSES.includes(ticket.status)
    ? refundSources(money.payments)
    : [];
  return {
    /** A new key each time the page is drawn: a desk form sent twice takes its money once. */
    formKey: randomUUID(),
    opened: search.has("opened"),
    openedDeposit: intakeDeposit ? depositTaken(number, intakeDeposit) : null,
    corrected: correctedFields(search.get("corrected")),
    ticket: {
      number,
      label: ticketLabel(number),
      status: ticket.status,
      name: ticket.customerName,
      email: ticket.customerEmail,
      phone: ticket.customerPhone,
      serviceType: ticket.serviceType,
      device: deviceName(ticket),
      serial: ticket.deviceSerial,
      problem: ticket.problem,
      condition: ticket.conditionAtIntake,
      accessories: ticket.accessories,
      promised: promisedDateLabel(ticket.promisedDate),
      overdue: isWorkAhead(ticket.status) && ticket.promisedDate < desk.today,
      opened: when(ticket.createdAt),
      paid: collected
        ? `${paidByLabel(money.payments.map((payment) => payment.method))}, ${formatUsd(ticket.paidCents ?? 0)}`
        : null,
      // Another amount than approved, and why (asked for at collection).
      difference: collected
        ? [
            paidDifference(ticket.paidCents ?? 0, approved?.totalCents ?? 0),
            ticket.paidDifferenceReason,
          ]
            .filter(Boolean)
            .join(": ") || null
        : null,
      statusPath: ticketStatusPath(number, desk.secret),
      receiptPath: collected ? ticketReceiptPath(number, desk.secret) : null,
    },
    photos: photos.map((photo, index) => ({
      ...photo,
      src: `/admin/repairs/${ticketLabel(number)}/photos/${photo.id}`,
      alt: `Intake photo ${index + 1} of ${ticketLabel(number)}`,
    })),
    moves: NEXT_STATUSES[ticket.status].filter((to) => MANUAL_STATUSES.includes(to)),
    canEstimate: statusesBefore("estimate_sent").includes(ticket.status),
    collectAmount: dollars(Math.max(money.account.balanceCents, 0)),
    approvedTotal: formatUsd(approved?.totalCents ?? 0),
    paidBefore: money.account.paidCents ? formatUsd(money.account.paidCents) : null,
    canDeposit: !["ready", "collected", "returned"].includes(ticket.status),
    refund:
      refundable.length > 0
        ? {
            amount: dollars(refundableCents(money.payments)),
            left: refundWords(
              refundable.map((source) => ({
                method: source.method,
                amountCents: source.leftCents,
              })),
            ),
          }
        : null,
    invoice: invoiceShown(money, when),
    history: events.map((event) => historyEntry(event, when)),
    estimates: estimates.map((estimate) => estimateRecord(estimate, when)),
  };
}

/** A move refused because someone else changed the ticket: show the ticket as it is now. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  actionStatus,
  defaultShouldRevalidate,
}) => actionStatus === 409 || defaultShouldRevalidate;

function answer(
  intent: Intent,
  result: { ok: true; message: string } | TicketFailure,
  extra: Partial<ActionData> = {},
) {
  if (result.ok) {
    return data<ActionData>({
      intent,
      ok: true,
      message: result.message,
      sentId: crypto.randomUUID(),
    });
  }
  return data<ActionData>(
    {
      intent,
      ok: false,
      message: result.message,
      ...extra,
      errors: result.field ? { [result.field]: result.message } : extra.errors,
    },
    { status: REFUSAL_STATUS[result.reason] },
  );
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireStaffAction(request, "repairs");
  const number = ticketNumberParam(params.number) ?? notFound();
  const form = await readForm(request);
  const db = getDb();
  const desk = repairDesk();
  const staff = staffOf(user);

  if (form.intent === "move") {
    const values = { note: form.note ?? "" };
    const parsed = moveSchema.safeParse(form);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return data<ActionData>(
        {
          intent: "move",
          ok: false,
          message: errors.to ?? "Please check the note.",
          errors,
          values,
        },
        { status: 400 },
      );
    }
    const result = await moveTicket(db, number, parsed.data, {
      staff,
      links: desk.links,
      hours: desk.hours,
    });
    return answer("move", result, { values });
  }

  if (form.intent === "estimate") {
    const { input, rows, values } = readEstimateForm(form);
    const extra = { estimateRows: values, values: { note: input.note } };
    const parsed = estimateSchema.safeParse(input);
    if (!parsed.success) {
      const errors = estimateErrors(parsed.error, rows);
      return data<ActionData>(
        {
          intent: "estimate",
          ok: false,
          message: errors.lines ?? "Please check the estimate's lines.",
          errors,
          ...extra,
        },
        { status: 400 },
      );
    }
    const result = await sendEstimate(db, number, parsed.data, {
      staff,
      links: desk.links,
      taxRate: desk.taxRate,
    });
    return answer("estimate", result, extra);
  }

  if (form.intent === "deposit") {
    const values = {
      method: form.method ?? "",
      amount: form.amount ?? "",
      tendered: form.tendered ?? "",
      reference: form.reference ?? "",
    };
    const parsed = depositSchema.safeParse({ ...values, key: form.key });
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return data<ActionData>(
        {
          intent: "deposit",
          ok: false,
          message: errors.key ?? "Please check the deposit.",
          errors,
          values,
        },
        { status: 400 },
      );
    }
    const { key, amount, tendered, ...deposit } = parsed.data;
    const result = await takeDeposit(
      db,
      number,
      { ...deposit, amountCents: amount, tenderedCents: tendered, formKey: key },
      { staff },
    );
    return answer("deposit", result, { values });
  }

  if (form.intent === "collect") {
    const values = {
      paymentMethod: form.paymentMethod ?? "",
      paid: form.paid ?? "",
      reason: form.reason ?? "",
      tendered: form.tendered ?? "",
      reference: form.reference ?? "",
    };
    const parsed = collectSchema.safeParse({ ...values, key: form.key });
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return data<ActionData>(
        {
          intent: "collect",
          ok: false,
          message: errors.key ?? "Please check how it was paid.",
          errors,
          values,
        },
        { status: 400 },
      );
    }
    const { key, ...collect } = parsed.data;
    const result = await collectTicket(
      db,
      number,
      { ...collect, formKey: key },
      { staff, links: desk.links, timeZone: desk.timeZone },
    );
    return answer("collect", result, { values });
  }

  if (form.intent === "refund") {
    const values = { amount: form.amount ?? "" };
    const parsed = refundSchema.safeParse({ ...values, key: form.key });
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return data<ActionData>(
        {
          intent: "refund",
          ok: false,
          message: errors.key ?? "Please check the amount to refund.",
          errors,
          values,
        },
        { status: 400 },
      );
    }
    const result = await refundDeposit(
      db,
      number,
      { formKey: parsed.data.key, amountCents: parsed.data.amount },
      // The counter's card provider, as for its returns (decision 023, point 7).
      { staff, cardProvider: paymentProviderFor(false) },
    );
    return answer("refund", result, { values });
  }

  return reply.unknownAction();
}

export default function AdminTicket({ loaderData, actionData }: Route.ComponentProps) {
  const shown = usePageAnswer(actionData);
  const answer = shown && "intent" in shown ? (shown as ActionData) : undefined;
  const { ticket, history } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <TicketHeader ticket={ticket} />
      {answer ? null : (
        <TicketNotices
          ticket={ticket}
          opened={loaderData.opened}
          openedDeposit={loaderData.openedDeposit}
          corrected={loaderData.corrected}
        />
      )}
      <MoveForm status={ticket.status} moves={loaderData.moves} answer={answer} />
      {loaderData.canEstimate ? (
        <EstimateForm
          status={ticket.status}
          replaces={loaderData.estimates.some((estimate) => estimate.status === "pending")}
          answer={answer}
        />
      ) : null}
      {loaderData.invoice ? (
        <Section id="ticket-invoice" title="Invoice">
          <RepairInvoice invoice={loaderData.invoice} />
        </Section>
      ) : null}
      {loaderData.canDeposit ? <DepositForm formKey={loaderData.formKey} answer={answer} /> : null}
      {loaderData.refund || answer?.intent === "refund" ? (
        <RefundForm refund={loaderData.refund} formKey={loaderData.formKey} answer={answer} />
      ) : null}
      {ticket.status === "ready" || answer?.intent === "collect" ? (
        ticket.status === "ready" ? (
          <CollectForm
            formKey={loaderData.formKey}
            collectAmount={loaderData.collectAmount}
            approvedTotal={loaderData.approvedTotal}
            paidBefore={loaderData.paidBefore}
            answer={answer}
          />
        ) : (
          <Message answer={answer} intent="collect" />
        )
      ) : null}
      <TicketDetails ticket={ticket} />
      <Photos photos={loaderData.photos} />
      <Estimates estimates={loaderData.estimates} />
      <TicketHistory history={history} />
    </div>
  );
}
