import { Menu } from "#app/components/ui/icons.tsx";
import { useId, useRef, useState } from "react";
import { sideMenuPart } from "./lazy-parts.ts";
import { intentToOpen, useOnDemand } from "./on-demand.ts";
import { SIDE_MENU_DESCRIPTION, SIDE_MENU_TITLE, SideMenuLinks } from "./side-menu-links.tsx";
import { Button } from "./ui/button.tsx";
import { SheetPlaceholder } from "./ui/sheet-placeholder.tsx";

/**
 * The menu button and its sheet of the shop's pages. The sheet's code is fetched when it is first
 * opened (or headed for); until it has arrived the menu opens at once as a placeholder that
 * already lists the pages. The button stays the same element throughout.
 */
export function SideMenu() {
  const [open, setOpen] = useState(false);
  /** This opening began before the sheet's code had arrived. */
  const [openedEarly, setOpenedEarly] = useState(false);
  const part = useOnDemand(sideMenuPart);
  const button = useRef<HTMLButtonElement>(null);
  const contentId = useId();
  return (
    <>
      <Button
        ref={button}
        type="button"
        variant="ghost"
        size="icon"
        className="text-white hover:bg-white/10 hover:text-white"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? contentId : undefined}
        {...intentToOpen(sideMenuPart)}
        onClick={() => {
          sideMenuPart.preload();
          setOpenedEarly(sideMenuPart.current() === null);
          setOpen(true);
        }}
      >
        <Menu aria-hidden="true" />
      </Button>
      {part ? (
        <part.SideMenuSheet
          id={contentId}
          open={open}
          onOpenChange={setOpen}
          opener={button}
          appearAtOnce={openedEarly}
        />
      ) : open ? (
        <SheetPlaceholder
          id={contentId}
          side="left"
          title={SIDE_MENU_TITLE}
          description={SIDE_MENU_DESCRIPTION}
          className="w-72"
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        >
          <SideMenuLinks onNavigate={() => setOpen(false)} />
        </SheetPlaceholder>
      ) : null}
    </>
  );
}
