import { ChevronLeft, ChevronRight, Pause, Play } from "#app/components/ui/icons.tsx";
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { cn } from "#app/lib/cn.ts";

/** Spec §9: 160 px poster cards (the `poster-track` rule in app.css) with a 10 px gap. */
export const POSTER_CARD_WIDTH = 160;
/** The `sizes` of a poster in a row: the card's width whatever the screen. */
export const POSTER_ROW_SIZES = `${POSTER_CARD_WIDTH}px`;

type PosterRowProps = {
  label: string;
  items: { key: string | number; node: React.ReactNode }[];
  secondsPerItem: number;
  emptyText: string;
  /** A page listing everything in the row. */
  seeAllHref?: string;
  /** Anything that belongs to the row, such as its dialog. */
  children?: React.ReactNode;
  /** Below the page's first screenful: drawn as it is scrolled near (`later-on-page`). */
  later?: boolean;
};

/** After a shopper scrolls a row by hand, it waits this long before moving on its own again. */
const RESUME_AFTER_MS = 2500;

/** Rows start moving this long after the page's load event (see useAutoScroll). */
const START_AFTER_LOAD_MS = 1000;

/**
 * Calls `callback` once `delay` ms have passed since the page's load event (at once if they
 * have, as when the row is paused and played again); returns a cancel.
 */
function afterLoad(callback: () => void, delay: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = () => {
    const [navigation] = performance.getEntriesByType(
      "navigation",
    ) as PerformanceNavigationTiming[];
    const loadedAt = navigation?.loadEventEnd || performance.now();
    timer = setTimeout(callback, Math.max(0, loadedAt + delay - performance.now()));
  };
  if (document.readyState === "complete") wait();
  else addEventListener("load", wait, { once: true });
  return () => {
    removeEventListener("load", wait);
    clearTimeout(timer);
  };
}

/**
 * Moves a row's scroll position on its own (spec: the rows auto-scroll) while nobody is using
 * it: not while hovered, focused inside, touched, scrolled by hand (for a moment after), paused
 * by its button, hidden, or when the shopper prefers reduced motion. Because it is the real
 * scroll position, a shopper can swipe, drag with a trackpad or use the buttons at any time.
 *
 * A row moves 17–21 px a second, so it steps once a whole device pixel is due rather than on
 * every frame the display could draw (17–21 steps a second on a 1× screen, 30–37 on a 1.75× one,
 * against 60 frames), and stands still while it is out of sight. It starts a moment after the
 * page has loaded: a step reads the row's scroll position, and while the page is still loading
 * (images arriving, the page hydrating) that read makes the browser lay the page out again there
 * and then, many times over.
 */
function useAutoScroll(
  ref: React.RefObject<HTMLDivElement | null>,
  listRef: React.RefObject<HTMLUListElement | null>,
  options: { pixelsPerSecond: number; paused: boolean },
) {
  const held = useRef({ hover: false, focus: false, touch: false, until: 0 });
  const { pixelsPerSecond, paused } = options;
  useEffect(() => {
    const row = ref.current;
    const list = listRef.current;
    if (!row || !list || paused) return;
    const reduced = matchMedia("(prefers-reduced-motion: reduce)");
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    let position = 0;
    let inSight = false;
    let started = false;
    // The width of the items, read when it changes rather than on every step.
    let itemsWidth = 0;
    const resized = new ResizeObserver(() => (itemsWidth = list.scrollWidth));
    resized.observe(list);
    const step = () => {
      const now = performance.now();
      const elapsed = Math.min(now - last, 100);
      last = now;
      const state = held.current;
      // Someone scrolled by hand since the last step: carry on from where they left it.
      if (Math.abs(row.scrollLeft - position) > 2) {
        position = row.scrollLeft;
        state.until = now + RESUME_AFTER_MS;
      }
      const idle = !state.hover && !state.focus && !state.touch && now >= state.until;
      if (idle && !reduced.matches && document.visibilityState === "visible") {
        // Past the items and their gap, the copy shows the same picture one copy back (the copy
        // is drawn before the row can get there: useLoopCopy).
        itemsWidth ||= list.scrollWidth; // before the observer's first report
        const copy = itemsWidth + ROW_GAP;
        position += (pixelsPerSecond * elapsed) / 1000;
        if (position >= copy) position -= copy;
        row.scrollLeft = position;
      }
      // The next step when a device pixel of movement is due.
      timer = setTimeout(step, 1000 / (pixelsPerSecond * devicePixelRatio));
    };
    const move = () => {
      clearTimeout(timer);
      if (!started || !inSight) return;
      last = performance.now();
      position = row.scrollLeft;
      step();
    };
    const sight = new IntersectionObserver(([entry]) => {
      inSight = entry?.isIntersecting ?? false;
      move();
    });
    sight.observe(row);
    const start = () => {
      started = true;
      move();
    };
    const loaded = afterLoad(start, START_AFTER_LOAD_MS);
    return () => {
      loaded();
      sight.disconnect();
      resized.disconnect();
      clearTimeout(timer);
    };
  }, [ref, listRef, pixelsPerSecond, paused]);
  const hold = (key: "hover" | "focus" | "touch", value: boolean) => {
    held.current[key] = value;
    if (!value) held.current.until = performance.now() + (key === "hover" ? 0 : RESUME_AFTER_MS);
  };
  return {
    onMouseEnter: () => hold("hover", true),
    onMouseLeave: () => hold("hover", false),
    onFocus: () => hold("focus", true),
    onBlur: (event: React.FocusEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) hold("focus", false);
    },
    onPointerDown: () => hold("touch", true),
    onPointerUp: () => hold("touch", false),
    onPointerCancel: () => hold("touch", false),
    onTouchStart: () => hold("touch", true),
    onTouchEnd: () => hold("touch", false),
  };
}

