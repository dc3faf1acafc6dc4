import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer } from "./support/accounts.ts";
import { uniqueEmail } from "./support/mailbox.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** How far the page scrolls sideways (0: it does not). */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

const WIDTHS = [320, 390, 1280];

test("no page scrolls sideways: closed and open search, the cart drawer, a long name", async ({
  page,
}) => {
  test.slow();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of ["/", "/movies", "/movies/1", "/cart", "/search?query=the"]) {
      await page.goto(path);
      expect(await sidewaysOverflow(page), `${path} at ${width}px`).toBe(0);
    }
    await page.goto("/");
    const search = page.getByRole("combobox", { name: "Search films" });
    await search.click();
    await search.fill("the");
    await expect(page.getByRole("listbox", { name: "Search suggestions" })).toBeVisible();
    expect(await sidewaysOverflow(page), `search open at ${width}px`).toBe(0);
    // The open search box is wholly on screen, and so is what it suggests.
    const box = (await search.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    const list = (await page.getByRole("listbox", { name: "Search suggestions" }).boundingBox())!;
    expect(list.x).toBeGreaterThanOrEqual(0);
    expect(list.x + list.width).toBeLessThanOrEqual(width);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: /^Cart \(/ }).click();
    await expect(page.getByRole("dialog", { name: /Your Cart/ })).toBeVisible();
    expect(await sidewaysOverflow(page), `drawer open at ${width}px`).toBe(0);
    await page.keyboard.press("Escape");
  }

  await page.setViewportSize({ width: 1280, height: 800 });
  await signedInCustomer(
    page,
    uniqueEmail("long-name"),
    "Long-Name-Shopper-9",
    "Maximiliana-Theodora",
    "Wolfeschlegelsteinhausen",
  );
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/movies");
    expect(await sidewaysOverflow(page), `signed in at ${width}px`).toBe(0);
    const cart = (await page.getByRole("button", { name: /^Cart \(/ }).boundingBox())!;
    expect(cart.x + cart.width, `cart button at ${width}px`).toBeLessThanOrEqual(width);
    await expect(page.getByRole("button", { name: /Maximiliana/ })).toBeVisible();
  }
});

test("pagination stays on one line on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/movies?page=5");
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  const current = pagination.locator('[aria-current="page"]:visible');
  await expect(current).toHaveText("Page 5");
  const heights = await pagination
    .locator("a:visible, span[aria-current]:visible, span[aria-disabled]:visible")
    .evaluateAll((items) => [...new Set(items.map((item) => item.getBoundingClientRect().top))]);
  expect(heights).toHaveLength(1);
  await pagination.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/page=6/);
});

test("a toast never covers the open cart drawer's total and buttons", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/movies");
  await page
    .getByRole("button", { name: /^Add to Cart:/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Cart (1)" }).click();
  const drawer = page.getByRole("dialog", { name: /Your Cart/ });
  await expect(drawer).toBeVisible();
  await drawer.getByRole("button", { name: /^Increase quantity/ }).click();
  const toast = page.locator("[data-sonner-toast]").first();
  await expect(toast).toBeVisible();
  const toastBox = (await toast.boundingBox())!;
  const goToCart = (await drawer.getByRole("button", { name: "Go to Cart Page" }).boundingBox())!;
  const total = (await drawer.getByText(/^Total: \$/).boundingBox())!;
  for (const target of [goToCart, total]) {
    const overlaps =
      toastBox.y < target.y + target.height && target.y < toastBox.y + toastBox.height;
    expect(overlaps).toBe(false);
  }
});

test("a slow page change shows progress at once and dims the list being replaced", async ({
  page,
}) => {
  await page.goto("/movies");
  await expect(page.getByRole("link", { name: "Page 2", exact: true })).toBeVisible();
  // The next page's data is held back until the page has shown that it is on its way, as on a
  // slow connection.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/movies\.data/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("link", { name: "Page 2", exact: true }).click();
  await expect(page.getByTestId("navigation-progress")).toHaveAttribute("data-state", "loading");
  await expect(page.getByRole("main")).toHaveAttribute("aria-busy", "true");
  await expect(page.getByText("Loading Regular Movies…")).toBeInViewport();
  release();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId("navigation-progress")).toHaveAttribute("data-state", "idle");
  await expect(page.getByRole("main")).not.toHaveAttribute("aria-busy", "true");
});
