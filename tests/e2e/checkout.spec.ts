import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer, signInAsAdmin } from "./support/accounts.ts";
import { listRegularTitle } from "./support/catalogue.ts";
import { checkoutWithTestCard, fillShipping } from "./support/checkout.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { seriousViolations } from "./support/axe.ts";

const PASSWORD = "Checkout-Journey-42";

test.beforeEach(async ({ context, page }, testInfo) => {
  // Dialogs and menus fade in; axe must not judge their colours halfway through.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

function cents(text: string) {
  return Math.round(Number(text.replace(/[^0-9.]/g, "")) * 100);
}
function money(value: number) {
  return `$${(value / 100).toFixed(2)}`;
}

/** Adds the first `count` titles in stock from the catalogue; returns their prices in cents. */
async function addTitles(page: Page, count: number) {
  await page.goto("/movies");
  const buttons = page.getByRole("button", { name: /^Add to Cart:/ });
  for (let i = 0; i < count; i++) await buttons.nth(i).click();
  await expect(page.getByRole("button", { name: `Cart (${count})` })).toBeVisible();
}

test("sign in, fill the cart, fix a field, review, pay with the test card, get the e-mail and see the order", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const email = uniqueEmail("buyer");
  await signedInCustomer(page, email, PASSWORD, "Bea", "Buyer");
  await addTitles(page, 2);

  await page.goto("/cart");
  const items = page.getByRole("list", { name: "Items in your cart" });
  const prices = (await items.getByText(/^Price: \$/).allTextContents()).map(cents);
  const subtotal = prices[0]! + prices[1]!;

  await fillShipping(page, email, { "ZIP code": "7601" });
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByText("Enter a 5-digit ZIP code, or ZIP+4 (12345-6789).")).toBeVisible();
  // Everything typed is still there.
  await expect(page.getByLabel("Street address")).toHaveValue("1201 W Division St");
  await expect(page.getByLabel("ZIP code")).toHaveValue("7601");
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel("ZIP code").fill("76012");
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Review your order" })).toBeVisible();
  const shipping = subtotal >= 20_000 ? 0 : 599;
  const total = subtotal + shipping;
  await expect(page.getByRole("cell", { name: money(prices[0]!) }).first()).toBeVisible();
  const payButton = page.getByRole("button", { name: `Pay ${money(total)}` });
  await expect(payButton).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await payButton.click();
  await expect(page.getByText("Test mode — no card is charged")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel("Card number").fill("4242 4242 4242 4241");
  await page.getByLabel("Expiry (MM/YY)").fill("12/40");
  await page.getByRole("button", { name: `Pay ${money(total)}` }).click();
  await expect(page.getByText("Enter a valid card number.")).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: `Pay ${money(total)}` }).click();

  await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart (0)" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const orderNumber = (await page.getByText(/Your order #\d+/).textContent())!.match(/#(\d+)/)![1];

  const mail = await waitForMail(email, new RegExp(`order #?${orderNumber}`, "i"));
  expect(mail.text).toContain(money(total));
  expect(mail.text).toContain("1201 W Division St");

  await page.getByRole("link", { name: "View My Orders" }).click();
  const card = page.getByRole("listitem").filter({ hasText: `Order #${orderNumber}` });
  await expect(card.getByText("paid", { exact: true })).toBeVisible();
  await expect(card.getByText(money(total), { exact: true }).last()).toBeVisible();
  await expect(card.getByRole("row")).toHaveCount(3);
});

test("a declined card leaves the order pending and the cart as it was", async ({ page }) => {
  test.setTimeout(60_000);
  const email = uniqueEmail("declined");
  await signedInCustomer(page, email, PASSWORD, "Dee", "Clined");
  await addTitles(page, 1);
  await page.goto("/cart");
  await fillShipping(page, email);
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByLabel("Expiry (MM/YY)").fill("12/40");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByText("Your card was declined.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();

  await page.goto("/orders");
  await expect(page.getByText("pending", { exact: true })).toBeVisible();

  // Giving up returns the stock and the shopper to an untouched cart.
  await page.goBack();
  await page.getByRole("link", { name: "Cancel and return to the cart" }).click();
  await expect(page.getByText("Payment was cancelled. Your cart is as you left it.")).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Items in your cart" }).getByRole("listitem"),
  ).toHaveCount(1);
  await page.goto("/orders");
  await expect(page.getByText("cancelled", { exact: true })).toBeVisible();
});

