import { redirect } from "react-router";
import { callAuth } from "#app/domain/accounts/auth-call.server.ts";
import { safeRedirectTo } from "#app/domain/accounts/session.server.ts";
import { googleSignInEnabled } from "#app/domain/accounts/auth.server.ts";
import { jsonError } from "#app/lib/json.server.ts";
import type { Route } from "./+types/auth.google";
import { readForm } from "#app/lib/request.server.ts";

/** Starts Google sign-in (OpenID Connect) and sends the browser to Google. */
export async function action({ request }: Route.ActionArgs) {
  if (!googleSignInEnabled()) return jsonError(404, "Google sign-in is not configured.");
  const form = await readForm(request);
  const next = safeRedirectTo(form.redirectTo);
  const result = await callAuth<{ url?: string }>(request, "/sign-in/social", {
    provider: "google",
    callbackURL: `/auth/continue?redirectTo=${encodeURIComponent(next)}`,
    errorCallbackURL: "/login",
  });
  if (!result.ok || !result.body.url) {
    console.warn("Google sign-in could not start", result.status, result.body.code ?? "");
    return redirect("/login?error=google_unavailable");
  }
  return redirect(result.body.url, { headers: result.cookies });
}

export function loader() {
  return redirect("/login");
}
