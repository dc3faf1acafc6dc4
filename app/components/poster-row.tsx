import { Pause, Play } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "react-router";
import { cn } from "#app/lib/cn.ts";

/** Spec §9: 160 px poster cards with a 10 px gap. */
export const POSTER_CARD_WIDTH = 160;

type PosterRowProps = {
  label: string;
  items: { key: string | number; node: React.ReactNode }[];
  secondsPerItem: number;
  emptyText: string;
  /** A page listing everything in the row. */
  seeAllHref?: string;
  /** Anything that belongs to the row, such as its dialog. */
  children?: React.ReactNode;
};

/**
 * An auto-scrolling row. The items are drawn twice so the loop has no seam; the copy is hidden
 * from assistive technology and the keyboard. Scrolling pauses on hover and focus, has a
 * pause control, and stands still (as a scrollable row) for people who prefer reduced motion.
 */
export function PosterRow({
  label,
  items,
  secondsPerItem,
  emptyText,
  seeAllHref,
  children,
}: PosterRowProps) {
  const [paused, setPaused] = useState(false);
  const headingId = useId();
  const duration = `${items.length * secondsPerItem}s`;
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-2xl font-bold">
          {label}
        </h2>
        <div className="flex items-center gap-4">
          {seeAllHref ? (
            <Link to={seeAllHref} className="text-sm font-medium text-primary underline">
              See all<span className="sr-only"> {label}</span>
            </Link>
          ) : null}
          {items.length > 0 ? (
            <button
              type="button"
              onClick={() => setPaused((value) => !value)}
              aria-pressed={paused}
              className="inline-flex h-9 items-center gap-1.5 rounded-md border bg-background px-3 text-sm font-medium hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none motion-reduce:hidden"
            >
              {paused ? (
                <Play aria-hidden="true" className="size-4" />
              ) : (
                <Pause aria-hidden="true" className="size-4" />
              )}
              {paused ? `Play ${label}` : `Pause ${label}`}
            </button>
          ) : null}
        </div>
      </div>
      {items.length === 0 ? (
        <p className="py-6 text-muted-foreground">{emptyText}</p>
      ) : (
        <div
          role="region"
          aria-label={`${label} posters`}
          // Focusable so keyboard users can scroll the row when it stands still.
          tabIndex={0}
          className="group overflow-hidden rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none motion-reduce:overflow-x-auto"
        >
          <div
            data-slot="poster-track"
            className={cn(
              "flex w-max animate-[poster-marquee_var(--row-duration)_linear_infinite] gap-[10px] py-2 group-focus-within:[animation-play-state:paused] group-hover:[animation-play-state:paused] motion-reduce:animate-none",
              paused && "[animation-play-state:paused]",
            )}
            style={{ "--row-duration": duration } as React.CSSProperties}
          >
            <ul className="flex gap-[10px]">
              {items.map((item) => (
                <li key={item.key} className="shrink-0" style={{ width: POSTER_CARD_WIDTH }}>
                  {item.node}
                </li>
              ))}
            </ul>
            <ul className="flex gap-[10px] motion-reduce:hidden" aria-hidden="true" inert>
              {items.map((item) => (
                <li key={item.key} className="shrink-0" style={{ width: POSTER_CARD_WIDTH }}>
                  {item.node}
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {children}
    </section>
  );
}
