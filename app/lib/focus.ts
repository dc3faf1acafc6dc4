/**
 * Nothing on the page has focus: it went with an element that left the page, or was never
 * placed. Whatever would give focus back (a closing sheet, a part that replaces its stand-in, a
 * new page's heading) does so only then, and leaves it where the shopper or a page put it.
 */
export function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body;
}
