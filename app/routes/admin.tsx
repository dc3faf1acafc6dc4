import { Outlet } from "react-router";
import { AdminSidebar } from "#app/components/admin/admin-sidebar.tsx";
import { getDb } from "#app/db/client.server.ts";
import { can } from "#app/domain/accounts/permissions.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { openInboxCount } from "#app/domain/inbox/open-count.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import type { Route } from "./+types/admin";

export const headers: Route.HeadersFunction = () => privatePageHeaders();

/**
 * The back office, for clerks and admins. This layout's guard covers its pages' loaders; every
 * page and action names its own permission to requireStaff too, since actions can be called
 * directly. The menu shows each member of staff only the sections they may use.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaff(request, "back-office");
  const openInbox = can(user.role, "inbox") ? await openInboxCount(getDb()) : 0;
  return { displayName: user.displayName, role: user.role, openInbox };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-7xl grid-cols-1 gap-6 px-4 py-6 sm:px-6 lg:grid-cols-[13rem_1fr] md:py-8 print:block print:p-0">
      <AdminSidebar
        displayName={loaderData.displayName}
        role={loaderData.role}
        openInbox={loaderData.openInbox}
      />
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}
