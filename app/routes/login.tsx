import { useState } from "react";
import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { z } from "zod";
import { confirmedLoginPath, touchCustomer } from "#app/domain/accounts/accounts.server.ts";
import { callAuth, problemMessage, refusalOf } from "#app/domain/accounts/auth-call.server.ts";
import {
  fieldErrors,
  loginSchema,
  resetRequestSchema,
  type FieldErrors,
} from "#app/domain/accounts/forms.ts";
import { getSignedInUser, safeRedirectTo } from "#app/domain/accounts/session.server.ts";
import { googleSignInEnabled } from "#app/domain/accounts/auth.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/login";
import { readForm } from "#app/lib/request.server.ts";
import { landingAfterSignIn } from "#app/domain/accounts/permissions.ts";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () =>
  pageMeta("Login", "Log in to your Reel & Repair account.");

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const user = await getSignedInUser(request);
  if (user)
    throw redirect(
      landingAfterSignIn(user.role, safeRedirectTo(url.searchParams.get("redirectTo"))),
    );
  return {
    google: googleSignInEnabled(),
    verified: url.searchParams.get("verified") === "1" && !url.searchParams.get("error"),
    // Only a well-formed address from the confirmation link is filled in.
    confirmedEmail: z.email().safeParse(url.searchParams.get("email") ?? "").data ?? "",
    linkError: linkErrorMessage(url.searchParams.get("error")),
    passwordUpdated: url.searchParams.get("passwordUpdated") === "1",
  };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const intent = form.intent === "reset" || form.intent === "resend" ? form.intent : "login";
  const values = { email: String(form.email ?? "").trim() };
  const invalid = (errors: FieldErrors) =>
    reply.refused("invalid", Object.values(errors)[0] ?? "", { intent, errors, values });

  if (intent === "resend") {
    const parsed = resetRequestSchema.safeParse(form);
    if (!parsed.success) return invalid(fieldErrors(parsed.error));
    // Limited per address by the auth guards, like every confirmation e-mail.
    const resend = await callAuth(request, "/send-verification-email", {
      email: parsed.data.email,
      callbackURL: confirmedLoginPath(parsed.data.email),
    });
    // The address is not confirmed yet: the page offers to send the e-mail again.
    const unconfirmed = true;
    if (!resend.ok) {
      const message = problemMessage(resend, "Could not send the e-mail.");
      return reply.refused(refusalOf(resend), message, { intent, values, unconfirmed });
    }
    return reply.ok(
      `✅ We sent a new confirmation e-mail to ${parsed.data.email}. Open its link, then log in.`,
      { intent, values, unconfirmed },
    );
  }

  if (intent === "reset") {
    const parsed = resetRequestSchema.safeParse(form);
    if (!parsed.success) return invalid(fieldErrors(parsed.error));
    const reset = await callAuth(request, "/request-password-reset", {
      email: parsed.data.email,
      redirectTo: "/update-password",
    });
    if (!reset.ok) {
      const message = problemMessage(reset, "Could not send the link.");
      return reply.refused(refusalOf(reset), message, { intent, values });
    }
    // The same answer whether or not the address has an account.
    return reply.ok("✅ Check your inbox for a reset link.", { intent, values });
  }

  const parsed = loginSchema.safeParse(form);
  if (!parsed.success) return invalid(fieldErrors(parsed.error));
  const signIn = await callAuth<{
    twoFactorRedirect?: boolean;
    user?: { id: string; email: string; role?: string | null };
  }>(request, "/sign-in/email", {
    email: parsed.data.email,
    password: parsed.data.password,
    rememberMe: true,
    // Signing in before confirming sends the confirmation again: its link returns here too.
    callbackURL: confirmedLoginPath(parsed.data.email),
  });
  if (!signIn.ok) {
    const message = problemMessage(signIn, "Could not log in. Please try again.");
    const unconfirmed = signIn.body.code === "EMAIL_NOT_VERIFIED";
    return reply.refused(refusalOf(signIn), message, { intent, values, unconfirmed });
  }
  const body = signIn.body;
  const headers = signIn.cookies;
  const redirectTo = safeRedirectTo(new URL(request.url).searchParams.get("redirectTo"));
  if (body.twoFactorRedirect) {
    throw redirect(`/login/two-factor?redirectTo=${encodeURIComponent(redirectTo)}`, { headers });
  }
  if (!body.user) {
    return reply.refused("invalid", "Could not get session after login.", { intent, values });
  }
  await touchCustomer(body.user.id, body.user.email);
  throw redirect(landingAfterSignIn(body.user.role, redirectTo), { headers });
}

