import { useId, useLayoutEffect, useRef } from "react";
import { X } from "#app/components/ui/icons.tsx";
import { cn } from "#app/lib/cn.ts";

/** Where focus starts, as on the real sheet: its first control that is not a link. */
const FIRST_CONTROL = "button, input, select, textarea";

/**
 * A sheet drawn the moment it is asked for, while the code of the real one (sheet.tsx, fetched
 * on demand) is still on its way: on a slow network a tap would otherwise change nothing on
 * screen for a second or two. It is the browser's own modal `<dialog>`, so it needs no code of
 * its own to keep focus inside, to close on Escape or to give focus back: it looks like the
 * sheet, says what it is, and gives way to the real sheet as soon as that has arrived (which
 * then appears without sliding in a second time, `appearAtOnce` on SheetContent).
 *
 * Its first frame shows it as an open dialog that is not yet modal: making the page behind a
 * modal dialog inert restyles the whole page, which took 35–80 ms on a phone's CPU before
 * anything was drawn. The frame after, once it is on screen, it becomes the modal dialog, with
 * its backdrop (decision 010).
 */
export function SheetPlaceholder({
  id,
  side,
  title,
  description,
  focusTitle = false,
  onClose,
  className,
  children,
}: {
  id?: string;
  side: "left" | "right";
  title: string;
  description: string;
  /** Focus starts on the title instead of the first control that is not a link. */
  focusTitle?: boolean;
  /** Escape, the Close button or a press on the backdrop; focus has gone back by then. */
  onClose: () => void;
  className?: string;
  children: React.ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  // Rendered open, so the first frame after the tap already shows it, and made modal once that
  // frame is on screen (taking the attribute away closes it without a close event). It is not
  // closed when it gives way to the real sheet: that would send focus back to the button for a
  // moment.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const focusStart = () => {
      const first = focusTitle
        ? heading.current
        : element.querySelector<HTMLElement>(FIRST_CONTROL);
      first?.focus({ preventScroll: true });
    };
    focusStart();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      // A task after the frame has begun: the sheet is drawn by the time this runs.
      timer = setTimeout(() => {
        if (!element.open || element.matches(":modal")) return;
        const focused = element.contains(document.activeElement) ? document.activeElement : null;
        element.removeAttribute("open");
        element.showModal();
        if (focused instanceof HTMLElement) focused.focus({ preventScroll: true });
        else focusStart();
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [focusTitle]);

  return (
    <dialog
      ref={dialog}
      open
      id={id}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      data-state="open"
      className={cn("sheet", `sheet-${side}`, className)}
      onClose={onClose}
      onClick={(event) => {
        // A press on the backdrop is a press on the dialog element, outside its box.
        const box = event.currentTarget.getBoundingClientRect();
        const outside =
          event.clientX < box.left ||
          event.clientX > box.right ||
          event.clientY < box.top ||
          event.clientY > box.bottom;
        if (event.target === event.currentTarget && outside) dialog.current?.close();
      }}
    >
      <div className="sheet-header">
        <h2 ref={heading} id={titleId} tabIndex={-1} className="sheet-title">
          {title}
        </h2>
        <p id={descriptionId} className="sr-only">
          {description}
        </p>
      </div>
      {children}
      <button type="button" className="dialog-close" onClick={() => dialog.current?.close()}>
        <X aria-hidden="true" />
        <span className="sr-only">Close</span>
      </button>
    </dialog>
  );
}
