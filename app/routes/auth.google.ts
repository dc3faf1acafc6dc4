import { redirect } from "react-router";
import { callAuth, problemMessage } from "#app/domain/accounts/auth-call.server.ts";
import { safeRedirectTo } from "#app/domain/accounts/session.server.ts";
import { googleSignInEnabled } from "#app/lib/auth.server.ts";
import { jsonError } from "#app/lib/json.server.ts";
import type { Route } from "./+types/auth.google";

/** Starts Google sign-in (OpenID Connect) and sends the browser to Google. */
export async function action({ request }: Route.ActionArgs) {
  if (!googleSignInEnabled()) return jsonError(404, "Google sign-in is not configured.");
  const form = await request.formData();
  const next = safeRedirectTo(form.get("redirectTo"));
  const result = await callAuth<{ url?: string }>(request, "/sign-in/social", {
    provider: "google",
    callbackURL: `/auth/continue?redirectTo=${encodeURIComponent(next)}`,
    errorCallbackURL: "/login",
  });
  if (!result.ok || !result.body.url) {
    return redirect(
      `/login?error=${encodeURIComponent(problemMessage(result, "sign-in could not start"))}`,
    );
  }
  return redirect(result.body.url, { headers: result.cookies });
}

export function loader() {
  return redirect("/login");
}
