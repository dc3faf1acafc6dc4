import { NavLink } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "./ui/sheet.tsx";

const LINKS = [
  { to: "/", label: "Home" },
  { to: "/movies", label: "Movies" },
  { to: "/adult-movies", label: "Adult Movies" },
  { to: "/account", label: "Account" },
  { to: "/orders", label: "Orders" },
  { to: "/other-services", label: "Other Services" },
] as const;

/** The side menu's sheet, opened by the menu button in the header (side-menu.tsx). */
export function SideMenuSheet({
  id,
  open,
  onOpenChange,
  opener,
}: {
  id: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button, which gets focus back when the sheet closes. */
  opener: React.RefObject<HTMLButtonElement | null>;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange} side="left">
      <SheetContent
        id={id}
        side="left"
        className="w-72"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <SheetHeader>
          <SheetTitle>Menu</SheetTitle>
          <SheetDescription className="sr-only">Pages of the shop</SheetDescription>
        </SheetHeader>
        <ul className="flex flex-col gap-1 px-3">
          {LINKS.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end={link.to === "/"}
                onClick={() => onOpenChange(false)}
                className={({ isActive }) =>
                  cn(
                    "block rounded-md px-3 py-2.5 font-medium hover:bg-accent",
                    isActive && "bg-secondary text-primary",
                  )
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </SheetContent>
    </Sheet>
  );
}
