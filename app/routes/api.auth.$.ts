import { getAuth } from "#app/domain/accounts/auth.server.ts";
import type { Route } from "./+types/api.auth.$";

/** Everything under /api/auth is answered by the auth library. */
export function loader({ request }: Route.LoaderArgs) {
  return getAuth().handler(request);
}

export function action({ request }: Route.ActionArgs) {
  return getAuth().handler(request);
}
