import { useEffect } from "react";
import { Form, redirect, useNavigation } from "react-router";
import { toast } from "#app/components/toasts.tsx";
import { FormMessage, NewPasswordFields } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  callAuth,
  isPasswordProblem,
  problemMessage,
} from "#app/domain/accounts/auth-call.server.ts";
import { fieldErrors, updatePasswordSchema } from "#app/domain/accounts/forms.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/update-password";
import { readForm } from "#app/lib/request.server.ts";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () =>
  pageMeta("Update Password", "Choose a new password for your account.");

export const headers: Route.HeadersFunction = () => ({
  ...privatePageHeaders(),
  // The reset token is in the address: never send it on to other sites.
  "Referrer-Policy": "no-referrer",
});

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  return {
    token: url.searchParams.get("token") ?? "",
    invalid: Boolean(url.searchParams.get("error")),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const parsed = updatePasswordSchema.safeParse(form);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return reply.refused("invalid", Object.values(errors)[0] ?? "", { errors });
  }
  const reset = await callAuth(request, "/reset-password", {
    newPassword: parsed.data.password,
    token: parsed.data.token,
  });
  if (isPasswordProblem(reset)) {
    const message = problemMessage(reset, "Choose another password.");
    return reply.refused("invalid", message, { errors: { password: message } });
  }
  if (!reset.ok) {
    return reply.refused("invalid", "Failed to update password. Please try again.");
  }
  throw redirect("/login?passwordUpdated=1");
}

export default function UpdatePassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors: Record<string, string | undefined> = errorsOf(actionData);
  // A field's message is shown beside it; one about the whole form also as a toast.
  const failure = actionData && !actionData.errors ? actionData.message : null;
  useEffect(() => {
    if (failure) toast.error(failure);
  }, [actionData, failure]);
  if (!loaderData.token || loaderData.invalid) {
    return (
      <div className="mx-auto max-w-md px-4 py-10">
        <h1 className="text-3xl font-bold">Update Password</h1>
        <div className="mt-4">
          <FormMessage tone="error">
            This reset link is invalid or has expired. Ask for a new one from the login page.
          </FormMessage>
        </div>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-3xl font-bold">Update Password</h1>
      {failure ? (
        <div className="mt-4">
          <FormMessage tone="error">{failure}</FormMessage>
        </div>
      ) : null}
      <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordFields errors={errors} label="New password" />
        <Button type="submit" size="lg" disabled={navigation.state === "submitting"}>
          Update Password
        </Button>
      </Form>
    </div>
  );
}
