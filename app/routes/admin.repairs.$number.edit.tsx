import { data, Form, redirect, useNavigation, type ShouldRevalidateFunction } from "react-router";
import { BackLink } from "#app/components/back-link.tsx";
import { staffOf } from "#app/domain/accounts/staff.ts";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import {
  RepairTicketFields,
  TICKET_FIELDS,
  type TicketFieldValues,
} from "#app/components/repair-ticket-fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import { correctTicket, detailsVersion } from "#app/domain/repair-tickets/corrections.server.ts";
import { repairDesk, ticketNumberParam } from "#app/domain/repair-tickets/shop-context.server.ts";
import { ticketLabel } from "#app/domain/repair-tickets/status.ts";
import { correctionSchema } from "#app/domain/repair-tickets/ticket-input.ts";
import { getTicket, type Ticket } from "#app/domain/repair-tickets/tickets.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply, type Answer } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.repairs.$number.edit";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(
    loaderData ? `Correct ticket ${loaderData.label}` : "Correct a repair ticket",
    "Correct what was typed at intake.",
  ),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

function notFound(): never {
  throw data("There is no such repair ticket.", { status: 404 });
}

/** The ticket's details as the form shows them. */
function formValues(ticket: Ticket): TicketFieldValues {
  return {
    name: ticket.customerName,
    email: ticket.customerEmail,
    phone: ticket.customerPhone,
    serviceType: ticket.serviceType,
    deviceKind: ticket.deviceKind,
    deviceBrand: ticket.deviceBrand,
    deviceModel: ticket.deviceModel,
    deviceSerial: ticket.deviceSerial ?? "",
    problem: ticket.problem,
    conditionAtIntake: ticket.conditionAtIntake,
    accessories: ticket.accessories,
    promisedDate: ticket.promisedDate,
  };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "repairs");
  const number = ticketNumberParam(params.number) ?? notFound();
  const { ticket } = (await getTicket(getDb(), number)) ?? notFound();
  return {
    label: ticketLabel(number),
    values: formValues(ticket),
    seen: detailsVersion(ticket),
    today: repairDesk().today,
  };
}

type ActionData = Answer<TicketFieldValues & { note: string }> & {
  /** Refused because someone else corrected the ticket meanwhile. */
  conflict?: boolean;
};

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireStaffAction(request, "repairs");
  const number = ticketNumberParam(params.number) ?? notFound();
  const form = await readForm(request);
  const values = {
    ...(Object.fromEntries(
      TICKET_FIELDS.map((field) => [field, form[field] ?? ""]),
    ) as TicketFieldValues),
    note: form.note ?? "",
  };
  const parsed = correctionSchema.safeParse({ ...values, seen: form.seen ?? "" });
  if (!parsed.success) {
    return reply.refused("invalid", "Please check the ticket's details.", {
      values,
      errors: fieldErrors(parsed.error),
    });
  }
  const desk = repairDesk();
  const result = await correctTicket(getDb(), number, parsed.data, {
    staff: staffOf(user),
    links: desk.links,
    today: desk.today,
  });
  if (!result.ok) {
    return reply.refused(
      result.reason,
      result.field ? "Please check the ticket's details." : result.message,
      {
        values,
        errors: result.field ? { [result.field]: result.message } : {},
        conflict: result.reason === "conflict",
      },
    );
  }
  if (result.changed.length === 0) {
    return reply.ok(result.message, { values, errors: {} });
  }
  throw redirect(`/admin/repairs/${ticketLabel(number)}?corrected=${result.changed.join(",")}`);
}

/** Refused because someone else corrected it: load what the ticket holds now (and its version). */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  actionStatus,
  defaultShouldRevalidate,
}) => actionStatus === 409 || defaultShouldRevalidate;

const FIELD_LABELS: Record<keyof TicketFieldValues, string> = {
  name: "Name",
  email: "Email",
  phone: "Phone",
  serviceType: "Service",
  deviceKind: "Kind of device",
  deviceBrand: "Brand",
  deviceModel: "Model",
  deviceSerial: "Serial number or IMEI",
  problem: "Problem",
  conditionAtIntake: "Condition at intake",
  accessories: "Accessories",
  promisedDate: "Promised date",
};

export default function CorrectTicket({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionData | undefined;
  const values = answer?.values ?? { ...loaderData.values, note: "" };
  const busy = useNavigation().state === "submitting";
  // After a refusal, what the ticket holds now where it differs from what was typed.
  const now = answer?.conflict
    ? TICKET_FIELDS.filter((field) => loaderData.values[field] !== values[field])
    : [];
  return (
    <>
      <BackLink to={`/admin/repairs/${loaderData.label}`}>
        Back to ticket {loaderData.label}
      </BackLink>
      <h1 className="mt-2 text-3xl font-bold">Correct ticket {loaderData.label}</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        Each change is kept in the ticket&apos;s history, with its value before and after. A
        corrected e-mail address is sent the customer&apos;s status link.
      </p>
      {answer?.message ? (
        <div className="mt-4 max-w-3xl">
          <FormMessage tone={answer.ok ? "success" : "error"}>{answer.message}</FormMessage>
        </div>
      ) : null}
      {now.length > 0 ? (
        <div className="mt-4 max-w-3xl rounded-md border p-3 text-sm">
          <p className="font-medium">On the ticket now:</p>
          <ul className="mt-1 ml-4 list-disc">
            {now.map((field) => (
              <li key={field} className="break-words whitespace-pre-wrap">
                {FIELD_LABELS[field]}: {loaderData.values[field] || "(blank)"}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" noValidate className="mt-6 flex max-w-3xl flex-col gap-6">
        {/* The details this page showed: a correction made meanwhile is not overwritten unseen. */}
        <input type="hidden" name="seen" value={loaderData.seen} />
        <RepairTicketFields values={values} errors={errorsOf(answer)} today={loaderData.today} />
        <FormField
          label="Why (optional)"
          name="note"
          maxLength={300}
          autoComplete="off"
          hint="Kept in the history, e.g. “Parts are late” or “E-mail mistyped at intake”."
          defaultValue={values.note}
          error={answer?.errors?.note}
        />
        <div>
          <Button type="submit" disabled={busy}>
            Save corrections
          </Button>
        </div>
      </Form>
    </>
  );
}