test("a visitor is sent to log in and comes back to the cart with it intact", async ({ page }) => {
  test.setTimeout(60_000);
  const email = uniqueEmail("visitor");
  await signedInCustomer(page, email, PASSWORD, "Vic", "Visitor");
  await page.getByRole("button", { name: "Vic Visitor" }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();

  await addTitles(page, 2);
  await page.goto("/cart");
  await fillShipping(page, email);
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcart/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("main").getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(
    page.getByRole("list", { name: "Items in your cart" }).getByRole("listitem"),
  ).toHaveCount(2);
  await expect(page.getByLabel("Street address")).toHaveValue("1201 W Division St");
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Review your order" })).toBeVisible();
});

test("the last copy bought by someone else between review and payment is named, and the cart kept", async ({
  browser,
  page,
}, testInfo) => {
  // Three accounts and two browsers: slow on a busy machine.
  test.setTimeout(180_000);
  // An admin lists a title with one copy.
  await signInAsAdmin(page, "last-copy");
  const title = `Last Copy Lantern ${Date.now()}`;
  const serial = await listRegularTitle(page, { title, productId: "LC-001", qty: 1 });

  // Two shoppers, each in a browser of their own, want it.
  const shopper = async (label: string, first: string) => {
    const context = await browser.newContext({
      extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${testInfo.testId}-${label}`) },
    });
    const tab = await context.newPage();
    const email = uniqueEmail(label);
    await signedInCustomer(tab, email, PASSWORD, first, "Shopper");
    await tab.goto(`/movies/${serial}`);
    await tab.getByRole("main").getByRole("button", { name: "Add to Cart" }).click();
    await expect(tab.getByRole("button", { name: "Cart (1)" })).toBeVisible();
    return { context, tab, email };
  };
  const first = await shopper("first", "Fay");
  const second = await shopper("second", "Sid");

  // The first reaches the review; meanwhile the second buys the copy.
  await first.tab.goto("/cart");
  await fillShipping(first.tab, first.email);
  await first.tab.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(first.tab.getByRole("heading", { name: "Review your order" })).toBeVisible();
  await checkoutWithTestCard(second.tab, second.email);

  await first.tab.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(first.tab.getByText(`"${title}" is sold out.`)).toBeVisible();
  await expect(
    first.tab.getByRole("list", { name: "Items in your cart" }).getByRole("listitem"),
  ).toHaveCount(1);
  await expect(first.tab.getByLabel("Street address")).toHaveValue("1201 W Division St");
  await first.tab.goto("/orders");
  await expect(first.tab.getByText("pending", { exact: true })).toHaveCount(0);
  await first.context.close();
  await second.context.close();
});

test("missing shipping fields are named before payment", async ({ page }) => {
  const email = uniqueEmail("missing");
  await signedInCustomer(page, email, PASSWORD, "Mo", "Missing");
  await addTitles(page, 1);
  await page.goto("/cart");
  await page.getByLabel("Full name").fill("");
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(
    page.getByText("Please fill in all fields before proceeding to payment."),
  ).toBeVisible();
  await expect(page.getByText("Name is required.")).toBeVisible();
});

test("titles without stock say so and cannot be added to the cart", async ({ page }) => {
  let soldOut = page.getByRole("button", { name: /^Out of stock:/ });
  for (let listPage = 1; listPage <= 10 && (await soldOut.count()) === 0; listPage++) {
    await page.goto(`/movies?page=${listPage}`);
    soldOut = page.getByRole("button", { name: /^Out of stock:/ });
  }
  await expect(soldOut.first()).toBeDisabled();
  const label = (await soldOut.first().getAttribute("aria-label"))!.replace("Out of stock: ", "");
  await page.getByRole("button", { name: `More Details: ${label}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Out of stock", { exact: true }).first()).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Out of stock" })).toBeDisabled();
  await dialog.getByRole("link", { name: "View title page" }).click();
  await expect(page).toHaveURL(/\/movies\/\d+/);
  const main = page.getByRole("main");
  await expect(main.getByText("Out of stock", { exact: true })).toBeVisible();
  await expect(main.getByRole("button", { name: "Add to Cart" })).toBeDisabled();
});

test("US address autocomplete fills street, city, state and ZIP", async ({ page }) => {
  await addTitles(page, 1);
  await page.goto("/cart");
  // The stand-in answers the run's first request with 503: whichever page asks first retries.
  await expect
    .poll(() => page.evaluate(() => Boolean((window as { google?: unknown }).google)), {
      timeout: 15_000,
    })
    .toBe(true);
  const options = await page.evaluate(
    () => (window as { __fakeMapsOptions?: unknown }).__fakeMapsOptions,
  );
  expect(options).toMatchObject({ componentRestrictions: { country: "us" } });
  await page.getByLabel("Street address").pressSequentially("1201 W Div");
  await expect(page.getByLabel("Street address")).toHaveValue("1201 W Division St");
  await expect(page.getByLabel("City")).toHaveValue("Arlington");
  await expect(page.getByLabel("State", { exact: true })).toHaveValue("TX");
  await expect(page.getByLabel("ZIP code")).toHaveValue("76012");
});
