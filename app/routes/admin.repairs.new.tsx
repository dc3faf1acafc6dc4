import { randomUUID } from "node:crypto";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { DepositFields } from "#app/components/admin/repairs/deposit-fields.tsx";
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
import {
  findReturningCustomers,
  returningCustomer,
} from "#app/domain/repair-tickets/corrections.server.ts";
import { repairDesk, ticketNumberParam } from "#app/domain/repair-tickets/shop-context.server.ts";
import { ticketLabel, type DeviceKind } from "#app/domain/repair-tickets/status.ts";
import {
  DEPOSIT_FIELDS,
  intakeDeposit,
  formKey,
  MAX_TICKET_PHOTOS,
  ticketSchema,
} from "#app/domain/repair-tickets/ticket-input.ts";
import { bookingForTicket, openTicket } from "#app/domain/repair-tickets/tickets.server.ts";
import { addDays } from "#app/lib/shop-time.ts";
import type { ServiceType } from "#app/lib/catalog.ts";
import { positiveInt, privatePageHeaders } from "#app/lib/http.server.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply, type Answer, type RefusalReason } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.repairs.new";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("New repair ticket", "Check a device in at the counter."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

const FIELDS = ["serviceRequestId", ...TICKET_FIELDS, ...DEPOSIT_FIELDS] as const;
type Values = TicketFieldValues &
  Record<(typeof DEPOSIT_FIELDS)[number], string> & { serviceRequestId: string };

/** The kind of device a booked service is most likely about; staff can change it. */
const LIKELY_KIND: Partial<Record<ServiceType, DeviceKind>> = {
  "PC & Laptop Repair": "Laptop",
  "Mobile Phone Repair": "Phone",
  "Game Console Repair": "Game console",
  "TV & Home Electronics": "TV",
};

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "repairs");
  const { today } = repairDesk();
  const values = Object.fromEntries(FIELDS.map((field) => [field, ""])) as Values;
  values.promisedDate = addDays(today, 3);
  const search = new URL(request.url).searchParams;
  const bookingParam = search.get("booking");
  let booking: { id: number; existingTicket: string | null; cancelled: boolean } | null = null;
  if (bookingParam !== null) {
    const id = positiveInt(bookingParam);
    const found = id ? await bookingForTicket(getDb(), id) : null;
    if (!found) throw data("There is no such confirmed repair booking.", { status: 404 });
    booking = {
      id: found.id,
      existingTicket: found.ticket ? ticketLabel(found.ticket) : null,
      cancelled: found.cancelledAt !== null,
    };
    Object.assign(values, {
      serviceRequestId: String(found.id),
      name: found.name,
      email: found.email,
      phone: found.phone,
      serviceType: found.serviceType,
      deviceKind: LIKELY_KIND[found.serviceType] ?? "",
      problem: found.issue,
    });
  }
  // A returning customer picked from the lookup: their details from an earlier ticket or account.
  const fromTicket = search.get("from");
  const fromAccount = search.get("account");
  if (!booking && (fromTicket !== null || fromAccount !== null)) {
    const number = ticketNumberParam(fromTicket ?? undefined);
    const customer =
      fromAccount !== null
        ? await returningCustomer(getDb(), { accountId: fromAccount })
        : number
          ? await returningCustomer(getDb(), { ticket: number })
          : null;
    if (!customer) throw data("There is no such earlier customer.", { status: 404 });
    Object.assign(values, customer);
  }
  const query = booking ? null : search.get("customer");
  const lookup = query === null ? null : await lookUp(query);
  return {
    values,
    /** The form's own key: sent twice with a deposit, it opens one ticket and takes it once. */
    formKey: randomUUID(),
    booking,
    today,
    lookup,
    // A new starting point (a customer picked) gives the form new starting values.
    startedFrom: fromTicket ?? fromAccount ?? "",
  };
}

/** The intake form's lookup of a returning customer, with the address that picks each. */
async function lookUp(query: string) {
  const found = await findReturningCustomers(getDb(), query);
  if (!found.ok) return { query, message: found.message, customers: [] };
  return {
    query,
    message: null,
    customers: found.customers.map((customer) => ({
      ...customer,
      lastTicket: customer.lastTicket && {
        label: ticketLabel(customer.lastTicket.number),
        device: customer.lastTicket.device,
      },
      use: customer.lastTicket
        ? `/admin/repairs/new?from=${ticketLabel(customer.lastTicket.number)}`
        : `/admin/repairs/new?account=${encodeURIComponent(customer.accountId ?? "")}`,
    })),
  };
}

type ActionData = Answer<Values>;

