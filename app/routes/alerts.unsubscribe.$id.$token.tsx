import { data, Form, Link, useNavigation } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import {
  alertByLink,
  unsubscribeAddress,
  waitingAlertsOf,
} from "#app/domain/alerts/alerts.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/alerts.unsubscribe.$id.$token";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Stop alert e-mails", "Stop the shop's alert e-mails to an address."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

const INVALID = "This link is not valid.";

async function alertOf(params: { id: string; token: string }) {
  const alert = await alertByLink(getDb(), Number(params.id), params.token, authSecret(getEnv()));
  if (!alert) throw data(INVALID, { status: 404 });
  return alert;
}

const STOPPED = "You will get no more alert e-mails from us at this address.";

export async function loader({ params }: Route.LoaderArgs) {
  const alert = await alertOf(params);
  return { title: alert.title, stopped: (await waitingAlertsOf(getDb(), alert.email)) === 0 };
}

/**
 * Stops every alert waiting for the address: the page's button, or the mail program's one-click
 * POST of RFC 8058 (`List-Unsubscribe=One-Click`, no cookies, no confirmation page).
 */
export async function action({ params }: Route.ActionArgs) {
  const alert = await alertOf(params);
  await unsubscribeAddress(getDb(), alert.email);
  return reply.ok(STOPPED);
}

export default function StopAlert({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const answer = actionData ?? (loaderData.stopped ? { ok: true, message: STOPPED } : null);
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-3xl font-bold">Stop alert e-mails</h1>
      {answer ? (
        <div className="mt-6 flex flex-col gap-6">
          <FormMessage tone="success">{answer.message}</FormMessage>
          <div>
            <Link to="/account?section=alerts" className={buttonVariants({ variant: "outline" })}>
              Manage your alerts
            </Link>
          </div>
        </div>
      ) : (
        <>
          <p className="mt-4 text-muted-foreground">Stop the e-mail about {loaderData.title}?</p>
          <Form method="post" className="mt-6">
            <Button type="submit" size="lg" disabled={busy}>
              Unsubscribe
            </Button>
          </Form>
        </>
      )}
    </div>
  );
}
