import { animationRate, expect, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer, signInAsAdmin } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { uniqueEmail } from "./support/mailbox.ts";

// States a page reaches only after something is done on it, judged by axe at every impact.

test.beforeEach(async ({ context }, testInfo) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

test("a search with no matches says so as a status, with no empty listbox", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/about");
  const box = page.getByRole("combobox", { name: "Search films" });
  await box.fill("qqqzzzxxx");
  await expect(page.getByText("No matches found.")).toBeVisible();
  expect(await allViolations(page)).toEqual([]);
  await expect(page.getByRole("status").getByText("No matches found.")).toBeVisible();
  await expect(box).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("listbox")).toHaveCount(0);
});

test("the search page's two search landmarks have names of their own", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/search?query=the");
  expect(await allViolations(page)).toEqual([]);
  await expect(page.getByRole("search", { name: "Search films" })).toBeVisible();
  await expect(page.getByRole("search", { name: "Search the results" })).toBeVisible();
});

test("the adult catalogue's production search has a name of its own", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/age-check?returnTo=/adult-movies");
  await page.getByRole("button", { name: "I am 18 or older" }).click();
  await expect(page.getByRole("heading", { name: "Adult Titles" })).toBeVisible();
  expect(await allViolations(page)).toEqual([]);
  await expect(page.getByRole("search", { name: "Search adult titles" })).toBeVisible();
});

test("the admin tables' search landmarks have names of their own", async ({ page }) => {
  test.slow();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  for (const [path, name] of [
    ["/admin/items", "Search regular titles"],
    ["/admin/adult/items", "Search adult titles"],
    ["/admin/orders", "Search by order number, name or e-mail"],
    ["/admin/customers", "Search customers by e-mail or name"],
  ] as const) {
    await page.goto(path);
    expect(await allViolations(page), path).toEqual([]);
    await expect(page.getByRole("search", { name }), path).toBeVisible();
  }
});

test("the open user menu is inside the header's navigation", async ({ page }) => {
  test.slow();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signedInCustomer(page, uniqueEmail("menu"), "Menu-Landmark-4", "Mona", "Menu");
  await page.goto("/about");
  await page.getByRole("button", { name: "Mona Menu" }).click();
  await expect(page.getByRole("menuitem", { name: "My Account" })).toBeVisible();
  expect(await allViolations(page)).toEqual([]);
  const menu = page.getByRole("navigation", { name: "Main" }).getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: "My Account" })).toBeVisible();
});

test("on a phone, /cart's footer keeps its text readable at every moment it comes in", async ({
  page,
}) => {
  test.slow();
  // Motion as a shopper without the reduced-motion setting sees it: the moment in between is
  // what this test looks at.
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await signedInCustomer(page, uniqueEmail("footer"), "Footer-Contrast-5", "Fern", "Footer");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/movies");
  await page
    .getByRole("button", { name: /^Add to Cart:/ })
    .first()
    .click();
  await page.goto("/cart");
  await expect(page.getByRole("list", { name: "Items in your cart" })).toBeVisible();
  const footer = page.locator("footer");
  await expect(footer).toHaveAttribute("data-visible", "false");

  // Every transition and animation the page starts holds still where it begins (the page's
  // timeline runs at rate 0), so each moment of the footer's can be judged as long as axe needs,
  // however late a busy machine draws the frames in between.
  await animationRate(page, 0);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(
    () => {
      const element = document.querySelector("footer")!;
      if (element.dataset.visible !== "true") return false;
      // Reading a style brings the page's styles up to date: the transitions have begun.
      void getComputedStyle(element).opacity;
      return document.getAnimations().length > 0;
    },
    null,
    { polling: "raf" },
  );
  const moving = await page.evaluate(() => document.getAnimations().length);
  expect(moving).toBeGreaterThan(0);
  for (const fraction of [0.1, 0.5, 0.9]) {
    await page.evaluate((at) => {
      for (const animation of document.getAnimations()) {
        const duration = Number(animation.effect?.getComputedTiming().duration ?? 0);
        animation.currentTime = duration * at;
      }
    }, fraction);
    expect(await allViolations(page), `${fraction * 100}% of the way in`).toEqual([]);
  }
});
