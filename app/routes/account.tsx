import {
  ArrowLeft,
  CreditCard,
  KeyRound,
  Mail,
  Receipt,
  ShieldCheck,
  UserRound,
} from "#app/components/ui/icons.tsx";
import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { toast } from "#app/components/toasts.tsx";
import { renderSVG } from "uqr";
import { AccountAlerts } from "#app/components/account-alerts.tsx";
import { FormField, FormMessage, NewPasswordFields } from "#app/components/form-field.tsx";
import { OrderList } from "#app/components/order-card.tsx";
import { OrdersLoading, useOrdersLoading } from "#app/components/orders-loading.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import {
  callAuth,
  isPasswordProblem,
  problemMessage,
} from "#app/domain/accounts/auth-call.server.ts";
import {
  changePasswordSchema,
  fieldErrors,
  ownAlertSchema,
  profileSchema,
  totpCodeSchema,
} from "#app/domain/accounts/forms.ts";
import { requireUser } from "#app/domain/accounts/session.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/account";
import { readForm } from "#app/lib/request.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { bookingRules } from "#app/domain/repairs/rules.server.ts";
import { upcomingAppointments } from "#app/domain/repairs/bookings.server.ts";
import { updateOwnProfile } from "#app/domain/customers/birth-date.server.ts";
import { getDb } from "#app/db/client.server.ts";
import { listCustomerOrders } from "#app/domain/orders/customer-orders.server.ts";
import { returnsConfig, returnsForCustomerOrders } from "#app/domain/returns/returns.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { STATUS_LABELS, ticketLabel } from "#app/domain/repair-tickets/status.ts";
import { ticketStatusPath } from "#app/domain/repair-tickets/status-link.server.ts";
import { deviceName, ticketsForCustomer } from "#app/domain/repair-tickets/tickets.server.ts";
import { alertsOfAccount, unsubscribeOwn } from "#app/domain/alerts/alerts.server.ts";
import { ALERT_KIND_LABELS, alertStatusText, isWaiting } from "#app/domain/alerts/status.ts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("My Account", "Your personal information, password and security settings."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

// `alerts` is where the alert e-mails' "Manage your alerts" link leads: /account?section=alerts.
const SECTIONS = ["personalInfo", "password", "payment", "orders", "security", "alerts"] as const;
type Section = (typeof SECTIONS)[number];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const requested = new URL(request.url).searchParams.get("section");
  const section = SECTIONS.includes(requested as Section) ? (requested as Section) : null;
  const env = getEnv();
  const appointments = section
    ? []
    : await upcomingAppointments(getDb(), user.email, {
        now: new Date(),
        secret: authSecret(env),
        rules: bookingRules(env),
      });
  const orders = section === "orders" ? await listCustomerOrders(getDb(), user.id) : [];
  const returns =
    orders.length > 0
      ? await returnsForCustomerOrders(getDb(), orders, { config: returnsConfig() })
      : {};
  const alerts =
    section === "alerts"
      ? (await alertsOfAccount(getDb(), { userId: user.id, email: user.email })).map((alert) => ({
          id: alert.id,
          title: alert.title,
          kind: ALERT_KIND_LABELS[alert.kind],
          status: alertStatusText(alert, env.SHOP_TIME_ZONE),
          waiting: isWaiting(alert.status),
        }))
      : [];
  const repairs = section
    ? []
    : (await ticketsForCustomer(getDb(), user.id)).map((ticket) => ({
        number: ticket.number,
        label: ticketLabel(ticket.number),
        device: deviceName(ticket),
        status: STATUS_LABELS[ticket.status],
        path: ticketStatusPath(ticket.number, authSecret(env)),
      }));
  return {
    section,
    appointments,
    repairs,
    orders,
    returns,
    alerts,
    timeZone: env.SHOP_TIME_ZONE,
    user: {
      email: user.email,
      firstName: user.firstName ?? "",
      lastName: user.lastName ?? "",
      dateOfBirth: user.dateOfBirth ?? "",
      twoFactorEnabled: user.twoFactorEnabled,
    },
  };
}

/** The QR code is always drawn here, on the server, from the setup key. */
function twoFactorSetup(secretUri: string, backupCodes: string[]) {
  return { qr: renderSVG(secretUri, { border: 2 }), secretUri, backupCodes };
}

/**
 * The set-up shown again after a wrong code, as the form sent it back. Only well-formed values
 * are used; anything else simply ends the set-up screen.
 */
