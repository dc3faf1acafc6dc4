import { useEffect, useState } from "react";
import { Form, redirect, useFetcher, useNavigation } from "react-router";
import { FormField, FormMessage, SelectField, TextareaField } from "#app/components/form-field.tsx";
import { HoneypotField, SenderFields, ServiceField } from "#app/components/sender-fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { getSignedInUser } from "#app/domain/accounts/session.server.ts";
import { lastShippingDetails } from "#app/domain/orders/customer-orders.server.ts";
import { bookingSchema, SUCCESS_AWAITING_EMAIL } from "#app/domain/repairs/booking-input.ts";
import {
  availableSlots,
  bookAppointment,
  firstDateWithPlaces,
} from "#app/domain/repairs/bookings.server.ts";
import { bookingRules } from "#app/domain/repairs/rules.server.ts";
import { shopToday } from "#app/domain/repairs/slots.ts";
import { addDays } from "#app/lib/shop-time.ts";
import { SERVICE_TYPES } from "#app/lib/catalog.ts";
import { clientIp } from "#app/lib/client-ip.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/service-request-form";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Book an Appointment",
    "Book a repair appointment: free diagnostics and estimates, walk-ins welcome.",
  );

export const headers: Route.HeadersFunction = () => privatePageHeaders();

type Values = {
  name: string;
  email: string;
  phone: string;
  serviceType: string;
  issue: string;
  preferredDate: string;
  preferredTime: string;
};

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const now = new Date();
  const rules = bookingRules();
  const requested = url.searchParams.get("preferredDate") ?? url.searchParams.get("date") ?? "";
  const { date, slots } = /^\d{4}-\d{2}-\d{2}$/.test(requested)
    ? { date: requested, slots: await availableSlots(getDb(), requested, rules, now) }
    : await firstDateWithPlaces(getDb(), rules, now);
  const user = await getSignedInUser(request);
  const last = user ? await lastShippingDetails(getDb(), user.id) : null;
  const service = url.searchParams.get("service") ?? url.searchParams.get("serviceType") ?? "";
  // Without JavaScript, "Show times" submits the form by GET: what was typed comes back here.
  const typed = (name: keyof Values) => url.searchParams.get(name) ?? "";
  const today = shopToday(rules, now);
  return {
    date,
    minDate: today,
    maxDate: addDays(today, rules.daysAhead),
    slots: slots.map((slot) => ({ time: slot.time, placesLeft: slot.placesLeft })),
    defaults: {
      name: typed("name") || (user ? `${user.firstName ?? ""} ${user.lastName ?? ""}`.trim() : ""),
      email: typed("email") || user?.email || "",
      phone: typed("phone") || last?.phone || "",
      serviceType: (SERVICE_TYPES as readonly string[]).includes(service) ? service : "",
      issue: typed("issue"),
      preferredDate: date,
      preferredTime: typed("preferredTime"),
    } satisfies Values,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const values: Values = {
    name: form.name ?? "",
    email: form.email ?? "",
    phone: form.phone ?? "",
    serviceType: form.serviceType ?? "",
    issue: form.issue ?? "",
    preferredDate: form.preferredDate ?? "",
    preferredTime: form.preferredTime ?? "",
  };
  // A field people never see: only bots fill it in. They are told all went well.
  if (form.website) throw redirect("/service-request-success");
  const parsed = bookingSchema.safeParse(values);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return reply.refused("invalid", Object.values(errors)[0] ?? "", { errors, values });
  }
  const env = getEnv();
  const account = await getSignedInUser(request);
  let result;
  try {
    result = await bookAppointment(getDb(), parsed.data, {
      rules: bookingRules(env),
      now: new Date(),
      clientIp: clientIp(request),
      shopEmail: env.SHOP_EMAIL,
      publicUrl: publicUrl(env),
      secret: authSecret(env),
      provenEmail: account?.emailVerified ? account.email : null,
    });
  } catch (error) {
    // Spec §8: the request could not be stored; it is logged and the form stays as typed.
    console.error("A repair booking could not be stored", error);
    return reply.refused(
      "unavailable",
      "Could not book your appointment. Please try again, or call us.",
      { values },
    );
  }
  if (result.ok) {
    throw redirect(
      result.status === "booked"
        ? "/service-request-success"
        : `/service-request-success?${SUCCESS_AWAITING_EMAIL}`,
    );
  }
  if (result.reason === "rate-limited") {
    return reply.refused("rate-limited", result.message, { values });
  }
  if (result.reason === "address-rate-limited") {
    return reply.refused("rate-limited", result.message, {
      errors: { email: result.message },
      values,
    });
  }
  // The time cannot be booked (taken meanwhile, gone by, not a time the shop is open).
  return reply.refused("conflict", result.message, {
    errors: { preferredTime: result.message },
    values: { ...values, preferredTime: "" },
  });
}

export default function BookAppointment({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const times = useFetcher<typeof loader>();
  const values = actionData?.values ?? loaderData.defaults;
  const errors: Record<string, string | undefined> = errorsOf(actionData);
  const [date, setDate] = useState(values.preferredDate);
  useEffect(() => setDate(values.preferredDate), [values.preferredDate]);
  // Times for the chosen date: the page's own, or fetched when the date changes.
  const slots =
    times.data && times.data.date === date
      ? times.data.slots
      : date === loaderData.date
        ? loaderData.slots
        : [];
  const loadingTimes = times.state !== "idle";

  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold">Book an Appointment</h1>
      <p className="mt-2 text-muted-foreground">
        Diagnostics and estimates are free, and walk-ins are always welcome. Pick a time and we will
        have a technician ready for you.
      </p>
      {actionData && !actionData.errors ? (
        <div className="mt-4">
          <FormMessage tone="error">{actionData.message}</FormMessage>
        </div>
      ) : null}
      <Form method="post" noValidate className="mt-6 grid gap-4 sm:grid-cols-2">
        <SenderFields values={values} errors={errors} phone />
        <ServiceField value={values.serviceType} error={errors.serviceType} required />
        <TextareaField
          label="Device and problem"
          name="issue"
          rows={4}
          required
          maxLength={2000}
          placeholder="e.g. Dell XPS 13: does not turn on after a spill"
          defaultValue={values.issue}
          error={errors.issue}
          className="sm:col-span-2"
        />
        <div className="flex flex-col gap-2">
          <FormField
            label="Preferred date"
            name="preferredDate"
            type="date"
            required
            min={loaderData.minDate}
            max={loaderData.maxDate}
            value={date}
            onChange={(event) => {
              setDate(event.target.value);
              if (/^\d{4}-\d{2}-\d{2}$/.test(event.target.value)) {
                times.load(`/service-request-form?date=${event.target.value}`);
              }
            }}
            error={errors.preferredDate}
          />
          <noscript>
            <Button type="submit" formMethod="get" variant="outline" size="sm">
              Show times for this date
            </Button>
          </noscript>
        </div>
        <SelectField
          key={`${date}-${slots.map((slot) => slot.time).join()}`}
          label="Preferred time"
          name="preferredTime"
          required
          defaultValue={values.preferredTime}
          error={errors.preferredTime}
          disabled={loadingTimes}
          placeholder={
            loadingTimes
              ? "Loading times…"
              : slots.length
                ? "Choose a time"
                : "No times left on this date"
          }
          options={slots.map((slot) => slot.time)}
        />
        <HoneypotField id="booking-website" name="website" />
        <div className="sm:col-span-2">
          <Button type="submit" size="lg" disabled={navigation.state === "submitting"}>
            Book Appointment
          </Button>
        </div>
      </Form>
    </div>
  );
}
