import { useEffect } from "react";
import { Form, Link, useNavigation } from "react-router";
import { toast } from "#app/components/toasts.tsx";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { callAuth, problemMessage, refusalOf } from "#app/domain/accounts/auth-call.server.ts";
import { fieldErrors, resetRequestSchema } from "#app/domain/accounts/forms.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/reset-password";
import { readForm } from "#app/lib/request.server.ts";

export const meta: Route.MetaFunction = () =>
  pageMeta("Forgot Password", "Get a link to choose a new password for your account.");

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const email = String(form.email ?? "").trim();
  const values = { email };
  const parsed = resetRequestSchema.safeParse({ email });
  if (!parsed.success) {
    const message = fieldErrors(parsed.error).email ?? "Invalid email address";
    return reply.refused("invalid", message, { errors: { email: message }, values });
  }
  const reset = await callAuth(request, "/request-password-reset", {
    email: parsed.data.email,
    redirectTo: "/update-password",
  });
  if (!reset.ok) {
    return reply.refused(
      refusalOf(reset),
      problemMessage(reset, "Failed to send password reset email. Please try again."),
      { values },
    );
  }
  return reply.ok(`Email sent to ${parsed.data.email}. Please check your inbox.`, {
    values: { email: parsed.data.email },
  });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  useEffect(() => {
    // A field's message is shown beside it.
    if (!actionData?.message || actionData.errors) return;
    if (actionData.ok) toast.success(actionData.message);
    else toast.error(actionData.message);
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
          defaultValue={actionData?.values?.email}
          error={actionData?.errors?.email}
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
