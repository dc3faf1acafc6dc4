import { Outlet } from "react-router";
import { AdminSidebar } from "#app/components/admin/admin-sidebar.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireAdmin } from "#app/domain/accounts/session.server.ts";
import { openInboxCount } from "#app/domain/inbox/open-count.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import type { Route } from "./+types/admin";

export const headers: Route.HeadersFunction = () => privatePageHeaders();

/**
 * The back office. This layout's guard covers its pages' loaders; every admin page and action
 * calls requireAdmin itself too, since actions can be called directly.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  return { displayName: user.displayName, openInbox: await openInboxCount(getDb()) };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-7xl grid-cols-1 gap-6 px-4 py-6 sm:px-6 lg:grid-cols-[13rem_1fr] md:py-8 print:block print:p-0">
      <AdminSidebar displayName={loaderData.displayName} openInbox={loaderData.openInbox} />
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}
