// The home page's poster rows move on their own unless the shopper prefers reduced motion. (axe
// judges every page and open state in axe-routes.spec.ts.)
import { expect, frames, test } from "./support/fixtures.ts";

test("poster rows stand still for people who prefer reduced motion", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  const row = page.getByRole("region", { name: "New Arrivals posters" });
  const scrolled = () => row.evaluate((element) => element.scrollLeft);
  await frames(page, 40);
  expect(await scrolled()).toBe(0);
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await expect.poll(scrolled).toBeGreaterThan(5);
  // Hovering pauses the row.
  await row.hover();
  const at = await scrolled();
  await frames(page, 40);
  expect(await scrolled()).toBeLessThan(at + 3);
});

test("a poster row can be scrolled by hand and with its buttons", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByRole("button", { name: "Pause New Arrivals" }).click();
  const row = page.getByRole("region", { name: "New Arrivals posters" });
  const scrolled = () => row.evaluate((element) => element.scrollLeft);
  const start = await scrolled();
  await page.getByRole("button", { name: "Scroll New Arrivals forward" }).click();
  await expect.poll(scrolled).toBeGreaterThan(start + 100);
  const forward = await scrolled();
  await page.getByRole("button", { name: "Scroll New Arrivals back" }).click();
  await expect.poll(scrolled).toBeLessThan(forward - 100);
  // A swipe (here: the wheel a trackpad sends) moves it too.
  await row.hover();
  const before = await scrolled();
  await page.mouse.wheel(300, 0);
  await expect.poll(scrolled).toBeGreaterThan(before + 100);
});

test("a poster row stands still while it is out of sight", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 600 });
  await page.goto("/");
  const row = page.getByRole("region", { name: "New Arrivals posters" });
  const scrolled = () => row.evaluate((element) => element.scrollLeft);
  await expect.poll(scrolled).toBeGreaterThan(2);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(row).not.toBeInViewport();
  await frames(page, 5);
  const at = await scrolled();
  await frames(page, 40);
  expect(await scrolled()).toBe(at);
  // Back in sight, it moves on from where it stood.
  await row.scrollIntoViewIfNeeded();
  await expect.poll(scrolled).toBeGreaterThan(at + 2);
});

test("a row draws the copy that closes its loop only when it nears the end of its items", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByRole("button", { name: "Pause New Arrivals" }).click();
  const row = page.getByRole("region", { name: "New Arrivals posters" });
  const copy = row.locator("ul[aria-hidden] > li");
  const room = () => row.evaluate((element) => element.scrollWidth - element.clientWidth);
  await frames(page, 5);
  await expect(copy).toHaveCount(0);
  // Scrolled by hand to its last screenful, the row draws the copy and goes on past the items.
  const end = await room();
  await row.evaluate((element, left) => element.scrollTo({ left }), end);
  await expect(copy).toHaveCount(12);
  await expect.poll(room).toBeGreaterThan(end + 1000);
});

test("a row starts moving only a moment after the page has loaded", async ({ page }) => {
  // One of the first posters is held back, so the page has hydrated but not finished loading.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding = true;
  await page.route("**/posters/**", async (route) => {
    if (holding) {
      holding = false;
      await held;
    }
    await route.continue();
  });
  await page.goto("/", { waitUntil: "commit" });
  const row = page.getByRole("region", { name: "New Arrivals posters" });
  const scrolled = () => row.evaluate((element) => element.scrollLeft);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  // When the row first moves, in the page's own clock: a busy machine can only delay the page's
  // timers, never bring them forward, so the gap below cannot shrink under load.
  await row.evaluate((element) =>
    element.addEventListener(
      "scroll",
      () => ((window as { firstMove?: number }).firstMove ??= performance.now()),
      { once: true },
    ),
  );
  await frames(page, 40);
  expect(await page.evaluate(() => document.readyState)).not.toBe("complete");
  expect(await scrolled()).toBe(0);

  release();
  await page.waitForFunction(() => document.readyState === "complete");
  await expect.poll(scrolled).toBeGreaterThan(2);
  const { loaded, firstMove } = await page.evaluate(() => ({
    loaded: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming)
      .loadEventStart,
    firstMove: (window as { firstMove?: number }).firstMove!,
  }));
  // The row waits a second after the load event (poster-row.tsx); less than that is a row that
  // started early.
  expect(firstMove - loaded).toBeGreaterThanOrEqual(900);
});
