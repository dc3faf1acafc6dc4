import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useNavigation, type ShouldRevalidateFunction } from "react-router";
import { FormField, FormMessage, SelectField, TextareaField } from "#app/components/form-field.tsx";
import { EstimateTable } from "#app/components/repair-estimate.tsx";
import { RepairStatusBadge } from "#app/components/repair-status-badge.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { ArrowLeft } from "#app/components/ui/icons.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireAdmin, requireAdminAction } from "#app/domain/accounts/session.server.ts";
import {
  repairDesk,
  staffOf,
  ticketNumberParam,
} from "#app/domain/repair-tickets/shop-context.server.ts";
import {
  CORRECTABLE_FIELDS,
  isWorkAhead,
  NEXT_STATUSES,
  paidDifference,
  PAYMENT_LABELS,
  PAYMENT_METHODS,
  promisedDateLabel,
  STATUS_LABELS,
  statusesBefore,
  ticketLabel,
  type CorrectableField,
  type TicketCorrection,
  type TicketStatus,
} from "#app/domain/repair-tickets/status.ts";
import {
  ticketReceiptPath,
  ticketStatusPath,
} from "#app/domain/repair-tickets/status-link.server.ts";
import {
  collectSchema,
  ESTIMATE_FORM_ROWS,
  estimateErrors,
  MAX_ESTIMATE_LINES,
  estimateSchema,
  moveSchema,
  readEstimateForm,
  type EstimateRowValues,
} from "#app/domain/repair-tickets/ticket-input.ts";
import {
  collectTicket,
  deviceName,
  FAILURE_STATUS,
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

/** The button that makes each manual move, in the bench's words. */
const MOVE_WORDS: Partial<Record<TicketStatus, string>> = {
  diagnosing: "Start diagnosing",
  repairing: "Start the repair",
  ready: "Mark ready for pickup",
  returned: "Return unrepaired",
};

const ESTIMATE_STATE = {
  pending: "Waiting for the customer",
  approved: "Approved",
  declined: "Declined",
  superseded: "Replaced by a newer estimate",
} as const;

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** A corrected field's value as the intake form shows it. */
function correctedValue(change: TicketCorrection, value: string | null) {
  if (value === null || value === "") return "(blank)";
  return change.field === "promised_date" ? promisedDateLabel(value) : value;
}

/** The fields a correction changed, named as the intake form names them, from the address. */
function correctedFields(param: string | null): string[] {
  return (param ?? "")
    .split(",")
    .filter((field): field is CorrectableField => field in CORRECTABLE_FIELDS)
    .map((field) => CORRECTABLE_FIELDS[field]);
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const number = ticketNumberParam(params.number) ?? notFound();
  const found = (await getTicket(getDb(), number)) ?? notFound();
  const desk = repairDesk();
  const when = (date: Date) => formatShopDateTime(date, desk.timeZone);
  const { ticket, events, estimates, photos } = found;
  const approved = estimates.find((estimate) => estimate.status === "approved");
  const search = new URL(request.url).searchParams;
  const collected = ticket.status === "collected" && ticket.paymentMethod !== null;
  return {
    opened: search.has("opened"),
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
        ? `${PAYMENT_LABELS[ticket.paymentMethod!]}, ${formatUsd(ticket.paidCents ?? 0)}`
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
    collectAmount: dollars(approved?.totalCents ?? 0),
    approvedTotal: formatUsd(approved?.totalCents ?? 0),
    history: events.map((event) => ({
      id: event.id,
      when: when(event.createdAt),
      from: event.fromStatus ? STATUS_LABELS[event.fromStatus] : null,
      to: STATUS_LABELS[event.toStatus],
      by:
        event.actorName ||
        (event.actorId
          ? "a former staff member"
          : // Only the back office corrects a ticket and names who did; nameless, it was changed
            // in the database directly.
            event.changes
            ? "someone outside the back office"
            : "the customer"),
      note: event.note,
      changes: event.changes?.map((change) => ({
        field: CORRECTABLE_FIELDS[change.field],
        from: correctedValue(change, change.from),
        to: correctedValue(change, change.to),
      })),
    })),
    estimates: estimates.map((estimate) => ({
      ...estimate,
      state: ESTIMATE_STATE[estimate.status],
      sent: when(estimate.createdAt),
      decided: estimate.decidedAt ? when(estimate.decidedAt) : null,
    })),
  };
}

/** A move refused because someone else changed the ticket: show the ticket as it is now. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  actionStatus,
  defaultShouldRevalidate,
}) => actionStatus === 409 || defaultShouldRevalidate;

type Intent = "move" | "estimate" | "collect";
type ActionData = {
  intent: Intent;
  ok: boolean;
  message: string;
  errors?: Record<string, string | undefined>;
  values?: Record<string, string>;
  estimateRows?: EstimateRowValues[];
  /** New per sent estimate, so the emptied form replaces the typed one. */
  sentId?: string;
};

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
    { status: FAILURE_STATUS[result.reason] },
  );
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireAdminAction(request);
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

  if (form.intent === "collect") {
    const values = {
      paymentMethod: form.paymentMethod ?? "",
      paid: form.paid ?? "",
      reason: form.reason ?? "",
    };
    const parsed = collectSchema.safeParse(values);
    if (!parsed.success) {
      return data<ActionData>(
        {
          intent: "collect",
          ok: false,
          message: "Please check how it was paid.",
          errors: fieldErrors(parsed.error),
          values,
        },
        { status: 400 },
      );
    }
    const result = await collectTicket(db, number, parsed.data, {
      staff,
      links: desk.links,
      timeZone: desk.timeZone,
    });
    return answer("collect", result, { values });
  }

  return data({ error: "Unknown action." }, { status: 400 });
}

