import { test as base, type Page } from "@playwright/test";

export { expect } from "@playwright/test";

/** Waits for the browser to draw `count` frames: time for the page's effects, or a moving row. */
export async function frames(page: Page, count: number) {
  await page.evaluate(
    (total) =>
      new Promise<void>((resolve) => {
        let drawn = 0;
        const next = () => (++drawn >= total ? resolve() : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
    count,
  );
}

/**
 * Runs the page's animations and transitions at `rate` times their speed (DevTools' animation
 * clock): 0 holds each where it begins, 0.1 plays it ten times slower, as a busy phone might.
 */
export async function animationRate(page: Page, rate: number) {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("Animation.enable");
  await devtools.send("Animation.setPlaybackRate", { playbackRate: rate });
}

/** Waits until the page has hydrated: its buttons and menus respond from then on. */
export function whenInteractive(page: Page) {
  return page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Waits until the page shows presses and forms' answers (`PageFeedback`, fetched once the page
 * is interactive): a spinner on what was pressed, focus on what answers a form.
 */
export function whenFeedbackReady(page: Page) {
  return page.locator("html[data-feedback]").waitFor({ state: "attached" });
}

const waiting = new WeakSet<Page>();

/** Makes the page's goto and reload return only once it is interactive (once per page). */
function waitUntilInteractiveOnLoad(page: Page) {
  if (waiting.has(page)) return;
  waiting.add(page);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await whenInteractive(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await whenInteractive(page);
    return response;
  };
}

/**
 * Pages are server-rendered, so they are visible before React has attached its handlers.
 * After a full page load, wait until the page says it is interactive, as a person would wait
 * for it to respond, so clicks are never lost to a page that is still starting. This holds for
 * every page a test opens: the test's own, others of its context, and those of contexts it makes
 * (a second shopper, a mail program).
 */
export const test = base.extend({
  context: async ({ context, javaScriptEnabled }, use) => {
    // Without JavaScript a page never becomes interactive: its forms are plain posts.
    if (javaScriptEnabled !== false) context.on("page", waitUntilInteractiveOnLoad);
    await use(context);
  },
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        if (options?.javaScriptEnabled !== false) context.on("page", waitUntilInteractiveOnLoad);
        return context;
      };
      await use(browser);
    },
    { scope: "worker" },
  ],
});
