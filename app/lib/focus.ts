/**
 * Nothing on the page has focus: it went with an element that left the page, or was never
 * placed. Whatever would give focus back (a closing sheet, a part that replaces its stand-in, a
 * new page's heading) does so only then, and leaves it where the shopper or a page put it.
 */
export function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body;
}

/**
 * An address's query as a person sees it. React Router sends a form of an index route to the
 * address with `?index` added and shows that address afterwards, though the person is still on
 * the same page: the form's answer is no new page.
 */
export function visibleSearch(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("index");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}
