import { Form, Link, redirect, useNavigation } from "react-router";
import { FormField, FormMessage, NewPasswordFields } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { registerCustomer } from "#app/domain/accounts/accounts.server.ts";
import {
  isPasswordProblem,
  problemMessage,
  refusalOf,
} from "#app/domain/accounts/auth-call.server.ts";
import { TOO_MANY_ATTEMPTS } from "#app/domain/accounts/auth-guards.server.ts";
import { fieldErrors, registerSchema } from "#app/domain/accounts/forms.ts";
import { getSignedInUser } from "#app/domain/accounts/session.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/register";
import { readForm } from "#app/lib/request.server.ts";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () =>
  pageMeta("Create Account", "Create a Reel & Repair account to check out and see your orders.");

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  if (await getSignedInUser(request)) throw redirect("/");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const values = {
    firstName: String(form.firstName ?? ""),
    lastName: String(form.lastName ?? ""),
    dateOfBirth: String(form.dateOfBirth ?? ""),
    email: String(form.email ?? ""),
  };
  const parsed = registerSchema.safeParse(form);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return reply.refused("invalid", Object.values(errors)[0] ?? "", { errors, values });
  }
  const outcome = await registerCustomer(request, parsed.data);
  if (outcome.status === "rate-limited") {
    return reply.refused("rate-limited", TOO_MANY_ATTEMPTS, { values });
  }
  if (outcome.status === "already-registered") {
    return reply.refused("invalid", "This email is already registered. Please log in.", {
      values,
    });
  }
  if (outcome.status === "refused") {
    const message = problemMessage(
      outcome.result,
      "Could not create your account. Please try again.",
    );
    const errors = isPasswordProblem(outcome.result) ? { password: message } : undefined;
    return reply.refused(refusalOf(outcome.result), message, { errors, values });
  }
  return reply.ok(
    "Registration successful! Check your email for a confirmation link before logging in.",
    { values: { firstName: "", lastName: "", dateOfBirth: "", email: parsed.data.email } },
  );
}

export default function Register({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors: Record<string, string | undefined> = errorsOf(actionData);
  const values = actionData?.values;
  if (actionData?.ok) {
    return (
      <div className="mx-auto max-w-md px-4 py-10">
        <h1 className="text-3xl font-bold">Create Account</h1>
        <div className="mt-4">
          <FormMessage tone="success">{actionData.message}</FormMessage>
        </div>
        <h2 className="mt-6 text-lg font-semibold">What happens next</h2>
        <ol className="mt-2 list-decimal space-y-2 pl-6">
          <li>
            Open the e-mail we sent to <strong>{actionData.values?.email}</strong> (look in spam if
            it is not there in a few minutes).
          </li>
          <li>Click its confirmation link: it brings you back to the login page.</li>
          <li>Log in with your e-mail and password.</li>
        </ol>
        <p className="mt-6 text-sm">
          Already confirmed?{" "}
          <Link to="/login" className="font-medium text-primary underline">
            Log in
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-3xl font-bold">Create Account</h1>
      {actionData && !actionData.errors ? (
        <div className="mt-4">
          <FormMessage tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormMessage>
        </div>
      ) : null}
      <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="First name"
            name="firstName"
            autoComplete="given-name"
            required
            defaultValue={values?.firstName}
            error={errors.firstName}
          />
          <FormField
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            required
            defaultValue={values?.lastName}
            error={errors.lastName}
          />
        </div>
        <FormField
          label="Date of birth"
          name="dateOfBirth"
          type="date"
          autoComplete="bday"
          required
          defaultValue={values?.dateOfBirth}
          error={errors.dateOfBirth}
        />
        <FormField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={values?.email}
          error={errors.email}
        />
        <NewPasswordFields errors={errors} />
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? "Creating account…" : "Create Account"}
        </Button>
      </Form>
      <p className="mt-6 text-sm">
        Already have an account?{" "}
        <Link to="/login" className="font-medium text-primary underline">
          Log in
        </Link>
      </p>
    </div>
  );
}
