// Back, forward and reload return the shopper to where they were on a page; a new page starts at
// its top (app/components/scroll-restoration.tsx).
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Scrolls /movies well down its grid, and says where it stopped. */
async function downTheList(page: Page) {
  await page.setViewportSize({ width: 390, height: 700 });
  await page.goto("/movies");
  await page.evaluate(() => window.scrollTo(0, 1500));
  await expect.poll(() => scrollY(page)).toBe(1500);
  return 1500;
}

/** Opens the list's `index`th title, and says where the list was scrolled to when it left. */
async function openTitle(page: Page, index: number) {
  const link = page
    .getByRole("main")
    .getByRole("link")
    .filter({ has: page.locator("h2") });
  const title = link.nth(index);
  await title.scrollIntoViewIfNeeded();
  const place = await scrollY(page);
  const name = (await title.locator("h2").textContent())!;
  await title.click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return { place, name };
}

test("back and forward within the shop return to the place on each page", async ({ page }) => {
  await downTheList(page);
  const { place, name } = await openTitle(page, 10);
  expect(place).toBeGreaterThan(1000);
  // A new page starts at its top.
  await expect.poll(() => scrollY(page)).toBe(0);
  await page.evaluate(() => window.scrollTo(0, 200));
  await expect.poll(() => scrollY(page)).toBe(200);

  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Regular Titles" })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(place);
  await page.goForward();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(200);
});

test("a reload keeps the place, and back after it too", async ({ page }) => {
  await downTheList(page);
  await page.reload();
  await expect.poll(() => scrollY(page)).toBe(1500);

  // Back from a reloaded page leads to an entry of the page load before it.
  const { place } = await openTitle(page, 4);
  await page.reload();
  expect(await scrollY(page)).toBe(0);
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Regular Titles" })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(place);
});

test("a new visit loads and moves on without reading the scroll positions", async ({ page }) => {
  // Chromium's first read of sessionStorage waits on the browser process (the component says
  // why). React Router's router still reads a key of its own once, while hydrating.
  await page.addInitScript(() => {
    const reads: string[] = [];
    (window as unknown as { sessionReads: string[] }).sessionReads = reads;
    const getItem = Storage.prototype.getItem;
    Storage.prototype.getItem = function (this: Storage, key: string) {
      if (this === window.sessionStorage) reads.push(key);
      return getItem.call(this, key);
    };
  });
  await page.goto("/movies");
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/page=2/);
  const reads = await page.evaluate(
    () => (window as unknown as { sessionReads: string[] }).sessionReads,
  );
  expect(reads).not.toContain("react-router-scroll-positions");
});
