// A page is server-rendered, so it shows before React has attached its handlers; the fixtures'
// goto and reload wait until it is interactive. That has to hold for every page a test opens,
// in another browser context too, or a click can be lost to a page still starting.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";

/** Holds the page's entry script back, so that the load event comes well before hydration. */
async function slowToHydrate(page: Page) {
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
}

const hydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated);

test("every page a test opens is interactive when goto and reload return", async ({
  browser,
  page,
}) => {
  const pages = {
    "the test's page": page,
    "another page of its context": await page.context().newPage(),
    "a page of a new context": await (await browser.newContext()).newPage(),
    "a page of the browser": await browser.newPage(),
  };
  for (const [name, each] of Object.entries(pages)) {
    await slowToHydrate(each);
    await each.goto("/about");
    expect(await hydrated(each), `${name}, after goto`).toBe("true");
    await each.reload();
    expect(await hydrated(each), `${name}, after reload`).toBe("true");
  }
});
