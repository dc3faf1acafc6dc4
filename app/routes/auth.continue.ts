import { redirect } from "react-router";
import { touchCustomer } from "#app/domain/accounts/accounts.server.ts";
import { getSignedInUser, safeRedirectTo } from "#app/domain/accounts/session.server.ts";
import type { Route } from "./+types/auth.continue";
import { landingAfterSignIn } from "#app/domain/accounts/permissions.ts";

/** Where sign-in through another site lands: record the customer, then go on by role. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSignedInUser(request);
  if (!user) return redirect("/login");
  await touchCustomer(user.id, user.email);
  const next = safeRedirectTo(new URL(request.url).searchParams.get("redirectTo"));
  return redirect(landingAfterSignIn(user.role, next));
}
