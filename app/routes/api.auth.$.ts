import { publicAuthHandler } from "#app/domain/accounts/public-auth.server.ts";
import type { Route } from "./+types/api.auth.$";

/** Everything under /api/auth is answered by the auth library, without session tokens. */
export function loader({ request }: Route.LoaderArgs) {
  return publicAuthHandler(request);
}

export function action({ request }: Route.ActionArgs) {
  return publicAuthHandler(request);
}
