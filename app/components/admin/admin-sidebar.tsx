import {
  Film,
  Inbox,
  LayoutDashboard,
  ListPlus,
  Package,
  Popcorn,
  Receipt,
  ShieldAlert,
  Users,
  Wrench,
} from "#app/components/ui/icons.tsx";
import { useState } from "react";
import { Link, NavLink } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { Button, buttonVariants } from "../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog.tsx";

const LINKS = [
  { to: "/admin", label: "Dashboard", icon: LayoutDashboard, end: true },
  { to: "/admin/orders", label: "Orders", icon: Package },
  { to: "/admin/returns", label: "Returns", icon: Receipt },
  { to: "/admin/customers", label: "Customers", icon: Users },
  { to: "/admin/inbox", label: "Inbox", icon: Inbox },
  { to: "/admin/repairs", label: "Repairs", icon: Wrench },
  { to: "/admin/items", label: "All Regular Items", icon: Film },
  { to: "/admin/adult/items", label: "All Adult Items", icon: ShieldAlert },
  { to: "/admin/coming-soon", label: "Manage Coming Soon", icon: Popcorn },
];

/**
 * Spec §2 admin sidebar; on phones and tablets held upright it becomes a row of links above the
 * page, which keeps the page's tables their width.
 */
export function AdminSidebar({
  displayName,
  openInbox,
}: {
  displayName: string;
  /** Contact messages and repair requests not yet handled. */
  openInbox: number;
}) {
  const [choosing, setChoosing] = useState(false);
  return (
    <nav aria-label="Back office" className="flex min-w-0 flex-col gap-3">
      <p className="hidden text-sm text-muted-foreground lg:block">Signed in as {displayName}</p>
      <ul className="flex flex-wrap gap-2 lg:flex-col lg:flex-nowrap">
        {LINKS.map(({ to, label, icon: Icon, end }) => (
          <li key={to} className="shrink-0">
            <NavLink
              to={to}
              end={end}
              className={({ isActive }) =>
                cn(
                  "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium hover:bg-accent",
                  isActive && "bg-accent",
                )
              }
            >
              <Icon aria-hidden="true" className="size-4" />
              {label}
              {to === "/admin/inbox" && openInbox > 0 ? (
                <span className="ml-auto rounded-full bg-primary px-2 text-xs text-primary-foreground">
                  {openInbox}
                  <span className="sr-only"> open</span>
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
        <li className="shrink-0">
          <Dialog open={choosing} onOpenChange={setChoosing}>
            <DialogTrigger asChild>
              <Button variant="ghost" className="w-full justify-start gap-2 px-3 font-medium">
                <ListPlus aria-hidden="true" className="size-4" />
                Add New Titles
              </Button>
            </DialogTrigger>
            <DialogContent>
              <DialogHeader>
                <DialogTitle>Add New Titles</DialogTitle>
                <DialogDescription>Which catalogue does the new title belong to?</DialogDescription>
              </DialogHeader>
              <div className="flex flex-wrap gap-3">
                <Link
                  to="/admin/items/new"
                  className={buttonVariants()}
                  onClick={() => setChoosing(false)}
                >
                  Regular
                </Link>
                <Link
                  to="/admin/adult/items/new"
                  className={buttonVariants({ variant: "outline" })}
                  onClick={() => setChoosing(false)}
                >
                  Adult
                </Link>
              </div>
            </DialogContent>
          </Dialog>
        </li>
      </ul>
    </nav>
  );
}
