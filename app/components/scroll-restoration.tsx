import { useContext, useEffect, useLayoutEffect } from "react";
import {
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FrameworkContext,
  useLocation,
  useNavigation,
} from "react-router";

/**
 * React Router's scroll restoration (its `ScrollRestoration`, which this replaces), without
 * touching sessionStorage while the page loads. Chromium's first read of sessionStorage in a
 * page waits on the browser process: 15–60 ms of the home page's main thread in this machine's
 * Lighthouse runs, while the page's images were loading, and React Router's component reads it
 * twice on every load (its inline script, then again while hydrating). Here:
 * - the inline script reads it only when the history entry has a position to go back to (a
 *   reload, back or forward to a page loaded before); a new entry has none;
 * - the positions of the entries this page visits are kept in memory, as React Router keeps
 *   them, and merged into sessionStorage when the page is left, not read when it starts.
 * Everything else is React Router's: the entries' keys, the router's own saving and restoring
 * on back and forward, scrolling to a #hash, and `preventScrollReset`.
 */

/** Where React Router keeps each history entry's scroll position (its default key). */
const STORAGE_KEY = "react-router-scroll-positions";

/** The scroll positions of the history entries this page has visited, by entry key. */
const positions: Record<string, number> = {};

/** The positions kept in sessionStorage by earlier page loads of this tab. */
function stored(): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) || "{}");
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Runs in the page before it is drawn: gives the entry a key, or goes back to its position. */
function restoreScroll(storageKey: string) {
  const key = window.history.state?.key;
  if (!key) {
    window.history.replaceState({ key: Math.random().toString(32).slice(2) }, "");
    return;
  }
  try {
    const y = JSON.parse(sessionStorage.getItem(storageKey) || "{}")[key];
    if (typeof y === "number") window.scrollTo(0, y);
  } catch (error) {
    console.error(error);
    sessionStorage.removeItem(storageKey);
  }
}

export function ScrollRestoration() {
  const framework = useContext(UNSAFE_FrameworkContext);
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const routerState = useContext(UNSAFE_DataRouterStateContext);
  const location = useLocation();
  const navigation = useNavigation();
  const restoreScrollPosition = routerState?.restoreScrollPosition;
  const preventScrollReset = routerState?.preventScrollReset;

  useEffect(() => {
    window.history.scrollRestoration = "manual";
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) window.history.scrollRestoration = "manual";
    };
    window.addEventListener("pageshow", shown);
    return () => {
      window.removeEventListener("pageshow", shown);
      window.history.scrollRestoration = "auto";
    };
  }, []);

  useEffect(() => {
    const hidden = () => {
      if (navigation.state === "idle") positions[location.key] = window.scrollY;
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...stored(), ...positions }));
      } catch {
        // Storage full or refused: positions are lost, as with React Router's own.
      }
      window.history.scrollRestoration = "auto";
    };
    window.addEventListener("pagehide", hidden);
    return () => window.removeEventListener("pagehide", hidden);
  }, [navigation.state, location]);

  // Back or forward may lead, within this page, to an entry an earlier page load made (Chromium
  // keeps a reloaded page's earlier entries in the same document): its position is in storage.
  // The router restores it once the entry's data has loaded, after this event.
  useEffect(() => {
    const popped = () => {
      for (const [key, y] of Object.entries(stored())) {
        if (typeof y === "number" && !(key in positions)) positions[key] = y;
      }
    };
    window.addEventListener("popstate", popped);
    return () => window.removeEventListener("popstate", popped);
  }, []);

  // The router saves the position of the entry it leaves and restores it on back and forward.
  useLayoutEffect(() => router?.enableScrollRestoration(positions, () => window.scrollY), [router]);

  useLayoutEffect(() => {
    if (restoreScrollPosition === false) return;
    if (typeof restoreScrollPosition === "number") {
      window.scrollTo(0, restoreScrollPosition);
      return;
    }
    if (location.hash) {
      try {
        const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        if (target) {
          target.scrollIntoView();
          return;
        }
      } catch {
        // Not a decodable id: go to the top as for any other page.
      }
    }
    if (preventScrollReset === true) return;
    window.scrollTo(0, 0);
  }, [location, restoreScrollPosition, preventScrollReset]);

  if (!framework || framework.isSpaMode) return null;
  return (
    <script
      nonce={framework.nonce}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{
        __html: `(${restoreScroll.toString()})(${JSON.stringify(STORAGE_KEY)})`,
      }}
    />
  );
}