function setupFromForm(form: Record<string, string>) {
  const secretUri = form.setupUri ?? "";
  const backupCodes = (form.setupBackupCodes ?? "").split(",").filter(Boolean);
  if (!/^otpauth:\/\/totp\/[^\s<>"]+$/.test(secretUri)) return undefined;
  if (backupCodes.some((code) => !/^[A-Za-z0-9-]{4,32}$/.test(code))) return undefined;
  return twoFactorSetup(secretUri, backupCodes);
}

type ActionData = {
  intent: string;
  errors: Record<string, string | undefined>;
  message?: string | null;
  values?: Record<string, string>;
  setup?: { qr: string; secretUri: string; backupCodes: string[] };
};

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const intent = String(form.intent ?? "");
  const fail = (result: Omit<ActionData, "intent">, status = 400) =>
    data<ActionData>({ intent, ...result }, { status });

  if (intent === "profile") {
    const parsed = profileSchema.safeParse(form);
    if (!parsed.success) return fail({ errors: fieldErrors(parsed.error), values: form });
    const saved = await updateOwnProfile(getDb(), user.id, {
      ...parsed.data,
      dateOfBirth: parsed.data.dateOfBirth || null,
    });
    if (!saved.ok) return fail({ errors: { [saved.field]: saved.message }, values: form });
    throw redirect("/account?saved=personalInfo");
  }

  if (intent === "password") {
    const parsed = changePasswordSchema.safeParse(form);
    if (!parsed.success) return fail({ errors: fieldErrors(parsed.error) });
    const result = await callAuth(request, "/change-password", {
      currentPassword: parsed.data.currentPassword,
      newPassword: parsed.data.password,
      revokeOtherSessions: true,
    });
    if (isPasswordProblem(result)) {
      return fail({ errors: { password: problemMessage(result, "Choose another password.") } });
    }
    if (!result.ok) {
      const message = problemMessage(result, "Could not change your password.");
      return fail({
        errors: {
          currentPassword: /invalid password/i.test(message)
            ? "Your current password is not right."
            : message,
        },
      });
    }
    throw redirect("/account?saved=password", { headers: result.cookies });
  }

  if (intent === "2fa-enable") {
    if (!form.password) return fail({ errors: { password: "Please enter your password." } });
    const result = await callAuth<{ totpURI?: string; backupCodes?: string[] }>(
      request,
      "/two-factor/enable",
      { password: form.password, method: "totp" },
    );
    if (!result.ok || !result.body.totpURI) {
      return fail({
        errors: { password: problemMessage(result, "Could not start two-factor setup.") },
      });
    }
    return data<ActionData>(
      {
        intent,
        errors: {},
        setup: twoFactorSetup(result.body.totpURI, result.body.backupCodes ?? []),
      },
      { headers: result.cookies },
    );
  }

  if (intent === "2fa-verify") {
    const parsed = totpCodeSchema.safeParse(form);
    const setup = setupFromForm(form);
    if (!parsed.success) return fail({ errors: fieldErrors(parsed.error), setup });
    const result = await callAuth(request, "/two-factor/verify-totp", { code: parsed.data.code });
    if (!result.ok) {
      return fail({ errors: { code: "That code is not right. Try the newest one." }, setup });
    }
    throw redirect("/account?saved=security", { headers: result.cookies });
  }

  if (intent === "2fa-disable") {
    if (!form.password) return fail({ errors: { password: "Please enter your password." } });
    const result = await callAuth(request, "/two-factor/disable", { password: form.password });
    if (!result.ok) {
      return fail({
        errors: { password: problemMessage(result, "Could not turn two-factor off.") },
      });
    }
    throw redirect("/account?saved=security", { headers: result.cookies });
  }

  if (intent === "alert-unsubscribe") {
    const parsed = ownAlertSchema.safeParse(form);
    const account = { userId: user.id, email: user.email };
    // Someone else's alert (or none) is not found here, whoever's it is.
    if (!parsed.success || !(await unsubscribeOwn(getDb(), account, parsed.data.id))) {
      return fail({ errors: {}, message: "There is no such alert among yours." }, 404);
    }
    throw redirect("/account?section=alerts&saved=alerts");
  }

  return fail({ errors: {}, message: "Unknown request." });
}

const CARDS: { section: Section; title: string; text: string; icon: typeof UserRound }[] = [
  {
    section: "personalInfo",
    title: "Update Personal Information",
    text: "Your name and date of birth.",
    icon: UserRound,
  },
  { section: "password", title: "Change Password", text: "Choose a new password.", icon: KeyRound },
  {
    section: "payment",
    title: "Manage Payment Methods",
    text: "How paying by card works here.",
    icon: CreditCard,
  },
  {
    section: "orders",
    title: "View Order History",
    text: "Everything you have ordered.",
    icon: Receipt,
  },
  {
    section: "security",
    title: "Two-Factor Authentication",
    text: "A code from your phone at sign-in.",
    icon: ShieldCheck,
  },
  {
    section: "alerts",
    title: "My Alerts",
    text: "Titles you asked us to e-mail you about.",
    icon: Mail,
  },
];

const SAVED: Record<string, string> = {
  personalInfo: "Your personal information is saved.",
  password: "Your password is changed. Other devices have been signed out.",
  security: "Your two-factor settings are saved.",
  alerts: "Your alert is cancelled: we will not e-mail you about that title.",
};

function BackButton() {
  return (
    <Link to="/account" className={buttonVariants({ variant: "outline", size: "sm" })}>
      <ArrowLeft aria-hidden="true" />
      Back
    </Link>
  );
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { user } = loaderData;
  const navigation = useNavigation();
  // The order history opens at once, with its loading text, while the orders are on their way.
  const ordersLoading = useOrdersLoading("/account", "orders");
  const section = ordersLoading ? "orders" : loaderData.section;
  const busy = navigation.state === "submitting";
  const errors = actionData?.errors ?? {};

  useEffect(() => {
    const saved = new URLSearchParams(window.location.search).get("saved");
    if (saved && SAVED[saved]) toast.success(SAVED[saved], { id: "account" });
  }, [loaderData]);

  if (!section) {
    return (
      <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold">My Account</h1>
        <p className="mt-1 text-muted-foreground">{user.email}</p>
        {loaderData.appointments.length > 0 ? (
          <section aria-labelledby="appointments-heading" className="mt-6">
            <h2 id="appointments-heading" className="text-lg font-semibold">
              Upcoming repair appointments
            </h2>
            <ul className="mt-2 divide-y rounded-xl border bg-card">
              {loaderData.appointments.map((appointment) => (
                <li
                  key={appointment.id}
                  className="flex flex-wrap items-center justify-between gap-3 p-4"
                >
                  <span>
                    <span className="block font-medium">{appointment.serviceType}</span>
                    <span className="text-sm text-muted-foreground">{appointment.when}</span>
                  </span>
                  <Link
                    to={appointment.cancelPath}
                    className={buttonVariants({ variant: "outline", size: "sm" })}
                  >
                    Cancel
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {loaderData.repairs.length > 0 ? (
          <section aria-labelledby="repairs-heading" className="mt-6">
            <h2 id="repairs-heading" className="text-lg font-semibold">
              Repairs
            </h2>
            <ul className="mt-2 divide-y rounded-xl border bg-card">
              {loaderData.repairs.map((repair) => (
                <li
                  key={repair.number}
                  className="flex flex-wrap items-center justify-between gap-3 p-4"
                >
                  <span>
                    <span className="block font-medium">
                      {repair.label}: {repair.device}
                    </span>
                    <span className="text-sm text-muted-foreground">{repair.status}</span>
                  </span>
                  <Link
                    to={repair.path}
                    className={buttonVariants({ variant: "outline", size: "sm" })}
                    aria-label={`See repair ${repair.label}`}
                  >
                    See repair
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {CARDS.map((card) => (
            <li key={card.section}>
              <Link
                to={`?section=${card.section}`}
                className="flex h-full gap-4 rounded-xl border bg-card p-5 shadow-sm hover:border-primary"
              >
                <card.icon aria-hidden="true" className="size-7 shrink-0 text-primary" />
                <span>
                  <span className="block font-semibold">{card.title}</span>
                  <span className="text-sm text-muted-foreground">{card.text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    );
  }

  if (section === "orders") {
    return (
      <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        <BackButton />
        <h1 className="mt-4 text-2xl font-bold">Your Orders</h1>
        <OrdersLoading loading={ordersLoading} />
        {ordersLoading ? null : (
          <OrderList
            orders={loaderData.orders}
            timeZone={loaderData.timeZone}
            returns={loaderData.returns}
          />
        )}
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:px-6">
      <BackButton />
      {section === "personalInfo" ? (
        <>
          <h1 className="mt-4 text-2xl font-bold">Update Personal Information</h1>
          <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
            <input type="hidden" name="intent" value="profile" />
            <FormField label="Email" name="email" type="email" value={user.email} readOnly />
            <FormField
              label="First name"
              name="firstName"
              autoComplete="given-name"
              defaultValue={actionData?.values?.firstName ?? user.firstName}
              error={errors.firstName}
            />
            <FormField
              label="Last name"
              name="lastName"
              autoComplete="family-name"
              defaultValue={actionData?.values?.lastName ?? user.lastName}
              error={errors.lastName}
            />
            {user.dateOfBirth ? (
              <FormField
                label="Date of birth"
                name="dateOfBirth"
                type="date"
                readOnly
                defaultValue={user.dateOfBirth}
                error={errors.dateOfBirth}
                hint="It decides adult purchases, so it is fixed once given. To correct it, contact the shop."
              />
            ) : (
              <FormField
                label="Date of birth"
                name="dateOfBirth"
                type="date"
                autoComplete="bday"
                defaultValue={actionData?.values?.dateOfBirth ?? user.dateOfBirth}
                error={errors.dateOfBirth}
                hint="Needed for adult titles; it cannot be changed here once saved."
              />
            )}
            <Button type="submit" disabled={busy}>
              Save
            </Button>
          </Form>
        </>
      ) : null}

      {section === "password" ? (
        <>
          <h1 className="mt-4 text-2xl font-bold">Change Password</h1>
          <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
            <input type="hidden" name="intent" value="password" />
            <FormField
              label="Current password"
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              error={errors.currentPassword}
            />
            <NewPasswordFields
              errors={errors}
              label="New password"
              confirmLabel="Confirm new password"
            />
            <Button type="submit" disabled={busy}>
              Change Password
            </Button>
          </Form>
        </>
      ) : null}

      {section === "alerts" ? (
        <AccountAlerts
          alerts={loaderData.alerts}
          error={actionData?.intent === "alert-unsubscribe" ? (actionData.message ?? null) : null}
          busy={busy}
        />
      ) : null}

      {section === "payment" ? (
        <>
          <h1 className="mt-4 text-2xl font-bold">Manage Payment Methods</h1>
          <p className="mt-4 leading-relaxed">
            You pay by card on our payment provider&apos;s secure page when you check out. Your card
            number goes straight to the provider: the shop never sees or stores it, so there is
            nothing to manage here.
          </p>
        </>
      ) : null}

      {section === "security" ? (
        <>
          <h1 className="mt-4 text-2xl font-bold">Two-Factor Authentication</h1>
          {actionData?.setup ? (
            <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
              <input type="hidden" name="intent" value="2fa-verify" />
              <input type="hidden" name="setupUri" value={actionData.setup.secretUri} />
              <input
                type="hidden"
                name="setupBackupCodes"
                value={actionData.setup.backupCodes.join(",")}
              />
              <p>Scan this code with an authenticator app, then enter the code it shows.</p>
              <div
                role="img"
                aria-label="QR code for your authenticator app"
                className="w-48 rounded-md border bg-white p-2"
                dangerouslySetInnerHTML={{ __html: actionData.setup.qr }}
              />
              <details>
                <summary className="cursor-pointer text-sm font-medium">
                  Can&apos;t scan? Show the setup key
                </summary>
                <code className="mt-2 block text-xs break-all" data-testid="totp-uri">
                  {actionData.setup.secretUri}
                </code>
              </details>
              <div>
                <p className="font-medium">Backup codes</p>
                <p className="text-sm text-muted-foreground">
                  Keep these somewhere safe. Each works once if you lose your phone.
                </p>
                <ul
                  className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm"
                  aria-label="Backup codes"
                >
                  {actionData.setup.backupCodes.map((code) => (
                    <li key={code}>{code}</li>
                  ))}
                </ul>
              </div>
              <FormField
                label="Code from your app"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                error={errors.code}
              />
              <Button type="submit" disabled={busy}>
                Turn On
              </Button>
            </Form>
          ) : (
            <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
              <input
                type="hidden"
                name="intent"
                value={user.twoFactorEnabled ? "2fa-disable" : "2fa-enable"}
              />
              {user.twoFactorEnabled ? (
                <FormMessage tone="success">Two-factor authentication is on.</FormMessage>
              ) : (
                <p>
                  Two-factor authentication is off. Turn it on to ask for a code at every sign-in.
                </p>
              )}
              <FormField
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                error={errors.password}
              />
              <Button
                type="submit"
                variant={user.twoFactorEnabled ? "destructive" : "default"}
                disabled={busy}
              >
                {user.twoFactorEnabled ? "Turn Off Two-Factor" : "Set Up Two-Factor"}
              </Button>
            </Form>
          )}
        </>
      ) : null}
    </div>
  );
}
