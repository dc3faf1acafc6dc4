import { Link } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { getSignedInUser, safeRedirectTo } from "#app/domain/accounts/session.server.ts";
import { subscribe } from "#app/domain/alerts/alerts.server.ts";
import { alertRequestSchema } from "#app/domain/alerts/alert-input.ts";
import { clientIp } from "#app/lib/client-ip.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/alerts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Your alert", "Be told when a title is back or released."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

/** The page only answers a signup posted without JavaScript. */
export function loader() {
  return null;
}

/** Asks for an alert (from the signup on a title page or a Coming Soon entry). */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const returnTo = safeRedirectTo(form.returnTo);
  const parsed = alertRequestSchema.safeParse(form);
  if (!parsed.success) {
    const email = parsed.error.issues.find((issue) => issue.path[0] === "email")?.message;
    return reply.refused("invalid", email ?? "There is no such title.", {
      ...(email ? { errors: { email } } : {}),
      returnTo,
    });
  }
  const user = await getSignedInUser(request);
  if (!user && !parsed.data.email) {
    const message = "Please enter your email.";
    return reply.refused("invalid", message, { errors: { email: message }, returnTo });
  }
  const env = getEnv();
  const result = await subscribe(
    getDb(),
    {
      kind: parsed.data.kind,
      id: parsed.data.id,
      account: user ? { userId: user.id, email: user.email } : null,
      email: parsed.data.email ?? null,
      clientIp: clientIp(request),
    },
    { links: { publicUrl: publicUrl(env), secret: authSecret(env) } },
  );
  if (result.ok) return reply.ok(result.message, { returnTo });
  return reply.refused(
    result.reason,
    result.message,
    { returnTo },
    result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined,
  );
}

/** Without JavaScript the signup posts here as a page: its answer, and the way back. */
export default function AlertAnswerPage({ actionData }: Route.ComponentProps) {
  const answer = actionData;
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-3xl font-bold">Your alert</h1>
      <div className="mt-6">
        {answer ? (
          <FormMessage tone={answer.ok ? "success" : "error"}>{answer.message}</FormMessage>
        ) : (
          <p>Ask for an alert on a sold-out title or a Coming Soon title.</p>
        )}
      </div>
      <div className="mt-6">
        <Link to={answer?.returnTo ?? "/"} className={buttonVariants({ variant: "outline" })}>
          {answer ? "Back to the title" : "Home"}
        </Link>
      </div>
    </div>
  );
}