type LoaderData = Route.ComponentProps["loaderData"];

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-muted-foreground">{term}</dt>
      <dd className="min-w-0 break-words whitespace-pre-wrap">{children}</dd>
    </div>
  );
}

function useBusy(intent: Intent) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl border bg-card p-5">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Message({ answer, intent }: { answer: ActionData | undefined; intent: Intent }) {
  if (answer?.intent !== intent || !answer.message) return null;
  return (
    <div className="mb-3">
      <FormMessage tone={answer.ok ? "success" : "error"}>{answer.message}</FormMessage>
    </div>
  );
}

function MoveForm({ loaderData, answer }: { loaderData: LoaderData; answer?: ActionData }) {
  const busy = useBusy("move");
  const mine = answer?.intent === "move" ? answer : undefined;
  const { ticket, moves } = loaderData;
  return (
    <Section id="ticket-move" title="Next step">
      <Message answer={answer} intent="move" />
      {moves.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {ticket.status === "estimate_sent"
            ? "Waiting for the customer to approve or decline the estimate."
            : ticket.status === "ready"
              ? "Waiting for the customer to collect it (below)."
              : ticket.status === "diagnosing"
                ? "Send an estimate (below), or return the device unrepaired."
                : "Nothing left to do for this ticket."}
        </p>
      ) : (
        <Form key={mine?.sentId ?? "move"} method="post" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="move" />
          {/* The status seen here: if someone moved the ticket meanwhile, this move is refused. */}
          <input type="hidden" name="from" value={ticket.status} />
          <TextareaField
            label="Note (optional)"
            name="note"
            rows={2}
            maxLength={500}
            defaultValue={mine && !mine.ok ? mine.values?.note : ""}
            error={mine?.errors?.note}
          />
          <div className="flex flex-wrap gap-2">
            {moves.map((to) => (
              <Button
                key={to}
                type="submit"
                name="to"
                value={to}
                variant={to === "returned" ? "outline" : "default"}
                disabled={busy}
              >
                {MOVE_WORDS[to] ?? STATUS_LABELS[to]}
              </Button>
            ))}
          </div>
        </Form>
      )}
    </Section>
  );
}

function EstimateLine({
  row,
  values,
  errors,
}: {
  row: number;
  values: EstimateRowValues | undefined;
  errors: Record<string, string | undefined>;
}) {
  const error = (field: string) => errors[`lines.${row}.${field}`];
  // Each field's name carries its line, for lists of a form's fields that leave out the group.
  const line = <span className="sr-only">Line {row + 1} </span>;
  return (
    <fieldset className="grid gap-3 rounded-md border p-3 sm:grid-cols-[8rem_1fr_5rem_8rem]">
      <legend className="px-1 text-sm font-medium">Line {row + 1}</legend>
      <SelectField
        id={`estimate-line-${row}-kind`}
        label={<>{line}Kind</>}
        name={`lines.${row}.kind`}
        defaultValue={values?.kind ?? (row === 0 ? "labour" : "part")}
        error={error("kind")}
        options={[
          { value: "labour", label: "Labour" },
          { value: "part", label: "Part" },
        ]}
      />
      <FormField
        label={<>{line}Description</>}
        name={`lines.${row}.description`}
        maxLength={120}
        autoComplete="off"
        defaultValue={values?.description}
        error={error("description")}
      />
      <FormField
        label={<>{line}Qty</>}
        name={`lines.${row}.quantity`}
        inputMode="numeric"
        autoComplete="off"
        defaultValue={values?.quantity ?? "1"}
        error={error("quantity")}
      />
      <FormField
        label={<>{line}Unit price ($)</>}
        name={`lines.${row}.unitPrice`}
        inputMode="decimal"
        autoComplete="off"
        defaultValue={values?.unitPrice}
        error={error("unitPrice")}
      />
    </fieldset>
  );
}

