import { Outlet } from "react-router";
import { requireAdmin } from "#app/domain/accounts/session.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import type { Route } from "./+types/admin";

export const headers: Route.HeadersFunction = () => privatePageHeaders();

/**
 * The back office. This layout's guard covers its pages' loaders; every admin page and action
 * calls requireAdmin itself too, since actions can be called directly.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  return { displayName: user.displayName };
}

export default function AdminLayout() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <Outlet />
    </div>
  );
}
