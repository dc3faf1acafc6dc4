import { Form, redirect, useNavigation, useSearchParams } from "react-router";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { touchCustomer } from "#app/domain/accounts/accounts.server.ts";
import { callAuth } from "#app/domain/accounts/auth-call.server.ts";
import { fieldErrors, totpCodeSchema } from "#app/domain/accounts/forms.ts";
import { safeRedirectTo } from "#app/domain/accounts/session.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/login.two-factor";
import { readForm } from "#app/lib/request.server.ts";
import { landingAfterSignIn } from "#app/domain/accounts/permissions.ts";

export const meta: Route.MetaFunction = () =>
  pageMeta("Two-factor code", "Enter the code from your authenticator app to finish logging in.");

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  // The pending sign-in lives in the library's two-factor cookie.
  if (!/shop\.two_factor=/.test(request.headers.get("Cookie") ?? "")) throw redirect("/login");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const useBackup = form.method === "backup";
  const code = String(form.code ?? "").trim();
  // Each refusal is about the code: it is shown beside it.
  const refused = (reason: "invalid" | "rate-limited", message: string) =>
    reply.refused(reason, message, { errors: { code: message } });
  if (!useBackup) {
    const parsed = totpCodeSchema.safeParse({ code });
    if (!parsed.success) return refused("invalid", fieldErrors(parsed.error).code ?? "");
  } else if (!code) {
    return refused("invalid", "Enter one of your backup codes.");
  }
  const result = await callAuth<{ user?: { id: string; email: string; role?: string | null } }>(
    request,
    useBackup ? "/two-factor/verify-backup-code" : "/two-factor/verify-totp",
    { code },
  );
  if (!result.ok || !result.body.user) {
    return result.status === 429
      ? refused("rate-limited", "Too many attempts. Please wait a minute and try again.")
      : refused("invalid", "That code is not right.");
  }
  await touchCustomer(result.body.user.id, result.body.user.email);
  const next = safeRedirectTo(new URL(request.url).searchParams.get("redirectTo"));
  throw redirect(landingAfterSignIn(result.body.user.role, next), { headers: result.cookies });
}

export default function TwoFactorLogin({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const backup = searchParams.get("method") === "backup";
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-3xl font-bold">Two-factor code</h1>
      <p className="mt-2 text-muted-foreground">
        {backup
          ? "Enter one of the backup codes you saved when you turned two-factor on."
          : "Enter the 6-digit code from your authenticator app."}
      </p>
      <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
        <input type="hidden" name="method" value={backup ? "backup" : "totp"} />
        <FormField
          label={backup ? "Backup code" : "Code"}
          name="code"
          inputMode={backup ? "text" : "numeric"}
          autoComplete="one-time-code"
          autoFocus
          error={actionData?.errors?.code}
        />
        <Button type="submit" size="lg" disabled={navigation.state === "submitting"}>
          Verify
        </Button>
      </Form>
      <a
        href={`?${new URLSearchParams({ ...Object.fromEntries(searchParams), method: backup ? "totp" : "backup" })}`}
        className="mt-4 inline-block text-sm font-medium text-primary underline"
      >
        {backup ? "Use a code from my app" : "Use a backup code instead"}
      </a>
    </div>
  );
}