/**
 * The estimate's lines: the first five as plain form rows (all a browser without JavaScript
 * needs), and with JavaScript an "Add line" button for more, up to the most an estimate has.
 */
function EstimateLines({ kept }: { kept: ActionData | undefined }) {
  const hydrated = useHydrated();
  const [count, setCount] = useState(kept?.estimateRows?.length ?? ESTIMATE_FORM_ROWS);
  const added = useRef<number | null>(null);
  useEffect(() => {
    if (added.current === null) return;
    document.getElementById(`estimate-line-${added.current}-kind`)?.focus();
    added.current = null;
  }, [count]);
  return (
    <>
      {Array.from({ length: count }, (_, row) => (
        <EstimateLine
          key={row}
          row={row}
          values={kept?.estimateRows?.[row]}
          errors={kept?.errors ?? {}}
        />
      ))}
      {hydrated ? (
        count < MAX_ESTIMATE_LINES ? (
          <div>
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                added.current = count;
                setCount(count + 1);
              }}
            >
              Add line
            </Button>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">
            An estimate has at most {MAX_ESTIMATE_LINES} lines.
          </p>
        )
      ) : null}
    </>
  );
}

function EstimateForm({ loaderData, answer }: { loaderData: LoaderData; answer?: ActionData }) {
  const busy = useBusy("estimate");
  const mine = answer?.intent === "estimate" ? answer : undefined;
  const kept = mine && !mine.ok ? mine : undefined;
  const errors = kept?.errors ?? {};
  const replaces = loaderData.estimates.some((estimate) => estimate.status === "pending");
  return (
    <Section id="ticket-estimate" title={replaces ? "Send a new estimate" : "Send an estimate"}>
      <Message answer={answer} intent="estimate" />
      <p className="mb-3 text-sm text-muted-foreground">
        Up to {MAX_ESTIMATE_LINES} lines; rows without a description or price are left out. Sales
        tax is added by the shop. The customer is e-mailed a link to approve or decline
        {replaces ? "; this replaces the estimate they have now" : ""}.
      </p>
      <Form
        key={mine?.ok ? mine.sentId : "estimate"}
        method="post"
        noValidate
        className="flex flex-col gap-4"
      >
        <input type="hidden" name="intent" value="estimate" />
        <input type="hidden" name="from" value={loaderData.ticket.status} />
        <EstimateLines kept={kept} />
        <TextareaField
          label="Note to the customer (optional)"
          name="note"
          rows={2}
          maxLength={1000}
          defaultValue={kept?.values?.note}
          error={errors.note}
        />
        <div>
          <Button type="submit" disabled={busy}>
            Send estimate
          </Button>
        </div>
      </Form>
    </Section>
  );
}

function CollectForm({ loaderData, answer }: { loaderData: LoaderData; answer?: ActionData }) {
  const busy = useBusy("collect");
  const mine = answer?.intent === "collect" ? answer : undefined;
  const errors = mine?.errors ?? {};
  return (
    <Section id="ticket-collect" title="Collected by the customer">
      <Message answer={answer} intent="collect" />
      <Form method="post" noValidate className="flex flex-wrap items-start gap-3">
        <input type="hidden" name="intent" value="collect" />
        <SelectField
          label="Paid by"
          name="paymentMethod"
          defaultValue={mine?.values?.paymentMethod ?? ""}
          error={errors.paymentMethod}
          placeholder="Choose how it was paid"
          options={PAYMENT_METHODS.map((method) => ({
            value: method,
            label: PAYMENT_LABELS[method],
          }))}
        />
        <FormField
          label="Amount paid ($)"
          name="paid"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={mine?.values?.paid ?? loaderData.collectAmount}
          error={errors.paid}
        />
        <FormField
          label="Reason for another amount"
          name="reason"
          maxLength={300}
          autoComplete="off"
          hint={`Needed when the amount is not the approved ${loaderData.approvedTotal}.`}
          defaultValue={mine?.values?.reason}
          error={errors.reason}
          className="basis-full sm:basis-auto sm:grow"
        />
        <Button type="submit" disabled={busy} className="sm:mt-6">
          Mark collected
        </Button>
      </Form>
    </Section>
  );
}

