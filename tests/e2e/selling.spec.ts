import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`home at ${viewport.width}×${viewport.height}: the first posters show without scrolling`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto("/");
    const firstPoster = page
      .getByRole("region", { name: "New Arrivals posters" })
      .locator("ul:not([aria-hidden]) > li")
      .first()
      .locator("img");
    await expect(firstPoster).toBeVisible();
    const box = (await firstPoster.boundingBox())!;
    const scrollY = await page.evaluate(() => window.scrollY);
    expect(scrollY).toBe(0);
    // At least the top half of the first posters is inside the first screen.
    expect(box.y + box.height / 2).toBeLessThanOrEqual(viewport.height);
  });
}

test("home: the motto once, and a staff pick's dialog leads to its title page", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByText("Unleash Your Entertainment.")).toHaveCount(1);
  await expect(page.getByText("Unleash Your Entertainment.")).toBeVisible();

  const pick = page
    .getByRole("region", { name: "Staff Picks posters" })
    .locator("ul:not([aria-hidden]) > li")
    .first()
    .getByRole("button");
  const name = (await pick.getByRole("img").getAttribute("alt"))!;
  await pick.click();
  const dialog = page.getByRole("dialog", { name });
  await expect(dialog).toBeVisible();
  // Closing gives focus back to the poster that opened the dialog.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(pick).toBeFocused();

  await pick.click();
  await dialog.getByRole("link", { name: "View title page" }).click();
  await expect(page).toHaveURL(/\/movies\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  expect(await seriousViolationsAt(page, "/")).toEqual([]);
});

async function seriousViolationsAt(page: Page, path: string) {
  await page.goto(path);
  return seriousViolations(page);
}

/** Three titles of one made-up genre, with none, two and twelve copies on the shelf. */
async function createStockedTitles(page: Page, genre: string) {
  await signInAsAdmin(page, "seller");
  const serials: Record<"none" | "few" | "many", string> = { none: "", few: "", many: "" };
  for (const [key, quantity, price] of [
    ["none", "0", "11.99"],
    ["few", "2", "12.99"],
    ["many", "12", "13.99"],
  ] as const) {
    const title = `${genre} ${key}`;
    await page.goto("/admin/items/new");
    await page.getByLabel("ProductID").fill(`SELL-${key}`);
    await page.getByLabel("QtyToList").fill(quantity);
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Disc").selectOption("DVD");
    await page.getByLabel("CurrentPrice").fill(price);
    await page.getByLabel("Genres").fill(genre);
    await page.getByRole("button", { name: "Add Title" }).click();
    const row = page.getByRole("row").filter({ hasText: title });
    await expect(row).toBeVisible();
    serials[key] = (await row.getByRole("cell").first().textContent())!.trim();
  }
  return serials;
}

test("a title page: price beside Add to Cart, stock in words, related titles", async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(90_000);
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
  const genre = `Sellwave${Date.now()}`;
  const serials = await createStockedTitles(page, genre);

  await page.goto(`/movies/${serials.many}`);
  const main = page.getByRole("main");
  const add = main.getByRole("button", { name: "Add to Cart" });
  const price = main.getByText("Price: $13.99", { exact: true });
  await expect(price).toBeVisible();
  await expect(main.getByText("In stock", { exact: true })).toBeVisible();
  // The price sits on the same line as the button, just before it.
  const [priceBox, addBox] = [(await price.boundingBox())!, (await add.boundingBox())!];
  expect(Math.abs(priceBox.y + priceBox.height / 2 - (addBox.y + addBox.height / 2))).toBeLessThan(
    12,
  );
  expect(addBox.x).toBeGreaterThan(priceBox.x);
  expect(addBox.x - (priceBox.x + priceBox.width)).toBeLessThan(60);

  const related = main.getByRole("region", { name: "You may also like" });
  await expect(related.getByRole("link")).toHaveCount(2);
  const fewLink = related.getByRole("link", { name: new RegExp(`^${genre} few`) });
  await expect(fewLink.locator("img")).toBeVisible();
  await expect(related.getByRole("link", { name: new RegExp(`^${genre} many`) })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  await fewLink.click();
  await expect(page).toHaveURL(new RegExp(`/movies/${serials.few}$`));
  await expect(main.getByText("Only 2 left", { exact: true })).toBeVisible();
  await expect(main.getByRole("button", { name: "Add to Cart" })).toBeEnabled();

  await page.goto(`/movies/${serials.none}`);
  await expect(main.getByText("Out of stock", { exact: true })).toBeVisible();
  await expect(main.getByRole("button", { name: "Add to Cart" })).toBeDisabled();
});

test("after Add to Cart the toast's 'View cart' opens the drawer, whose lines lead to their titles", async ({
  page,
}) => {
  await page.goto("/movies");
  const firstAdd = page.getByRole("button", { name: /^Add to Cart:/ }).first();
  const label = (await firstAdd.getAttribute("aria-label"))!.replace("Add to Cart: ", "");
  const filmTitle = label.replace(/ \([^)]*\)$/, "");
  await firstAdd.click();

  const toast = page.locator("[data-sonner-toast]");
  await expect(toast.getByText("Added to cart")).toBeVisible();
  await expect(toast.getByText(`"${filmTitle}" is in your cart.`)).toBeVisible();
  await toast.getByRole("button", { name: "View cart" }).click();

  const drawer = page.getByRole("dialog", { name: "Your Cart (1 item)" });
  await expect(drawer).toBeVisible();
  // The whole poster shows: its box keeps the 2:3 shape of the image.
  const thumbnail = drawer.locator("li img").first();
  await expect(thumbnail).toBeVisible();
  const box = (await thumbnail.boundingBox())!;
  expect(Math.abs(box.height / box.width - 1.5)).toBeLessThan(0.05);
  expect(await seriousViolations(page)).toEqual([]);

  // Closing gives focus back to where the shopper was, not to a toast that is gone.
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(firstAdd).toBeFocused();

  const cartButton = page.getByRole("button", { name: "Cart (1)" });
  await cartButton.click();
  await expect(drawer).toBeVisible();
  await drawer.getByRole("link", { name: filmTitle }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/movies\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: filmTitle })).toBeVisible();

  // On /cart the line links to its title too, and its poster is whole.
  await page.goto("/cart");
  const cartLines = page.getByRole("list", { name: "Items in your cart" });
  await expect(cartLines.getByRole("link", { name: filmTitle })).toHaveAttribute(
    "href",
    /^\/movies\/\d+$/,
  );
  const cartBox = (await cartLines.locator("img").first().boundingBox())!;
  expect(Math.abs(cartBox.height / cartBox.width - 1.5)).toBeLessThan(0.05);
});

test("the empty drawer offers 'Continue shopping', and closing it focuses the Cart button", async ({
  page,
}) => {
  await page.goto("/");
  const cartButton = page.getByRole("button", { name: "Cart (0)" });
  await cartButton.click();
  const drawer = page.getByRole("dialog", { name: "Your Cart (0 items)" });
  await expect(drawer.getByText("Your cart is empty.")).toBeVisible();
  await expect(drawer.getByText(/^Total:/)).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(cartButton).toBeFocused();

  await cartButton.click();
  await drawer.getByRole("link", { name: "Continue shopping" }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/movies$/);
  await expect(page.getByRole("button", { name: /^More Details:/ }).first()).toBeVisible();
});

test("closing More Details gives focus back to its button", async ({ page }) => {
  await page.goto("/movies");
  const details = page.getByRole("button", { name: /^More Details:/ }).nth(2);
  await details.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(details).toBeFocused();

  await details.click();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(details).toBeFocused();
});
