import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigationType, type Location } from "react-router";
import { focusLost, visibleSearch } from "#app/lib/focus.ts";

/**
 * After a client-side navigation the browser leaves focus where it was, or on <body> when that
 * element went away with the old page: a screen reader says nothing and a keyboard user starts
 * again from the top. So, for the whole shop in one place:
 * - a new page, or a new page (or filter) of the same list: focus goes to the main heading and
 *   the page's title is read out;
 * - an action's answer on the same address (a form's next step, its confirmation): focus goes
 *   to the main heading only when the element that had it is gone and nothing that answers the
 *   form took it (`PageFeedback`, decision 018), and a new page a form led to keeps focus on
 *   the answer it shows;
 * - not on the first, server-rendered load, not when a search box rewrites the address as
 *   someone types (a replace of the query alone), not for in-page links such as "Skip to
 *   content", and never for fetchers, which do not change the location.
 */
export function NavigationFocus() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const previous = useRef<Location | null>(null);
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => {
    const before = previous.current;
    previous.current = location;
    if (!before || before.key === location.key) return;
    const samePath = before.pathname === location.pathname;
    const sameAddress = samePath && visibleSearch(before.search) === visibleSearch(location.search);
    if (sameAddress && before.hash !== location.hash) return;

    const newPage = !samePath || (!sameAddress && navigationType !== "REPLACE");
    if (newPage) setAnnouncement(document.title);
    const answerFocused = document.activeElement?.matches("[data-form-message]");
    if ((!newPage || answerFocused) && !focusLost()) return;

    const main = document.getElementById("main");
    const heading = main?.querySelector("h1");
    const target = heading ?? main;
    if (!target) return;
    // Reading starts at the heading; it is no control, so only scripts focus it.
    if (heading && !heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    // Back and forward restore the old scroll position, and a #fragment scrolls to its target:
    // focus must not undo either.
    target.focus({ preventScroll: navigationType === "POP" || location.hash !== "" });
  }, [location, navigationType]);

  return (
    <div role="status" className="sr-only">
      {announcement}
    </div>
  );
}