const ROW_GAP = 10;

/**
 * Whether the items are wider than the row, so that it has something to scroll through. When
 * they all fit, the row stands still and draws them once (no poster twice side by side).
 */
function useOverflows(
  rowRef: React.RefObject<HTMLDivElement | null>,
  listRef: React.RefObject<HTMLUListElement | null>,
) {
  const [overflows, setOverflows] = useState(true);
  useEffect(() => {
    const row = rowRef.current;
    const list = listRef.current;
    if (!row || !list) return;
    const measure = () => setOverflows(list.scrollWidth > row.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(row);
    observer.observe(list);
    return () => observer.disconnect();
  }, [rowRef, listRef]);
  return overflows;
}

/**
 * Whether to draw the copy of the items that closes the loop. It doubles the row, and a row
 * moving 17–21 px a second reaches it only after a minute or more, so it is drawn once the row
 * is within two widths of the items' end (at once where the row is nearly as wide as they are).
 */
function useLoopCopy(
  rowRef: React.RefObject<HTMLDivElement | null>,
  listRef: React.RefObject<HTMLUListElement | null>,
) {
  const [looping, setLooping] = useState(false);
  useEffect(() => {
    const row = rowRef.current;
    const list = listRef.current;
    if (!row || !list || looping) return;
    const check = () => {
      if (row.scrollLeft + 2 * row.clientWidth >= list.scrollWidth) setLooping(true);
    };
    check();
    row.addEventListener("scroll", check, { passive: true });
    return () => row.removeEventListener("scroll", check);
  }, [rowRef, listRef, looping]);
  return looping;
}

/**
 * A row of posters that scrolls on its own and by hand. The items are drawn a second time as the
 * row nears their end, so the loop has no seam; the copy is hidden from assistive technology and
 * the keyboard (and not drawn at all for people who prefer reduced motion, for whom the row
 * stands still). Moving pauses on
 * hover, focus and touch, and has a pause control; Back and Forward buttons scroll it too.
 */
export function PosterRow({
  label,
  items,
  secondsPerItem,
  emptyText,
  seeAllHref,
  children,
  later = false,
}: PosterRowProps) {
  const [paused, setPaused] = useState(false);
  const headingId = useId();
  const rowRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const overflows = useOverflows(rowRef, listRef);
  const looping = useLoopCopy(rowRef, listRef);
  const handlers = useAutoScroll(rowRef, listRef, {
    pixelsPerSecond: (POSTER_CARD_WIDTH + ROW_GAP) / secondsPerItem,
    paused: paused || !overflows,
  });
  const scrollBy = (direction: 1 | -1) => {
    const row = rowRef.current;
    if (!row) return;
    const step = Math.max(POSTER_CARD_WIDTH + ROW_GAP, row.clientWidth - POSTER_CARD_WIDTH);
    row.scrollBy({ left: direction * step, behavior: "smooth" });
  };
  return (
    <section
      aria-labelledby={headingId}
      className={cn("mx-auto max-w-7xl px-4 py-6 sm:px-6", later && "later-on-page")}
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-2xl font-bold">
          {label}
        </h2>
        <div className="flex flex-wrap items-center gap-2 sm:gap-4">
          {seeAllHref ? (
            <Link to={seeAllHref} className="text-sm font-medium text-primary underline">
              See all<span className="sr-only"> {label}</span>
            </Link>
          ) : null}
          {items.length > 0 && overflows ? (
            <div className="flex items-center gap-2">
              <button
                type="button"
                onClick={() => scrollBy(-1)}
                aria-label={`Scroll ${label} back`}
                className="row-control px-2"
              >
                <ChevronLeft aria-hidden="true" className="size-4" />
              </button>
              <button
                type="button"
                onClick={() => scrollBy(1)}
                aria-label={`Scroll ${label} forward`}
                className="row-control px-2"
              >
                <ChevronRight aria-hidden="true" className="size-4" />
              </button>
              <button
                type="button"
                onClick={() => setPaused((value) => !value)}
                aria-pressed={paused}
                className="row-control motion-reduce:hidden"
              >
                {paused ? (
                  <Play aria-hidden="true" className="size-4" />
                ) : (
                  <Pause aria-hidden="true" className="size-4" />
                )}
                {paused ? `Play ${label}` : `Pause ${label}`}
              </button>
            </div>
          ) : null}
        </div>
      </div>
      {items.length === 0 ? (
        <p className="py-6 text-muted-foreground">{emptyText}</p>
      ) : (
        <div
          ref={rowRef}
          role="region"
          aria-label={`${label} posters`}
          // Focusable so keyboard users can scroll the row with the arrow keys.
          tabIndex={0}
          className="poster-track overflow-x-auto overscroll-x-contain rounded-md [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
          {...handlers}
        >
          <div className="flex w-max gap-[10px] py-2">
            <ul ref={listRef} className="flex gap-[10px]">
              {items.map((item) => (
                <li key={item.key}>{item.node}</li>
              ))}
            </ul>
            {/* The copy only serves the moving loop: drawn by the browser, never sent. */}
            {looping ? (
              <ul
                className={overflows ? "flex gap-[10px] motion-reduce:hidden" : "hidden"}
                aria-hidden="true"
                inert
              >
                {items.map((item) => (
                  <li key={item.key}>{item.node}</li>
                ))}
              </ul>
            ) : null}
          </div>
        </div>
      )}
      {children}
    </section>
  );
}
