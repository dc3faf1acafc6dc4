import { Menu } from "#app/components/ui/icons.tsx";
import { useId, useRef, useState } from "react";
import { sideMenuPart } from "./lazy-parts.ts";
import { intentToOpen, useOnDemand } from "./on-demand.ts";
import { Button } from "./ui/button.tsx";

/**
 * The menu button and its sheet of the shop's pages. The sheet is fetched when it is first
 * opened (or headed for); the button stays the same element throughout.
 */
export function SideMenu() {
  const [open, setOpen] = useState(false);
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
          setOpen(true);
        }}
      >
        <Menu aria-hidden="true" />
      </Button>
      {part ? (
        <part.SideMenuSheet id={contentId} open={open} onOpenChange={setOpen} opener={button} />
      ) : null}
    </>
  );
}
