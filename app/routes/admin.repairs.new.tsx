import { data, Form, Link, redirect, useNavigation } from "react-router";
import { FormField, FormMessage, SelectField, TextareaField } from "#app/components/form-field.tsx";
import { ArrowLeft } from "#app/components/ui/icons.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireAdmin, requireAdminAction } from "#app/domain/accounts/session.server.ts";
import { repairDesk, staffOf } from "#app/domain/repair-tickets/shop-context.server.ts";
import { DEVICE_KINDS, ticketLabel, type DeviceKind } from "#app/domain/repair-tickets/status.ts";
import { MAX_TICKET_PHOTOS, ticketSchema } from "#app/domain/repair-tickets/ticket-input.ts";
import {
  bookingForTicket,
  FAILURE_STATUS,
  openTicket,
} from "#app/domain/repair-tickets/tickets.server.ts";
import { addDays } from "#app/domain/repairs/slots.ts";
import { SERVICE_TYPES, type ServiceType } from "#app/lib/catalog.ts";
import { positiveInt, privatePageHeaders } from "#app/lib/http.server.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.repairs.new";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("New repair ticket", "Check a device in at the counter."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

const FIELDS = [
  "serviceRequestId",
  "name",
  "email",
  "phone",
  "serviceType",
  "deviceKind",
  "deviceBrand",
  "deviceModel",
  "deviceSerial",
  "problem",
  "conditionAtIntake",
  "accessories",
  "promisedDate",
] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** The kind of device a booked service is most likely about; staff can change it. */
const LIKELY_KIND: Partial<Record<ServiceType, DeviceKind>> = {
  "PC & Laptop Repair": "Laptop",
  "Mobile Phone Repair": "Phone",
  "Game Console Repair": "Game console",
  "TV & Home Electronics": "TV",
};

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { today } = repairDesk();
  const values = Object.fromEntries(FIELDS.map((field) => [field, ""])) as Values;
  values.promisedDate = addDays(today, 3);
  const bookingParam = new URL(request.url).searchParams.get("booking");
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
  return { values, booking, today };
}

type ActionData = {
  values: Values;
  errors: Record<string, string | undefined>;
  message: string;
};

export async function action({ request }: Route.ActionArgs) {
  const user = await requireAdminAction(request);
  const { fields: form, fileLists } = await readFormWithFiles(request);
  const photos = fileLists.photos ?? [];
  const values = Object.fromEntries(FIELDS.map((field) => [field, form[field] ?? ""])) as Values;
  // A page sent back keeps what was typed, but no browser lets it keep the files chosen.
  const chooseAgain = photos.length > 0 ? { photos: "Please choose the photos again." } : {};
  const fail = (status: number, message: string, errors: ActionData["errors"] = {}) =>
    data<ActionData>({ values, errors: { ...chooseAgain, ...errors }, message }, { status });
  const parsed = ticketSchema.safeParse({
    ...values,
    serviceRequestId: values.serviceRequestId || undefined,
  });
  if (!parsed.success) {
    return fail(400, "Please check the ticket's details.", fieldErrors(parsed.error));
  }
  const desk = repairDesk();
  const opened = await openTicket(getDb(), parsed.data, {
    staff: staffOf(user),
    links: desk.links,
    today: desk.today,
    photos: await Promise.all(
      photos.map(async (file) => ({
        name: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      })),
    ),
  });
  if (!opened.ok) {
    return fail(
      FAILURE_STATUS[opened.reason],
      opened.field ? "Please check the ticket's details." : opened.message,
      opened.field ? { [opened.field]: opened.message } : {},
    );
  }
  throw redirect(`/admin/repairs/${ticketLabel(opened.number)}?opened=1`);
}

export default function NewTicket({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionData | undefined;
  const values = answer?.values ?? loaderData.values;
  const errors = answer?.errors ?? {};
  const busy = useNavigation().state === "submitting";
  const { booking } = loaderData;
  return (
    <>
      <Link
        to="/admin/repairs"
        className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Repairs
      </Link>
      <h1 className="mt-2 text-3xl font-bold">New repair ticket</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        {booking
          ? "From a booking: its details are filled in. Check them with the customer."
          : "A walk-in at the counter."}{" "}
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
      {answer?.message ? (
        <div className="mt-4">
          <FormMessage tone="error">{answer.message}</FormMessage>
        </div>
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        className="mt-6 flex max-w-3xl flex-col gap-6"
      >
        {values.serviceRequestId ? (
          <input type="hidden" name="serviceRequestId" value={values.serviceRequestId} />
        ) : null}
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 text-lg font-semibold">Customer</legend>
          <FormField
            label="Name"
            name="name"
            autoComplete="off"
            defaultValue={values.name}
            error={errors.name}
            className="sm:col-span-2"
          />
          <FormField
            label="Email"
            name="email"
            type="email"
            autoComplete="off"
            defaultValue={values.email}
            error={errors.email}
          />
          <FormField
            label="Phone"
            name="phone"
            type="tel"
            autoComplete="off"
            defaultValue={values.phone}
            error={errors.phone}
          />
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 text-lg font-semibold">Device</legend>
          <SelectField
            label="Service"
            name="serviceType"
            defaultValue={values.serviceType}
            error={errors.serviceType}
          >
            <option value="">Choose a service</option>
            {SERVICE_TYPES.map((service) => (
              <option key={service} value={service}>
                {service}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Kind of device"
            name="deviceKind"
            defaultValue={values.deviceKind}
            error={errors.deviceKind}
          >
            <option value="">Choose a kind</option>
            {DEVICE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </SelectField>
          <FormField
            label="Brand"
            name="deviceBrand"
            maxLength={60}
            autoComplete="off"
            defaultValue={values.deviceBrand}
            error={errors.deviceBrand}
          />
          <FormField
            label="Model"
            name="deviceModel"
            maxLength={80}
            autoComplete="off"
            defaultValue={values.deviceModel}
            error={errors.deviceModel}
          />
          <FormField
            label="Serial number or IMEI (optional)"
            name="deviceSerial"
            maxLength={60}
            autoComplete="off"
            defaultValue={values.deviceSerial}
            error={errors.deviceSerial}
            className="sm:col-span-2"
          />
        </fieldset>
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 text-lg font-semibold">At the counter</legend>
          <TextareaField
            label="Problem, as the customer tells it"
            name="problem"
            rows={3}
            maxLength={2000}
            defaultValue={values.problem}
            error={errors.problem}
          />
          <TextareaField
            label="Condition at intake"
            name="conditionAtIntake"
            rows={2}
            maxLength={1000}
            defaultValue={values.conditionAtIntake}
            error={errors.conditionAtIntake}
          />
          <FormField
            label="Accessories left with the device (optional)"
            name="accessories"
            maxLength={500}
            autoComplete="off"
            defaultValue={values.accessories}
            error={errors.accessories}
          />
          <FormField
            label="Photos of the device (optional)"
            name="photos"
            type="file"
            multiple
            accept="image/jpeg,image/png,image/webp,image/avif"
            hint={`Up to ${MAX_TICKET_PHOTOS} (JPEG, PNG, WebP or AVIF), 10 MB each and 40 MB together. Only staff can see them.`}
            error={errors.photos}
          />
          <FormField
            label="Promised date"
            name="promisedDate"
            type="date"
            min={loaderData.today}
            defaultValue={values.promisedDate}
            error={errors.promisedDate}
            className="sm:max-w-xs"
          />
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
