import { createContext, use, type ComponentProps } from "react";
import { Dialog as SheetPrimitive } from "radix-ui";
import { X } from "#app/components/ui/icons.tsx";

import { cn } from "#app/lib/cn.ts";
import { focusLost } from "#app/lib/focus.ts";

/** Styled by the `sheet` rules in app.css. */
type SheetSide = "right" | "left" | "top" | "bottom";

const SheetSideContext = createContext<SheetSide>("right");

/** `side` may be set here or on `SheetContent` (which wins). */
export function Sheet({
  side = "right",
  ...props
}: ComponentProps<typeof SheetPrimitive.Root> & { side?: SheetSide }) {
  return (
    <SheetSideContext value={side}>
      <SheetPrimitive.Root {...props} />
    </SheetSideContext>
  );
}

export function SheetTrigger(props: ComponentProps<typeof SheetPrimitive.Trigger>) {
  return <SheetPrimitive.Trigger {...props} />;
}

export function SheetClose(props: ComponentProps<typeof SheetPrimitive.Close>) {
  return <SheetPrimitive.Close {...props} />;
}

export function SheetContent({
  className,
  children,
  side,
  appearAtOnce = false,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof SheetPrimitive.Content> & {
  side?: SheetSide;
  /** Takes the place of a SheetPlaceholder already on screen: no second slide or fade in. */
  appearAtOnce?: boolean;
}) {
  const resolvedSide = side ?? use(SheetSideContext);
  const still = appearAtOnce && "data-[state=open]:animate-none";
  return (
    <SheetPrimitive.Portal>
      <SheetPrimitive.Overlay className={cn("overlay", still)} />
      <SheetPrimitive.Content
        data-side={resolvedSide}
        className={cn("sheet", `sheet-${resolvedSide}`, still, className)}
        {...props}
        onCloseAutoFocus={(event) => {
          // The sheet has gone from the page by now, and focus with it, unless something put
          // focus elsewhere while it slid away: a link's new page on its heading. That stays.
          if (!focusLost()) {
            event.preventDefault();
            return;
          }
          onCloseAutoFocus?.(event);
        }}
      >
        {children}
        <SheetPrimitive.Close className="dialog-close">
          <X aria-hidden="true" />
          <span className="sr-only">Close</span>
        </SheetPrimitive.Close>
      </SheetPrimitive.Content>
    </SheetPrimitive.Portal>
  );
}

export function SheetHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("sheet-header", className)} {...props} />;
}

export function SheetFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("sheet-footer", className)} {...props} />;
}

export function SheetTitle({ className, ...props }: ComponentProps<typeof SheetPrimitive.Title>) {
  return <SheetPrimitive.Title className={cn("sheet-title", className)} {...props} />;
}

export function SheetDescription({
  className,
  ...props
}: ComponentProps<typeof SheetPrimitive.Description>) {
  return <SheetPrimitive.Description className={cn("dialog-description", className)} {...props} />;
}
