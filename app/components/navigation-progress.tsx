import { useEffect, useState } from "react";
import { useLocation, useNavigation } from "react-router";

/** How long a navigation may take before the bar shows: quick ones do not flicker. */
const SHOW_AFTER_MS = 150;

/**
 * A thin bar at the top of the window while the next page loads (slow networks), shown after a
 * short delay. It creeps towards the end and never claims to be done before the page arrives.
 * The bar itself is decoration; the page's own loading texts are what assistive technology reads.
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = window.setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [busy]);
  return (
    <div
      aria-hidden="true"
      data-testid="navigation-progress"
      data-state={visible ? "loading" : "idle"}
      className="pointer-events-none fixed inset-x-0 top-0 z-[60] h-1 overflow-hidden"
    >
      <div
        className={
          visible
            ? "h-full w-full origin-left animate-[navigation-progress_8s_cubic-bezier(0.1,0.6,0.2,1)_forwards] bg-amber-400 motion-reduce:animate-none motion-reduce:opacity-80"
            : "h-full w-full origin-left scale-x-0 bg-amber-400"
        }
      />
    </div>
  );
}

/**
 * True while the current page is being replaced by another version of itself (a filter, sort or
 * page of the same list), so the old list can be dimmed.
 */
export function useRefreshingSamePage() {
  const navigation = useNavigation();
  const location = useLocation();
  return (
    navigation.state === "loading" &&
    navigation.location.pathname === location.pathname &&
    navigation.location.search !== location.search
  );
}
