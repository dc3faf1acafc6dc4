import { startTransition, useEffect, useState } from "react";

/**
 * False in the server's page and while it is being hydrated, true from then on: for what only
 * works with JavaScript (the page without it must do without). The change is a transition: what
 * it adds is drawn in short slices that leave the page responsive, not in one long task right
 * after hydration.
 */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  return hydrated;
}
