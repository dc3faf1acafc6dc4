import { useEffect, useRef, useState } from "react";
import { cn } from "#app/lib/cn.ts";

/**
 * A box that scrolls sideways when its content (a wide table on a phone) is wider than it. While
 * it does, it is a named region in the Tab order, so a keyboard can scroll it too (WCAG 2.1.1);
 * while everything fits, it is no extra Tab stop.
 */
export function SidewaysScroll({
  label,
  className,
  children,
}: {
  /** What the region holds, as assistive technology names it: the table's caption. */
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    // Told once when it starts watching, then on every change of either size.
    const observer = new ResizeObserver(() =>
      setScrolls(element.scrollWidth > element.clientWidth + 1),
    );
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={box}
      className={cn("overflow-x-auto", className)}
      {...(scrolls ? { role: "region", "aria-label": label, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
}
