import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";

async function openCart(page: Page, count: number) {
  await page.getByRole("button", { name: `Cart (${count})` }).click();
  return page.getByRole("dialog", { name: /^Your Cart/ });
}

test("cart: add, increase, decrease, remove, and it survives a reload", async ({ page }) => {
  await page.goto("/movies");
  const addButtons = page.getByRole("button", { name: /^Add to Cart:/ });
  // Names read "Title (Disc)", as the drawer's buttons do.
  const [first, second] = (await addButtons.evaluateAll((buttons) =>
    buttons.map((button) => button.getAttribute("aria-label")!.replace("Add to Cart: ", "")),
  )) as [string, string];

  await addButtons.nth(0).click();
  await addButtons.nth(0).click();
  await addButtons.nth(1).click();
  await expect(page.getByRole("button", { name: "Cart (3)" })).toBeVisible();

  let drawer = await openCart(page, 3);
  await expect(drawer.getByRole("heading", { name: "Your Cart (3 items)" })).toBeVisible();
  await expect(drawer.getByLabel(`Quantity of ${first}`, { exact: true })).toHaveText("2");

  const prices = await drawer.getByText(/^Price: \$/).allTextContents();
  const cents = prices.map((text) => Math.round(Number(text.replace("Price: $", "")) * 100));
  const expectedTotal = cents[0]! * 2 + cents[1]!;
  await expect(drawer.getByText(`Total: $${(expectedTotal / 100).toFixed(2)}`)).toBeVisible();
  await expect(
    drawer.getByText(`Item Total: $${((cents[0]! * 2) / 100).toFixed(2)}`),
  ).toBeVisible();

  await drawer.getByRole("button", { name: `Increase quantity of ${second}` }).click();
  await expect(page.getByText("Quantity increased")).toBeVisible();
  await expect(
    page.getByText(`Added one more of "${second.replace(/ \([^)]*\)$/, "")}".`),
  ).toBeVisible();
  await expect(drawer.getByLabel(`Quantity of ${second}`, { exact: true })).toHaveText("2");

  await drawer.getByRole("button", { name: `Decrease quantity of ${first}` }).click();
  await expect(page.getByText("Quantity decreased")).toBeVisible();
  await expect(
    page.getByText(`Removed one of "${first.replace(/ \([^)]*\)$/, "")}".`),
  ).toBeVisible();
  await expect(drawer.getByLabel(`Quantity of ${first}`, { exact: true })).toHaveText("1");
  // Only one toast at a time.
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(1);

  await drawer.getByRole("button", { name: `Decrease quantity of ${first}` }).click();
  await expect(drawer.getByLabel(`Quantity of ${first}`, { exact: true })).toHaveCount(0);
  await expect(drawer.getByRole("heading", { name: "Your Cart (2 items)" })).toBeVisible();

  await page.reload();
  drawer = await openCart(page, 2);
  await expect(drawer.getByLabel(`Quantity of ${second}`, { exact: true })).toHaveText("2");

  await drawer.getByRole("button", { name: `Remove Item: ${second}` }).click();
  await expect(page.getByText("Removed from cart")).toBeVisible();
  await expect(page.getByText(`"${second.replace(/ \([^)]*\)$/, "")}" was removed.`)).toBeVisible();
  await expect(drawer.getByText("Your cart is empty.")).toBeVisible();
  await expect(drawer.getByRole("heading", { name: "Your Cart (0 items)" })).toBeVisible();
  await expect(drawer.getByRole("link", { name: "Continue shopping" })).toBeVisible();

  await page.reload();
  await expect(page.getByRole("button", { name: "Cart (0)" })).toBeVisible();
});

test("two discs of one film stay separate lines", async ({ page }) => {
  await page.goto("/movies");
  const addButtons = page.getByRole("button", { name: /^Add to Cart:/ });
  const labels = await addButtons.evaluateAll((buttons) =>
    buttons.map((button) => button.getAttribute("aria-label")!),
  );
  const titleOf = (label: string) => label.replace("Add to Cart: ", "").replace(/ \([^)]*\)$/, "");
  const index = labels.findIndex((label, i) => i > 0 && titleOf(label) === titleOf(labels[i - 1]!));
  expect(index, "the demo catalogue's first page has a film on two discs").toBeGreaterThan(0);
  await addButtons.nth(index - 1).click();
  await addButtons.nth(index).click();
  const drawer = await openCart(page, 2);
  await expect(drawer.getByRole("listitem")).toHaveCount(2);
  await expect(drawer.getByText(titleOf(labels[index]!), { exact: true })).toHaveCount(2);
});

test("the cart is re-priced from the server and gone titles are dropped with a notice", async ({
  page,
}) => {
  const stored = [
    {
      lineId: "a",
      mergeKey: "regular:1",
      kind: "regular",
      serialNo: 1,
      title: "Tampered title",
      posterUrl: "/posters/regular/1.svg",
      disc: "DVD",
      priceCents: 1,
      quantity: 2,
    },
    {
      lineId: "b",
      mergeKey: "regular:99999999",
      kind: "regular",
      serialNo: 99999999,
      title: "A Vanished Film",
      posterUrl: "/posters/regular/99999999.svg",
      disc: "DVD",
      priceCents: 500,
      quantity: 1,
    },
  ];
  // Stored before any of the shop's scripts run, as if left by an earlier visit.
  await page.addInitScript((lines) => {
    if (sessionStorage.getItem("seeded")) return;
    localStorage.setItem("cart", JSON.stringify(lines));
    sessionStorage.setItem("seeded", "yes");
  }, stored);
  await page.goto("/movies/1");
  await expect(page.getByText(/"A Vanished Film" is no longer available/)).toBeVisible();
  const realTitle = (await page.getByRole("heading", { level: 1 }).textContent())!;
  const realPrice = (await page.locator("dd").filter({ hasText: /^\$/ }).textContent())!;
  const drawer = await openCart(page, 2);
  await expect(drawer.getByText(realTitle, { exact: false })).toBeVisible();
  await expect(drawer.getByText(`Price: ${realPrice}`)).toBeVisible();
  await expect(drawer.getByText("A Vanished Film")).toHaveCount(0);
});

