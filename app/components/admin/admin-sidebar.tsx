import {
  Film,
  Gamepad2,
  Inbox,
  LayoutDashboard,
  ListPlus,
  Package,
  Popcorn,
  Receipt,
  ShieldAlert,
  ShoppingCart,
  Users,
  Wrench,
} from "#app/components/ui/icons.tsx";
import { useState } from "react";
import { Link, NavLink } from "react-router";
import { can, type Permission, type Role } from "#app/domain/accounts/permissions.ts";
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

/** The back office's sections, each with the permission its pages ask for. */
const LINKS: { to: string; label: string; icon: typeof Film; need: Permission; end?: true }[] = [
  { to: "/admin", label: "Dashboard", icon: LayoutDashboard, need: "back-office", end: true },
  { to: "/counter", label: "Counter", icon: ShoppingCart, need: "counter" },
  { to: "/admin/orders", label: "Orders", icon: Package, need: "orders.view" },
  { to: "/admin/returns", label: "Returns", icon: Receipt, need: "returns" },
  { to: "/admin/customers", label: "Customers", icon: Users, need: "customers" },
  { to: "/admin/inbox", label: "Inbox", icon: Inbox, need: "inbox" },
  { to: "/admin/repairs", label: "Repairs", icon: Wrench, need: "repairs" },
  { to: "/admin/items", label: "All Regular Items", icon: Film, need: "catalogue" },
  { to: "/admin/adult/items", label: "All Adult Items", icon: ShieldAlert, need: "catalogue" },
  { to: "/admin/store-items", label: "Store Items", icon: Gamepad2, need: "catalogue" },
  { to: "/admin/coming-soon", label: "Manage Coming Soon", icon: Popcorn, need: "catalogue" },
];

/**
 * Spec §2 admin sidebar; on phones and tablets held upright it becomes a row of links above the
 * page, which keeps the page's tables their width.
 */
export function AdminSidebar({
  displayName,
  role,
  openInbox,
}: {
  displayName: string;
  /** A clerk sees the counter's sections only (decision 023). */
  role: Role;
  /** Contact messages and repair requests not yet handled. */
  openInbox: number;
}) {
  return (
    <nav aria-label="Back office" className="flex min-w-0 flex-col gap-3">
      <p className="hidden text-sm text-muted-foreground lg:block">Signed in as {displayName}</p>
      <ul className="flex flex-wrap gap-2 lg:flex-col lg:flex-nowrap">
        {LINKS.filter(({ need }) => can(role, need)).map(({ to, label, icon: Icon, end }) => (
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
        {can(role, "catalogue") ? <AddNewTitles /> : null}
      </ul>
    </nav>
  );
}

/** Add New Titles: asks which catalogue the title belongs to, then opens its form. */
function AddNewTitles() {
  const [choosing, setChoosing] = useState(false);
  return (
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
  );
}
