import { NavLink } from "react-router";
import { cn } from "#app/lib/cn.ts";

export const SIDE_MENU_TITLE = "Menu";
export const SIDE_MENU_DESCRIPTION = "Pages of the shop";

const LINKS = [
  { to: "/", label: "Home" },
  { to: "/movies", label: "Movies" },
  { to: "/adult-movies", label: "Adult Movies" },
  { to: "/account", label: "Account" },
  { to: "/orders", label: "Orders" },
  { to: "/other-services", label: "Other Services" },
] as const;

/**
 * The shop's pages as the side menu lists them. Part of the first load (it is small), so the
 * menu lists them the moment it opens, before its sheet's code has arrived.
 */
export function SideMenuLinks({ onNavigate }: { onNavigate: () => void }) {
  return (
    <ul className="flex flex-col gap-1 px-3">
      {LINKS.map((link) => (
        <li key={link.to}>
          <NavLink
            to={link.to}
            end={link.to === "/"}
            onClick={onNavigate}
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
  );
}
