import { useEffect } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
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
import type { Route } from "./+types/update-password";
import { readForm } from "#app/lib/request.server.ts";

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
    return data({ errors: fieldErrors(parsed.error), failure: null }, { status: 400 });
  }
  const reset = await callAuth(request, "/reset-password", {
    newPassword: parsed.data.password,
    token: parsed.data.token,
  });
  if (isPasswordProblem(reset)) {
    return data(
      { errors: { password: problemMessage(reset, "Choose another password.") }, failure: null },
      { status: 400 },
    );
  }
  if (!reset.ok) {
    return data(
      { errors: {}, failure: "Failed to update password. Please try again." },
      { status: 400 },
    );
  }
  throw redirect("/login?passwordUpdated=1");
}

export default function UpdatePassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  useEffect(() => {
    if (actionData?.failure) toast.error(actionData.failure);
  }, [actionData]);
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
      {actionData?.failure ? (
        <div className="mt-4">
          <FormMessage tone="error">{actionData.failure}</FormMessage>
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