test("a title added while the stored cart's prices are on their way stays in the cart", async ({
  page,
}) => {
  await page.goto("/movies/1");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  // The next page asks for the stored line's price; its answer is held until the shopper has
  // added another title.
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route("**/api/cart/prices**", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/movies/2");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByRole("button", { name: "Cart (2)" })).toBeVisible();
  const priced = page.waitForResponse("**/api/cart/prices**");
  answer();
  await priced;
  const drawer = await openCart(page, 2);
  await expect(drawer.getByRole("heading", { name: "Your Cart (2 items)" })).toBeVisible();
  await expect(page.getByText(/is no longer available/)).toHaveCount(0);
});

test("Go to Cart Page closes the drawer and heads to /cart", async ({ page }) => {
  await page.goto("/movies");
  await page
    .getByRole("button", { name: /^Add to Cart:/ })
    .first()
    .click();
  const drawer = await openCart(page, 1);
  await drawer.getByRole("button", { name: "Go to Cart Page" }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByText("Heading to cart page…")).toBeVisible();
});

test("the cart page totals the lines with the chosen shipping", async ({ page }) => {
  await page.goto("/movies");
  const addButtons = page.getByRole("button", { name: /^Add to Cart:/ });
  await addButtons.nth(0).click();
  await addButtons.nth(2).click();
  await page.goto("/cart");
  const items = page.getByRole("list", { name: "Items in your cart" });
  await expect(items.getByRole("listitem")).toHaveCount(2);
  const prices = await items.getByText(/^Price: \$/).allTextContents();
  const subtotal = prices
    .map((text) => Math.round(Number(text.replace("Price: $", "")) * 100))
    .reduce((sum, cents) => sum + cents, 0);
  const summary = page.getByRole("region", { name: "Order summary" });
  const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
  await expect(summary.getByText(money(subtotal), { exact: true })).toBeVisible();
  await expect(summary.getByText(money(subtotal + 599), { exact: true })).toBeVisible();
  await summary.getByLabel("Shipping method").selectOption("express");
  await expect(summary.getByText(money(subtotal + 1299), { exact: true })).toBeVisible();

  // Enough copies to pass $200: standard shipping becomes free, express still costs.
  const increase = items.getByRole("button", { name: /^Increase quantity of/ }).first();
  const firstPrice = Math.round(Number(prices[0]!.replace("Price: $", "")) * 100);
  const extra = Math.ceil((20000 - subtotal) / firstPrice);
  for (let i = 0; i < extra; i++) await increase.click();
  const bigSubtotal = subtotal + extra * firstPrice;
  await expect(summary.getByText(money(bigSubtotal + 1299), { exact: true })).toBeVisible();
  await summary.getByLabel("Shipping method").selectOption("standard");
  await expect(summary.getByText("Free", { exact: true })).toBeVisible();
  await expect(summary.getByText(money(bigSubtotal), { exact: true }).last()).toBeVisible();
});

test("each cart toast shows only its own texts; 'Removed from cart' is destructive", async ({
  page,
}) => {
  await page.goto("/movies");
  const addButton = page.getByRole("button", { name: /^Add to Cart:/ }).first();
  const name = (await addButton.getAttribute("aria-label"))!.replace("Add to Cart: ", "");
  const title = name.replace(/ \([^)]*\)$/, "");
  await addButton.click();
  await addButton.click();
  const toast = page.locator("[data-sonner-toast]");

  const drawer = await openCart(page, 2);
  await drawer.getByRole("button", { name: `Decrease quantity of ${name}` }).click();
  await expect(toast).toContainText("Quantity decreased");
  await expect(toast).toContainText(`Removed one of "${title}".`);
  await expect(toast).not.toHaveAttribute("data-type", "error");

  await drawer.getByRole("button", { name: `Remove Item: ${name}` }).click();
  await expect(toast).toHaveCount(1);
  await expect(toast).toContainText("Removed from cart");
  await expect(toast).toContainText(`"${title}" was removed.`);
  await expect(toast).not.toContainText("Removed one of");
  await expect(toast).toHaveAttribute("data-type", "error");
  // The destructive colour, not the white default toast.
  const background = await toast.evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(background).not.toBe("rgb(255, 255, 255)");
  expect(background).not.toBe("rgba(0, 0, 0, 0)");

  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await page
    .getByRole("button", { name: /^Add to Cart:/ })
    .first()
    .click();
  await expect(toast).toContainText("Added to cart");
  await openCart(page, 1);
  await page.getByRole("button", { name: "Go to Cart Page" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(toast).toHaveCount(1);
  // Exactly the title, with no second line left over from the toast before.
  await expect(toast.locator("[data-content]")).toHaveText("Heading to cart page…");
  await expect(toast.locator("[data-description]")).toHaveCount(0);
  await expect(toast).not.toHaveAttribute("data-type", "error");
});
