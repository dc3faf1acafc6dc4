import { staffOf } from "#app/domain/accounts/staff.ts";
import { ArrowLeft } from "#app/components/ui/icons.tsx";
import { data, Link, redirect, useNavigation } from "react-router";
import { DataTable } from "#app/components/admin/data-table.tsx";
import { BirthDateCorrection } from "#app/components/admin/customers/birth-date-correction.tsx";
import {
  appointmentColumns,
  orderColumns,
} from "#app/components/admin/customers/customer-columns.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import { birthDateCorrectionSchema } from "#app/domain/customers/birth-date-input.ts";
import { birthDateHistory, correctBirthDate } from "#app/domain/customers/birth-date.server.ts";
import { getCustomerForAdmin } from "#app/domain/customers/admin-customers.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopDate } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.customers.$customerId";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(
    loaderData ? `Customer ${loaderData.customer.email}` : "Customer",
    "A customer's details, orders and repair appointments.",
  ),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "customers");
  let detail;
  try {
    detail = await getCustomerForAdmin(getDb(), params.customerId);
  } catch (error) {
    console.error("A customer's page could not be loaded", error);
    throw data("This customer could not be shown right now.", { status: 503 });
  }
  if (!detail) throw data("This customer does not exist.", { status: 404 });
  const birthDates = await birthDateHistory(getDb(), params.customerId);
  return { ...detail, birthDates, timeZone: getEnv().SHOP_TIME_ZONE };
}

/** Staff correct the date of birth the customer cannot change themselves. */
export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaffAction(request, "customers");
  const form = await readForm(request);
  const parsed = birthDateCorrectionSchema.safeParse(form);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return reply.refused("invalid", Object.values(errors)[0] ?? "", { errors, values: form });
  }
  const changed = await correctBirthDate(getDb(), {
    customerId: params.customerId,
    dateOfBirth: parsed.data.dateOfBirth || null,
    note: parsed.data.note,
    staff: staffOf(staff),
  });
  if (!changed) throw data("This customer does not exist.", { status: 404 });
  throw redirect(`/admin/customers/${encodeURIComponent(params.customerId)}`);
}

export default function AdminCustomer({ loaderData, actionData }: Route.ComponentProps) {
  const { customer, timeZone } = loaderData;
  const navigation = useNavigation();
  const errors: Record<string, string | undefined> = errorsOf(actionData);
  const name = [customer.firstName, customer.lastName].filter(Boolean).join(" ");
  return (
    <>
      <Link
        to="/admin/customers"
        className="inline-flex items-center gap-1 text-sm font-medium text-primary underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to customers
      </Link>
      <h1 className="mt-3 text-3xl font-bold break-words">{name || customer.email}</h1>

      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 rounded-xl border bg-card p-5 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">E-mail</dt>
        <dd className="break-all">
          <a href={`mailto:${customer.email}`} className="text-primary underline">
            {customer.email}
          </a>
        </dd>
        <dt className="font-medium">First name</dt>
        <dd>{customer.firstName ?? "—"}</dd>
        <dt className="font-medium">Last name</dt>
        <dd>{customer.lastName ?? "—"}</dd>
        <dt className="font-medium">Date of birth</dt>
        <dd>{customer.dateOfBirth ?? "—"}</dd>
        <dt className="font-medium">Joined</dt>
        <dd>{formatShopDate(new Date(customer.createdAt), timeZone)}</dd>
      </dl>

      <BirthDateCorrection
        dateOfBirth={customer.dateOfBirth}
        birthDates={loaderData.birthDates}
        values={actionData?.values}
        errors={errors}
        busy={navigation.state !== "idle"}
        timeZone={timeZone}
      />

      <section aria-labelledby="orders-heading" className="mt-8">
        <h2 id="orders-heading" className="text-xl font-semibold">
          Orders
        </h2>
        {loaderData.moreOrders ? (
          <p className="mt-1 text-sm text-muted-foreground">
            The newest {loaderData.orders.length} orders.
          </p>
        ) : null}
        <DataTable
          caption={`Orders of ${customer.email}, newest first`}
          columns={orderColumns(timeZone)}
          rows={loaderData.orders}
          rowKey={(order) => order.id}
          empty="No orders yet."
          page={1}
          pageCount={1}
        />
      </section>

      <section aria-labelledby="repairs-heading" className="mt-8">
        <h2 id="repairs-heading" className="text-xl font-semibold">
          Repair appointments
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Booked with this e-mail address
          {loaderData.moreAppointments
            ? `; the newest ${loaderData.appointments.length} are shown`
            : ""}
          .
        </p>
        <DataTable
          caption={`Repair appointments of ${customer.email}, newest first`}
          columns={appointmentColumns(timeZone)}
          rows={loaderData.appointments}
          rowKey={(booking) => booking.id}
          empty="No repair appointments."
          page={1}
          pageCount={1}
        />
      </section>
    </>
  );
}
