import { focusLost } from "./focus.ts";

// Where focus goes once a form has its answer (decision 018), for `PageFeedback`
// (app/components/page-feedback.tsx), which the first load does without.

/** A message about a whole form (`FormMessage` carries the attribute). */
const FORM_MESSAGE = "[data-form-message]";

/** A form that was sent: what it was, which button sent it, and the part of the page around it. */
export type SentForm = {
  form: HTMLFormElement;
  submitter: HTMLElement | null;
  surroundings: Element | null;
};

/** The part of the page a form belongs to: its section or dialog, else what holds it. */
export function formSurroundings(form: HTMLFormElement): Element | null {
  return form.closest("section, dialog, [role=dialog]") ?? form.parentElement;
}

/** Gives focus to something that is no control (a message, a heading): by script only. */
function focusText(element: HTMLElement) {
  if (!element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
  element.focus();
}

/**
 * Once a form sent from this page has its answer on the same page, focus goes to what answers
 * it, so a keyboard or screen reader user is where the answer is (the button that sent it was
 * disabled meanwhile, which sends focus to the page's body, or the form gave way to a
 * confirmation):
 * - the first field the answer marks invalid;
 * - else the form's message (`FormMessage`): an error always, a confirmation when focus was lost;
 * - else, focus lost, the button that sent it, or the heading of the form's section.
 * Nothing moves when the person went elsewhere while waiting. When nothing answers and focus is
 * lost, `NavigationFocus` puts it on the page's heading.
 */
export function focusFormAnswer({ form, submitter, surroundings }: SentForm) {
  const lost = focusLost();
  const active = document.activeElement;
  const around = form.isConnected ? formSurroundings(form) : surroundings;
  if (!lost && !form.contains(active) && !around?.contains(active)) return;
  const invalid = form.isConnected && form.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (invalid) return invalid.focus();
  const live = around?.isConnected ? around : null;
  const message = live?.querySelector<HTMLElement>(FORM_MESSAGE);
  if (message && (lost || message.getAttribute("role") === "alert")) return focusText(message);
  if (!lost) return;
  if (submitter?.isConnected && !submitter.matches(":disabled")) return submitter.focus();
  const heading = live?.querySelector<HTMLElement>("h2, h3");
  if (heading) focusText(heading);
}

/**
 * On the page a form's redirect led to, its answer (a confirmation) if the page shows one:
 * focused and in view, whatever part of the page the address points at. True if it did.
 */
export function focusPageAnswer() {
  const answer = document.getElementById("main")?.querySelector<HTMLElement>(FORM_MESSAGE);
  if (answer) focusText(answer);
  return Boolean(answer);
}