export async function action({ request }: Route.ActionArgs) {
  const user = await requireStaffAction(request, "repairs");
  const { fields: form, fileLists } = await readFormWithFiles(request);
  const photos = fileLists.photos ?? [];
  const values = Object.fromEntries(FIELDS.map((field) => [field, form[field] ?? ""])) as Values;
  // A page sent back keeps what was typed, but no browser lets it keep the files chosen.
  const chooseAgain = photos.length > 0 ? { photos: "Please choose the photos again." } : {};
  const fail = (reason: RefusalReason, message: string, errors: ActionData["errors"] = {}) =>
    reply.refused(reason, message, { values, errors: { ...chooseAgain, ...errors } });
  const parsed = ticketSchema.safeParse({
    ...values,
    serviceRequestId: values.serviceRequestId || undefined,
  });
  // The optional deposit: none while its fields are blank, else the Deposit form's rules.
  const deposit = intakeDeposit({ ...values, key: form.key });
  if (!parsed.success || !deposit.ok) {
    const errors = {
      ...(parsed.success ? {} : fieldErrors(parsed.error)),
      ...(deposit.ok ? {} : fieldErrors(deposit.error)),
    };
    return fail("invalid", errors.key ?? "Please check the ticket's details.", errors);
  }
  const desk = repairDesk();
  const taken = deposit.deposit;
  const opened = await openTicket(getDb(), parsed.data, {
    staff: staffOf(user),
    links: desk.links,
    today: desk.today,
    // The form sent again opens no second ticket (a form without its key opens one each time).
    formKey: formKey.safeParse(form.key).data ?? null,
    deposit: taken && {
      method: taken.method,
      amountCents: taken.amount,
      tenderedCents: taken.tendered,
      reference: taken.reference,
      formKey: taken.key,
    },
    photos: await Promise.all(
      photos.map(async (file) => ({
        name: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      })),
    ),
  });
  if (!opened.ok) {
    const aboutDeposit = (DEPOSIT_FIELDS as readonly string[]).includes(opened.field ?? "");
    return fail(
      opened.reason,
      opened.field
        ? aboutDeposit
          ? "Please check the deposit."
          : "Please check the ticket's details."
        : opened.message,
      opened.field ? { [opened.field]: opened.message } : {},
    );
  }
  const deposited = opened.depositId === null ? "" : `&deposit=${opened.depositId}`;
  throw redirect(`/admin/repairs/${ticketLabel(opened.number)}?opened=1${deposited}`);
}

type Lookup = Route.ComponentProps["loaderData"]["lookup"];

/** Finds a returning customer by phone or e-mail, so their details are not typed again. */
function ReturningCustomer({ lookup }: { lookup: Lookup }) {
  return (
    <div className="mt-6 max-w-3xl rounded-xl border bg-card p-5">
      <Form method="get" className="flex flex-wrap items-start gap-3">
        <FormField
          label="Find a returning customer"
          hint="By their phone number or e-mail address, to fill in their details."
          name="customer"
          type="search"
          autoComplete="off"
          maxLength={254}
          defaultValue={lookup?.query}
          error={lookup?.message ?? undefined}
          className="grow"
        />
        <Button type="submit" variant="outline" className="sm:mt-6">
          Find
        </Button>
      </Form>
      {lookup && !lookup.message ? (
        lookup.customers.length === 0 ? (
          <p className="mt-3 text-sm text-muted-foreground">
            No earlier ticket or account has that phone number or e-mail address.
          </p>
        ) : (
          <ul className="mt-3 divide-y text-sm">
            {lookup.customers.map((customer) => (
              <li
                key={customer.use}
                className="flex flex-wrap items-center justify-between gap-3 py-2"
              >
                <div className="min-w-0">
                  <p className="font-medium break-words">
                    {customer.name} · {customer.email}
                    {customer.phone ? ` · ${customer.phone}` : ""}
                  </p>
                  <p className="text-muted-foreground">
                    {customer.lastTicket
                      ? `Last ticket ${customer.lastTicket.label}: ${customer.lastTicket.device}`
                      : "An account, no earlier ticket"}
                  </p>
                </div>
                <Link to={customer.use} className="font-medium text-primary underline">
                  Use
                  <span className="sr-only">
                    {" "}
                    {customer.name}, {customer.email}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}

export default function NewTicket({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionData | undefined;
  const values = answer?.values ?? loaderData.values;
  const errors = errorsOf(answer);
  const busy = useNavigation().state === "submitting";
  const { booking } = loaderData;
  return (
    <>
      <BackLink to="/admin/repairs">Back to Repairs</BackLink>
      <h1 className="mt-2 text-3xl font-bold">New repair ticket</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        {booking
          ? "From a booking: its details are filled in. Check them with the customer."
          : "A walk-in at the counter: find a returning customer first, or type their details."}{" "}
        The customer is e-mailed the ticket number and a link to follow the repair.
      </p>
      {booking?.existingTicket ? (
        <p className="mt-4">
          This booking already has ticket{" "}
          <Link to={`/admin/repairs/${booking.existingTicket}`} className="text-primary underline">
            {booking.existingTicket}
          </Link>
          .
        </p>
      ) : null}
      {booking ? null : <ReturningCustomer lookup={loaderData.lookup} />}
      {answer?.message ? (
        <div className="mt-4">
          <FormMessage tone="error">{answer.message}</FormMessage>
        </div>
      ) : null}
      <Form
        key={loaderData.startedFrom}
        method="post"
        encType="multipart/form-data"
        noValidate
        className="mt-6 flex max-w-3xl flex-col gap-6"
      >
        <input type="hidden" name="key" value={loaderData.formKey} />
        {values.serviceRequestId ? (
          <input type="hidden" name="serviceRequestId" value={values.serviceRequestId} />
        ) : null}
        <RepairTicketFields
          values={values}
          errors={errors}
          today={loaderData.today}
          photos={
            <FormField
              label="Photos of the device (optional)"
              name="photos"
              type="file"
              multiple
              accept="image/jpeg,image/png,image/webp,image/avif"
              hint={`Up to ${MAX_TICKET_PHOTOS} (JPEG, PNG, WebP or AVIF), 10 MB each and 40 MB together. Only staff can see them.`}
              error={errors.photos}
            />
          }
        />
        <fieldset className="flex flex-wrap items-start gap-3">
          <legend className="mb-2 text-lg font-semibold">Deposit (optional)</legend>
          <p className="basis-full text-sm text-muted-foreground">
            Taken with the ticket: cash goes into the open till. Leave it blank for none.
          </p>
          <DepositFields values={values} errors={errors} placeholder="No deposit" />
        </fieldset>
        <div>
          <Button type="submit" disabled={busy || Boolean(booking?.existingTicket)}>
            Open ticket
          </Button>
        </div>
      </Form>
    </>
  );
}