function Photos({ loaderData }: { loaderData: LoaderData }) {
  if (loaderData.photos.length === 0) return null;
  return (
    <Section id="ticket-photos" title="Intake photos">
      <ul className="flex flex-wrap gap-3">
        {loaderData.photos.map((photo) => (
          <li key={photo.id}>
            {/* The full photo, to zoom into a scratch or a serial plate. */}
            <a href={photo.src} className="block">
              <img
                src={photo.src}
                alt={photo.alt}
                width={photo.width}
                height={photo.height}
                loading="lazy"
                className="h-32 w-auto rounded-md border object-cover"
              />
            </a>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Estimates({ loaderData }: { loaderData: LoaderData }) {
  if (loaderData.estimates.length === 0) return null;
  return (
    <Section id="ticket-estimates" title="Estimates">
      <ol className="flex flex-col gap-5">
        {loaderData.estimates.map((estimate) => (
          <li key={estimate.id}>
            <h3 className="font-medium">
              Estimate {estimate.version}: {estimate.state}
            </h3>
            <p className="text-sm text-muted-foreground">
              Sent {estimate.sent}
              {estimate.decided ? ` · ${estimate.state} ${estimate.decided}` : ""}
            </p>
            {estimate.note ? <p className="mt-1 text-sm">Note: {estimate.note}</p> : null}
            <div className="mt-2">
              <EstimateTable estimate={estimate} />
            </div>
          </li>
        ))}
      </ol>
    </Section>
  );
}

export default function AdminTicket({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData && "intent" in actionData ? (actionData as ActionData) : undefined;
  const { ticket, history } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <Link
          to="/admin/repairs"
          className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to Repairs
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-bold">Ticket {ticket.label}</h1>
          <RepairStatusBadge status={ticket.status} />
          {ticket.overdue ? <span className="font-semibold text-destructive">Overdue</span> : null}
        </div>
        <p className="mt-1 text-sm text-muted-foreground">
          {ticket.device} · opened {ticket.opened}
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Link
            to={`/admin/repairs/${ticket.label}/claim`}
            className={buttonVariants({ variant: "outline" })}
          >
            Print claim ticket
          </Link>
          <a href={ticket.statusPath} className={buttonVariants({ variant: "outline" })}>
            Customer&apos;s status page
          </a>
          {ticket.receiptPath ? (
            <a href={ticket.receiptPath} className={buttonVariants({ variant: "outline" })}>
              Print receipt
            </a>
          ) : null}
          <Link
            to={`/admin/repairs/${ticket.label}/edit`}
            className={buttonVariants({ variant: "outline" })}
          >
            Correct details
          </Link>
        </div>
      </div>
      {loaderData.opened && !answer ? (
        <FormMessage tone="success">
          Ticket {ticket.label} is open. {ticket.email} was sent its number and status link.
        </FormMessage>
      ) : null}
      {loaderData.corrected.length > 0 && !answer ? (
        <FormMessage tone="success">
          Ticket {ticket.label} is corrected: {loaderData.corrected.join(", ")}.
        </FormMessage>
      ) : null}
      <MoveForm loaderData={loaderData} answer={answer} />
      {loaderData.canEstimate ? <EstimateForm loaderData={loaderData} answer={answer} /> : null}
      {ticket.status === "ready" || answer?.intent === "collect" ? (
        ticket.status === "ready" ? (
          <CollectForm loaderData={loaderData} answer={answer} />
        ) : (
          <Message answer={answer} intent="collect" />
        )
      ) : null}
      <Section id="ticket-details" title="Customer and device">
        <dl className="divide-y">
          <Detail term="Customer">{ticket.name}</Detail>
          <Detail term="E-mail">
            <a href={`mailto:${ticket.email}`}>{ticket.email}</a>
          </Detail>
          <Detail term="Phone">
            <a href={`tel:${ticket.phone.replace(/[^\d+]/g, "")}`}>{ticket.phone}</a>
          </Detail>
          <Detail term="Service">{ticket.serviceType}</Detail>
          <Detail term="Device">{ticket.device}</Detail>
          <Detail term="Serial / IMEI">{ticket.serial ?? "Not given"}</Detail>
          <Detail term="Problem">{ticket.problem}</Detail>
          <Detail term="Condition">{ticket.condition}</Detail>
          <Detail term="Accessories">{ticket.accessories || "None"}</Detail>
          <Detail term="Promised">{ticket.promised}</Detail>
          {ticket.paid ? <Detail term="Paid">{ticket.paid}</Detail> : null}
          {ticket.difference ? <Detail term="Difference">{ticket.difference}</Detail> : null}
        </dl>
      </Section>
      <Photos loaderData={loaderData} />
      <Estimates loaderData={loaderData} />
      <Section id="ticket-history" title="History">
        <ol className="flex flex-col gap-2 text-sm">
          {history.map((event) => (
            <li key={event.id}>
              <span className="text-muted-foreground">{event.when}</span>{" "}
              <span className="font-medium">
                {event.changes
                  ? "Details corrected"
                  : event.from
                    ? `${event.from} → ${event.to}`
                    : event.to}
              </span>{" "}
              by {event.by}
              {event.note ? <span className="text-muted-foreground"> · {event.note}</span> : null}
              {event.changes ? (
                <ul className="mt-1 ml-4 list-disc whitespace-pre-wrap">
                  {event.changes.map((change) => (
                    <li key={change.field}>
                      {change.field}: {change.from} → {change.to}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      </Section>
    </div>
  );
}
