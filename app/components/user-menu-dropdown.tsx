import { useLayoutEffect, useRef } from "react";
import { Link, useSubmit } from "react-router";
import { focusLost } from "#app/lib/focus.ts";
import { useCart } from "./cart-provider.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "./ui/dropdown-menu.tsx";
import { isStaff, type Role } from "#app/domain/accounts/permissions.ts";

/** The user menu itself, fetched on demand by the header's button (user-menu.tsx). */
export function UserMenuDropdown({
  user,
  open,
  onOpenChange,
  trigger,
  focusTrigger,
}: {
  user: { displayName: string; role: Role } | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: React.ReactElement;
  focusTrigger: boolean;
}) {
  const cart = useCart();
  const submit = useSubmit();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const focusOnMount = useRef(focusTrigger && !open);
  useLayoutEffect(() => {
    // The plain button had focus when the menu arrived; it went with that button unless the
    // shopper moved on (Tab) before this one took its place: then focus stays where they went.
    if (focusOnMount.current && focusLost()) triggerRef.current?.focus();
  }, []);

  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange} modal={false}>
      <DropdownMenuTrigger asChild ref={triggerRef}>
        {trigger}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-44">
        {user ? (
          <>
            {isStaff(user.role) ? (
              <DropdownMenuItem asChild>
                {/* Loaded anew: the back office's document may run the counter's camera reader,
                    which a storefront page's policy refuses (entry.server.tsx). */}
                <Link to="/admin" reloadDocument>
                  Back Office
                </Link>
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
