import { ChevronDown, User } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useLocation, useRouteLoaderData, useSubmit } from "react-router";
import { cn } from "#app/lib/cn.ts";
import type { loader as rootLoader } from "#app/root.tsx";
import { useCart } from "./cart-provider.tsx";
import { Button } from "./ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "./ui/dropdown-menu.tsx";

const triggerClass = "text-white hover:bg-white/10 hover:text-white";

/** Signed out: a Login button offering Sign In and Register. Signed in: the person's menu. */
export function UserMenu() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  const user = data?.user ?? null;
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const cart = useCart();
  const submit = useSubmit();

  // Closes on route change (outside clicks and picks are handled by the menu itself).
  useEffect(() => setOpen(false), [location.pathname]);

  return (
    <DropdownMenu open={open} onOpenChange={setOpen} modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className={triggerClass}>
          <User aria-hidden="true" />
          {/* On phones a signed-in name is only read out: the icon keeps the header one line. */}
          <span className={cn("max-w-32 truncate", user && "sr-only sm:not-sr-only")}>
            {user ? user.displayName : "Login"}
          </span>
          <ChevronDown aria-hidden="true" className="hidden sm:block" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-44">
        {user ? (
          <>
            {user.role === "admin" ? (
              <DropdownMenuItem asChild>
                <Link to="/admin">Back Office</Link>
              </DropdownMenuItem>
            ) : null}
            <DropdownMenuItem asChild>
              <Link to="/account">My Account</Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link to="/orders">My Orders</Link>
            </DropdownMenuItem>
            <DropdownMenuItem
              onSelect={() => {
                cart.clear();
                void submit(null, { method: "post", action: "/logout", replace: true });
              }}
            >
              Logout
            </DropdownMenuItem>
          </>
        ) : (
          <>
            <DropdownMenuItem asChild>
              <Link to="/login">Sign In</Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link to="/register">Register</Link>
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
