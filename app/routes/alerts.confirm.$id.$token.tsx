import { data, Form, Link, useNavigation } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { alertByLink, confirmAlert } from "#app/domain/alerts/alerts.server.ts";
import { ALERT_LINK_EXPIRED } from "#app/domain/alerts/status.ts";
import { alertConfirmable } from "#app/domain/retention/periods.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/alerts.confirm.$id.$token";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Confirm your alert", "Confirm an alert for a title."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

const INVALID = "This link is not valid. Ask for the alert again on the title's page.";

/**
 * The e-mailed link opens this page; only its button confirms, so a mail scanner opening links
 * never confirms an alert for the owner of an address someone else typed.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const alert = await alertByLink(getDb(), Number(params.id), params.token, authSecret(getEnv()));
  if (!alert) throw data(INVALID, { status: 404 });
  return {
    title: alert.title,
    kind: alert.kind,
    confirmed: alert.status !== "unconfirmed",
    cancelled: alert.status === "unsubscribed",
    // Past its window the link only says so (docs/security.md, "Retention").
    expired: alert.status === "unconfirmed" && !alertConfirmable(alert.createdAt, new Date()),
  };
}

export async function action({ params }: Route.ActionArgs) {
  const result = await confirmAlert(
    getDb(),
    { id: Number(params.id), token: params.token },
    { secret: authSecret(getEnv()) },
  );
  if (result.ok) return reply.ok(result.message);
  return reply.refused(result.reason, result.reason === "not-found" ? INVALID : result.message);
}

export default function ConfirmAlert({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const { title, kind } = loaderData;
  const answer =
    actionData ??
    (loaderData.cancelled
      ? { ok: false, message: "This alert was cancelled." }
      : loaderData.expired
        ? { ok: false, message: ALERT_LINK_EXPIRED }
        : loaderData.confirmed
          ? { ok: true, message: `Your alert for ${title} is confirmed.` }
          : null);
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-3xl font-bold">Confirm your alert</h1>
      {answer ? (
        <div className="mt-6 flex flex-col gap-6">
          <FormMessage tone={answer.ok ? "success" : "error"}>{answer.message}</FormMessage>
          <div>
            <Link to="/" className={buttonVariants({ variant: "outline" })}>
              Home
            </Link>
          </div>
        </div>
      ) : (
        <>
          <p className="mt-4 text-muted-foreground">
            E-mail this address once when {title}{" "}
            {kind === "restock" ? "is back in stock" : "is released"}?
          </p>
          <Form method="post" className="mt-6">
            <Button type="submit" size="lg" disabled={busy}>
              Confirm alert
            </Button>
          </Form>
        </>
      )}
    </div>
  );
}
