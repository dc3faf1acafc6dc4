import { startTransition, useEffect, useState } from "react";
import type { DataRouter, Location } from "react-router";
import { visibleSearch } from "#app/lib/focus.ts";
import {
  focusFormAnswer,
  focusPageAnswer,
  formSurroundings,
  type SentForm,
} from "#app/lib/form-answer-focus.ts";

/** A form's answer that has come: the form, and whether it led to another page. */
type Answer = { sent: SentForm; newPage: boolean };

/**
 * What the page says back to a press, in one place for the whole shop; fetched right after the
 * page has loaded (`lazy-parts.ts`), so the first load does without it.
 * - The link or button just pressed is marked `data-pending` (a spinner, app.css) from the
 *   moment its page, or its form's answer, is asked for until the router is idle again: every
 *   tap shows something at once, however slow the network, while the progress bar waits 150 ms
 *   against flicker (decision 020).
 * - Once a form sent from the page has its answer, focus goes to what answers it (decision
 *   016): see `focusFormAnswer`, and `focusPageAnswer` for the page a form's redirect led to.
 *
 * It follows the router itself: a navigation or fetcher starts while the press's event is being
 * dispatched, and the answer is noted in the same transition as the router's own update, so it
 * is drawn in the same commit. Rendered before `NavigationFocus`, so its effect runs first: a
 * page's heading takes focus only where no answer did.
 */
export function PageFeedback({ router }: { router: DataRouter }) {
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    let pressed: Element | null | undefined = null;
    let marked: Element[] = [];
    let sent: (SentForm & { from: Location; underWay: boolean }) | null = null;
    const press = (event: Event) => {
      if (event instanceof SubmitEvent && event.target instanceof HTMLFormElement) {
        const form = event.target;
        const mine = (sent = {
          form,
          submitter: event.submitter instanceof HTMLElement ? event.submitter : null,
          surroundings: formSurroundings(form),
          from: router.state.location,
          underWay: false,
        });
        // A form the router did not send at once (one that stops its own submission for
        // messages of its own, a search sent by GET) is forgotten.
        window.setTimeout(() => {
          if (sent === mine && !mine.underWay) sent = null;
        });
      }
      // A form sent with Enter from a field marks its default button, or nothing (a search box
      // alone): the bar still shows.
      const control =
        event instanceof SubmitEvent
          ? event.submitter
          : (event.target as Element).closest?.("a[href], button, [role=button]");
      if (!control) return;
      pressed = control;
      // Whatever the press starts, it starts while its event is dispatched.
      window.setTimeout(() => (pressed = null));
    };
    const unsubscribe = router.subscribe(({ navigation, fetchers, location, historyAction }) => {
      const fetching = [...fetchers.values()];
      const busy =
        navigation.state !== "idle" || fetching.some((fetcher) => fetcher.state !== "idle");
      if (busy && pressed) {
        pressed.setAttribute("data-pending", "");
        marked.push(pressed);
        pressed = null;
      } else if (!busy) {
        for (const control of marked) control.removeAttribute("data-pending");
        marked = [];
      }
      // A form's answer is awaited once the router has sent it.
      const submitting =
        navigation.state === "submitting" ||
        fetching.some((fetcher) => fetcher.state === "submitting");
      if (sent && submitting) sent.underWay = true;
      if (sent?.underWay && !busy) {
        const { from } = sent;
        // Another page, as `NavigationFocus` tells one.
        const newPage =
          from.pathname !== location.pathname ||
          (visibleSearch(from.search) !== visibleSearch(location.search) &&
            historyAction !== "REPLACE");
        const answered = { sent, newPage };
        sent = null;
        startTransition(() => setAnswer(answered));
      }
    });
    window.addEventListener("click", press, true);
    window.addEventListener("submit", press, true);
    // For people's tools and the browser tests alike, as `data-hydrated`.
    document.documentElement.dataset.feedback = "ready";
    return () => {
      unsubscribe();
      window.removeEventListener("click", press, true);
      window.removeEventListener("submit", press, true);
    };
  }, [router]);

  useEffect(() => {
    if (!answer) return;
    // The new page is read from its heading (`NavigationFocus`) unless it shows the answer.
    if (answer.newPage) focusPageAnswer();
    else focusFormAnswer(answer.sent);
  }, [answer]);

  return null;
}