const EXPIRED_LINK =
  "That link is invalid or has expired. Log in to get a new confirmation e-mail.";
const GOOGLE_FAILED = "Google sign-in did not work. Please try again or log in with your password.";

/**
 * Errors handed back in the address by e-mail links and Google sign-in. Only these codes are
 * shown (as our own sentences): the address is anyone's to write, so its text never is.
 */
const LINK_ERRORS: Record<string, string> = {
  invalid_token: EXPIRED_LINK,
  INVALID_TOKEN: EXPIRED_LINK,
  token_expired: EXPIRED_LINK,
  TOKEN_EXPIRED: EXPIRED_LINK,
  account_not_linked:
    "Google did not confirm this e-mail address, so it was not linked to your account. Log in with your password.",
  access_denied: "Google sign-in was cancelled.",
  google_unavailable: "Google sign-in could not start. Please try again in a moment.",
  state_mismatch: GOOGLE_FAILED,
  state_not_found: GOOGLE_FAILED,
  please_restart_the_process: GOOGLE_FAILED,
  invalid_code: GOOGLE_FAILED,
  no_code: GOOGLE_FAILED,
  unable_to_get_user_info: GOOGLE_FAILED,
  unable_to_link_account: GOOGLE_FAILED,
  email_not_found: "Google did not share an e-mail address, so we could not sign you in.",
  internal_server_error: GOOGLE_FAILED,
};

function linkErrorMessage(code: string | null): string | null {
  return code && Object.hasOwn(LINK_ERRORS, code) ? LINK_ERRORS[code]! : null;
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [mode, setMode] = useState<"signin" | "reset">(
    searchParams.get("mode") === "reset" || actionData?.intent === "reset" ? "reset" : "signin",
  );
  const busy = navigation.state === "submitting";
  const errors: FieldErrors = errorsOf(actionData);
  const showResult =
    actionData &&
    (mode === "reset" ? actionData.intent === "reset" : actionData.intent !== "reset");

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-3xl font-bold">{mode === "reset" ? "Reset Password" : "Login"}</h1>
      <div className="mt-4 flex flex-col gap-2">
        {loaderData.verified ? (
          <FormMessage tone="success">Your e-mail is confirmed. You can log in now.</FormMessage>
        ) : null}
        {loaderData.passwordUpdated ? (
          <FormMessage tone="success">Password updated successfully.</FormMessage>
        ) : null}
        {loaderData.linkError ? (
          <FormMessage tone="error">{loaderData.linkError}</FormMessage>
        ) : null}
        {showResult && !actionData.errors ? (
          <FormMessage tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormMessage>
        ) : null}
      </div>
      <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
        <input type="hidden" name="intent" value={mode === "reset" ? "reset" : "login"} />
        <FormField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={actionData?.values?.email ?? loaderData.confirmedEmail}
          error={showResult ? errors.email : undefined}
        />
        {mode === "signin" ? (
          <FormField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            error={showResult ? errors.password : undefined}
          />
        ) : null}
        <Button type="submit" size="lg" disabled={busy}>
          {mode === "reset" ? "Send Reset Link" : "Login"}
        </Button>
      </Form>
      {mode === "signin" && showResult && "unconfirmed" in actionData && actionData.unconfirmed ? (
        <Form method="post" className="mt-4" noValidate>
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="email" value={actionData.values?.email} />
          <Button type="submit" variant="outline" disabled={busy}>
            Resend confirmation e-mail
          </Button>
        </Form>
      ) : null}
      <div className="mt-4 flex flex-col items-start gap-3 text-sm">
        {mode === "signin" ? (
          <Link
            to="?mode=reset"
            onClick={(event) => {
              event.preventDefault();
              setMode("reset");
            }}
            className="font-medium text-primary underline"
          >
            Forgot your password?
          </Link>
        ) : (
          <Link
            to="/login"
            onClick={(event) => {
              event.preventDefault();
              setMode("signin");
            }}
            className="font-medium text-primary underline"
          >
            Back to login
          </Link>
        )}
        {loaderData.google && mode === "signin" ? (
          <Form method="post" action="/auth/google" className="w-full">
            <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/"} />
            <Button type="submit" variant="outline" size="lg" className="w-full">
              Login with Google
            </Button>
          </Form>
        ) : null}
        <p>
          New here?{" "}
          <Link to="/register" className="font-medium text-primary underline">
            Sign up
          </Link>
        </p>
      </div>
    </div>
  );
}
