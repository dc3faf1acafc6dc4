import { redirect } from "react-router";
import { callAuth } from "#app/domain/accounts/auth-call.server.ts";
import type { Route } from "./+types/logout";

/** Ends the session on the server, clears its cookie, and goes home. */
export async function action({ request }: Route.ActionArgs) {
  const result = await callAuth(request, "/sign-out", {});
  return redirect("/", { headers: result.cookies });
}

export function loader() {
  return redirect("/");
}
