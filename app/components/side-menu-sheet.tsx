import { SIDE_MENU_DESCRIPTION, SIDE_MENU_TITLE, SideMenuLinks } from "./side-menu-links.tsx";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "./ui/sheet.tsx";

/** The side menu's sheet, opened by the menu button in the header (side-menu.tsx). */
export function SideMenuSheet({
  id,
  open,
  onOpenChange,
  opener,
  appearAtOnce,
}: {
  id: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button, which gets focus back when the sheet closes. */
  opener: React.RefObject<HTMLButtonElement | null>;
  /** It takes the place of the menu's placeholder, already open on screen. */
  appearAtOnce: boolean;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange} side="left">
      <SheetContent
        id={id}
        side="left"
        className="w-72"
        appearAtOnce={appearAtOnce}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <SheetHeader>
          <SheetTitle>{SIDE_MENU_TITLE}</SheetTitle>
          <SheetDescription className="sr-only">{SIDE_MENU_DESCRIPTION}</SheetDescription>
        </SheetHeader>
        <SideMenuLinks onNavigate={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}
