import { data, redirect, useNavigation } from "react-router";
import { renderSVG } from "uqr";
import { AccountAlerts } from "#app/components/account-alerts.tsx";
import { AccountMenu } from "#app/components/account/account-menu.tsx";
import { AccountSection, useSavedToast } from "#app/components/account/account-section.tsx";
import { PasswordForm } from "#app/components/account/password-form.tsx";
import { PaymentMethods } from "#app/components/account/payment-methods.tsx";
import { PersonalInfoForm } from "#app/components/account/personal-info-form.tsx";
import { TwoFactorForm, type TwoFactorSetup } from "#app/components/account/two-factor-form.tsx";
import { OrderHistory } from "#app/components/account/order-history.tsx";
import { useOrdersLoading } from "#app/components/orders-loading.tsx";
import {
  callAuth,
  isPasswordProblem,
  problemMessage,
  refusalOf,
} from "#app/domain/accounts/auth-call.server.ts";
import {
  changePasswordSchema,
  fieldErrors,
  type FieldErrors,
  ownAlertSchema,
  profileSchema,
  totpCodeSchema,
} from "#app/domain/accounts/forms.ts";
import { requireUser } from "#app/domain/accounts/session.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply, type Answer, type RefusalReason } from "#app/lib/reply.server.ts";
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
import { usePageAnswer } from "#app/components/use-page-answer.ts";
import { errorsOf } from "#app/lib/answer.ts";

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
function twoFactorSetup(secretUri: string, backupCodes: string[]): TwoFactorSetup {
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

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const intent = String(form.intent ?? "");
  // Each section's refusals are about its fields, shown beside them; 2fa-verify's keep the set-up.
  const refused = (
    errors: FieldErrors,
    more: { values?: Record<string, string>; setup?: TwoFactorSetup } = {},
    reason: RefusalReason = "invalid",
  ) => reply.refused(reason, Object.values(errors)[0] ?? "", { intent, errors, ...more });

  if (intent === "profile") {
    const parsed = profileSchema.safeParse(form);
    if (!parsed.success) return refused(fieldErrors(parsed.error), { values: form });
    const saved = await updateOwnProfile(getDb(), user.id, {
      ...parsed.data,
      dateOfBirth: parsed.data.dateOfBirth || null,
    });
    if (!saved.ok) return refused({ [saved.field]: saved.message }, { values: form });
    throw redirect("/account?saved=personalInfo");
  }

  if (intent === "password") {
    const parsed = changePasswordSchema.safeParse(form);
    if (!parsed.success) return refused(fieldErrors(parsed.error));
    const result = await callAuth(request, "/change-password", {
      currentPassword: parsed.data.currentPassword,
      newPassword: parsed.data.password,
      revokeOtherSessions: true,
    });
    if (isPasswordProblem(result)) {
      return refused({ password: problemMessage(result, "Choose another password.") });
    }
    if (!result.ok) {
      const message = problemMessage(result, "Could not change your password.");
      const currentPassword = /invalid password/i.test(message)
        ? "Your current password is not right."
        : message;
      return refused({ currentPassword }, {}, refusalOf(result));
    }
    throw redirect("/account?saved=password", { headers: result.cookies });
  }

  if (intent === "2fa-enable") {
    if (!form.password) return refused({ password: "Please enter your password." });
    const result = await callAuth<{ totpURI?: string; backupCodes?: string[] }>(
      request,
      "/two-factor/enable",
      { password: form.password, method: "totp" },
    );
    if (!result.ok || !result.body.totpURI) {
      const password = problemMessage(result, "Could not start two-factor setup.");
      return refused({ password }, {}, refusalOf(result));
    }
    const setup = twoFactorSetup(result.body.totpURI, result.body.backupCodes ?? []);
    return data(reply.ok(null, { intent, setup }), { headers: result.cookies });
  }

  if (intent === "2fa-verify") {
    const parsed = totpCodeSchema.safeParse(form);
    const setup = setupFromForm(form);
    if (!parsed.success) return refused(fieldErrors(parsed.error), { setup });
    const result = await callAuth(request, "/two-factor/verify-totp", { code: parsed.data.code });
    if (!result.ok) {
      const code = "That code is not right. Try the newest one.";
      return refused({ code }, { setup }, refusalOf(result));
    }
    throw redirect("/account?saved=security", { headers: result.cookies });
  }

  if (intent === "2fa-disable") {
    if (!form.password) return refused({ password: "Please enter your password." });
    const result = await callAuth(request, "/two-factor/disable", { password: form.password });
    if (!result.ok) {
      const password = problemMessage(result, "Could not turn two-factor off.");
      return refused({ password }, {}, refusalOf(result));
    }
    throw redirect("/account?saved=security", { headers: result.cookies });
  }

  if (intent === "alert-unsubscribe") {
    const parsed = ownAlertSchema.safeParse(form);
    const account = { userId: user.id, email: user.email };
    // Someone else's alert (or none) is not found here, whoever's it is.
    if (!parsed.success || !(await unsubscribeOwn(getDb(), account, parsed.data.id))) {
      return reply.refused("not-found", "There is no such alert among yours.", { intent });
    }
    throw redirect("/account?section=alerts&saved=alerts");
  }

  return reply.unknownAction();
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { user } = loaderData;
  const navigation = useNavigation();
  // The order history opens at once, with its loading text, while the orders are on their way.
  const ordersLoading = useOrdersLoading("/account", "orders");
  const section = ordersLoading ? "orders" : loaderData.section;
  const busy = navigation.state === "submitting";
  const answer: (Answer & { intent?: string; setup?: TwoFactorSetup }) | undefined =
    usePageAnswer(actionData);
  const errors: FieldErrors = errorsOf(answer);

  useSavedToast(loaderData);

  if (!section) {
    return (
      <AccountMenu
        email={user.email}
        appointments={loaderData.appointments}
        repairs={loaderData.repairs}
      />
    );
  }

  if (section === "orders") {
    return (
      <OrderHistory
        loading={ordersLoading}
        orders={loaderData.orders}
        timeZone={loaderData.timeZone}
        returns={loaderData.returns}
      />
    );
  }

  return (
    <AccountSection>
      {section === "personalInfo" ? (
        <PersonalInfoForm user={user} values={answer?.values} errors={errors} busy={busy} />
      ) : null}
      {section === "password" ? <PasswordForm errors={errors} busy={busy} /> : null}
      {section === "alerts" ? (
        <AccountAlerts
          alerts={loaderData.alerts}
          error={answer?.intent === "alert-unsubscribe" ? answer.message : null}
          busy={busy}
        />
      ) : null}
      {section === "payment" ? <PaymentMethods /> : null}
      {section === "security" ? (
        <TwoFactorForm
          enabled={user.twoFactorEnabled}
          setup={answer?.setup}
          errors={errors}
          busy={busy}
        />
      ) : null}
    </AccountSection>
  );
}
