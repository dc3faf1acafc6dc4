import { ChevronDown, User } from "#app/components/ui/icons.tsx";
import { useEffect, useRef, useState } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { cn } from "#app/lib/cn.ts";
import type { loader as rootLoader } from "#app/root.tsx";
import { userMenuPart } from "./lazy-parts.ts";
import { Button } from "./ui/button.tsx";

type MenuModule = Awaited<ReturnType<typeof userMenuPart.load>>;

const triggerClass = "text-white hover:bg-white/10 hover:text-white";

/**
 * Signed out: a Login button offering Sign In and Register. Signed in: the person's menu.
 * The menu is fetched when its button is first headed for (pointer over, focus, press). Until it
 * has arrived the button is a plain one that remembers being pressed: the menu then opens as
 * soon as it is there.
 */
export function UserMenu() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  const user = data?.user ?? null;
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [menu, setMenu] = useState<{ module: MenuModule; hadFocus: boolean } | null>(null);
  const plainButton = useRef<HTMLButtonElement>(null);

  // Closes on route change (outside clicks and picks are handled by the menu itself).
  useEffect(() => setOpen(false), [location.pathname]);

  const fetchMenu = () => {
    userMenuPart
      .load()
      .then((module) =>
        setMenu(
          (current) =>
            current ?? { module, hadFocus: document.activeElement === plainButton.current },
        ),
      )
      .catch((error: unknown) => console.error("Could not load the user menu", error));
  };
  const openWhenReady = () => {
    fetchMenu();
    setOpen(true);
  };

  const content = (
    <>
      <User aria-hidden="true" />
      {/* On phones a signed-in name is only read out: the icon keeps the header one line. */}
      <span className={cn("max-w-32 truncate", user && "sr-only sm:not-sr-only")}>
        {user ? user.displayName : "Login"}
      </span>
      <ChevronDown aria-hidden="true" className="hidden sm:block" />
    </>
  );

  if (menu) {
    return (
      <menu.module.UserMenuDropdown
        user={user}
        open={open}
        onOpenChange={setOpen}
        // The menu's button takes the plain one's place, and its focus if it had it.
        focusTrigger={menu.hadFocus}
        trigger={
          <Button variant="ghost" className={triggerClass}>
            {content}
          </Button>
        }
      />
    );
  }
  return (
    <Button
      ref={plainButton}
      type="button"
      variant="ghost"
      className={triggerClass}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={fetchMenu}
      onFocus={fetchMenu}
      onTouchStart={fetchMenu}
      // As the menu's own button does: it opens on press, on Enter or Space, and on Arrow Down.
      onPointerDown={(event) => {
        if (event.button !== 0 || event.ctrlKey) return;
        event.preventDefault();
        openWhenReady();
      }}
      onClick={openWhenReady}
      onKeyDown={(event) => {
        if (event.key !== "ArrowDown") return;
        event.preventDefault();
        openWhenReady();
      }}
    >
      {content}
    </Button>
  );
}
