import { useEffect } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { toast } from "#app/components/toasts.tsx";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { callAuth, problemMessage } from "#app/domain/accounts/auth-call.server.ts";
import { fieldErrors, resetRequestSchema } from "#app/domain/accounts/forms.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/reset-password";
import { readForm } from "#app/lib/request.server.ts";

export const meta: Route.MetaFunction = () =>
  pageMeta("Forgot Password", "Get a link to choose a new password for your account.");

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const email = String(form.email ?? "").trim();
  const parsed = resetRequestSchema.safeParse({ email });
  if (!parsed.success) {
    return data(
      {
        email,
        error: fieldErrors(parsed.error).email ?? "Invalid email address",
        sent: false,
        failure: null,
      },
      { status: 400 },
    );
  }
  const reset = await callAuth(request, "/request-password-reset", {
    email: parsed.data.email,
    redirectTo: "/update-password",
  });
  if (!reset.ok) {
    return data(
      {
        email,
        error: undefined,
        sent: false,
        failure: problemMessage(reset, "Failed to send password reset email. Please try again."),
      },
      { status: reset.status === 429 ? 429 : 400 },
    );
  }
  return { email: parsed.data.email, error: undefined, sent: true, failure: null };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  useEffect(() => {
    if (actionData?.sent)
      toast.success(`Email sent to ${actionData.email}. Please check your inbox.`);
    else if (actionData?.failure) toast.error(actionData.failure);
  }, [actionData]);
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-3xl font-bold">Forgot Password</h1>
      <p className="mt-2 text-muted-foreground">
        Enter the e-mail of your account and we will send you a link to choose a new password.
      </p>
      <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
        <FormField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={actionData?.email}
          error={actionData?.error}
        />
        <Button type="submit" size="lg" disabled={navigation.state === "submitting"}>
          Send Reset Link
        </Button>
      </Form>
      <Link to="/login" className="mt-6 inline-block text-sm font-medium text-primary underline">
        Back to login
      </Link>
    </div>
  );
}
