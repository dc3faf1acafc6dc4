import type { Page } from "@playwright/test";
import { animationRate, expect, test } from "./support/fixtures.ts";
import { clientAddress, createAdmin, register, signedInCustomer } from "./support/accounts.ts";
import { checkoutWithTestCard, fillShipping } from "./support/checkout.ts";
import { firstLink, uniqueEmail, waitForMail } from "./support/mailbox.ts";

// Whole journeys with the keyboard alone: Tab and Shift+Tab to move, Enter or Space to act,
// typing into fields. No mouse click anywhere in the journey (accounts and the order to ship
// are made beforehand, the ordinary way).

test.beforeEach(async ({ context, page }, testInfo) => {
  test.slow();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** The focused element as a person hears it: its name (a field's label), or "body". */
function focusedName(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return "body";
    const labelled = element.getAttribute("aria-labelledby");
    const label =
      element.getAttribute("aria-label") ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      ("labels" in element ? (element as HTMLInputElement).labels?.[0]?.textContent : null) ??
      element.textContent ??
      "";
    return label.replace(/\s+/g, " ").trim();
  });
}

/**
 * Presses Tab (Shift+Tab with `backwards`) until the focused element's name matches, as a
 * keyboard user moves to a control they can see. Fails after `most` presses.
 */
async function tabTo(page: Page, name: RegExp, { backwards = false, most = 120 } = {}) {
  const seen: string[] = [];
  for (let press = 0; press < most; press++) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    const now = await focusedName(page);
    if (name.test(now)) return;
    seen.push(now);
  }
  throw new Error(`No Tab stop named ${name} in ${most} presses; passed: ${seen.join(" | ")}`);
}

/**
 * Moves through an open menu with the arrow keys to the item named `name`, as a person does:
 * whether the menu opened with focus on its first item or on itself depends on how fast its code
 * arrived, so the number of presses is not fixed.
 */
async function arrowTo(page: Page, name: string, most = 6) {
  const item = page.getByRole("menuitem", { name });
  await expect(item).toBeVisible();
  for (let press = 0; press < most; press++) {
    if (await item.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("ArrowDown");
  }
  await expect(item).toBeFocused();
}

/** Moves to a field by Tab and types into it. */
async function typeInto(page: Page, label: RegExp, text: string) {
  await tabTo(page, label);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
}

test("a shopper buys a film with the keyboard alone: sign in, browse, add, check out with the test card, see the order", async ({
  page,
}) => {
  const email = uniqueEmail("keys-only");
  const password = "Keys-Only-Shopper-6";
  await register(page, email, password, "Kira", "Keys");
  await expect(page.getByText(/Registration successful!/)).toBeVisible();
  await page.goto(firstLink(await waitForMail(email, /Confirm your e-mail/)));

  await page.goto("/");
  // Sign in from the header's Login menu.
  await tabTo(page, /^Login$/);
  await page.keyboard.press("Enter");
  await arrowTo(page, "Sign In");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/login/);
  await typeInto(page, /^Email/, email);
  await typeInto(page, /^Password/, password);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Kira Keys" })).toBeVisible();

  // Browse: the Movies page from the side menu, a title, its Add to Cart.
  await tabTo(page, /^Open menu$/, { backwards: true });
  await page.keyboard.press("Enter");
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu).toBeVisible();
  await tabTo(page, /^Movies$/);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/movies$/);
  await expect(page.getByRole("heading", { level: 1, name: "Regular Titles" })).toBeFocused();
  const firstTitle = page.getByRole("main").getByRole("listitem").first().getByRole("heading");
  const title = (await firstTitle.textContent())!.trim();
  await tabTo(page, new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeFocused();
  await tabTo(page, /^Add to Cart/);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();

  // The cart drawer, then the cart page.
  await tabTo(page, /^Cart \(1\)$/, { backwards: true });
  await page.keyboard.press("Enter");
  const drawer = page.getByRole("dialog", { name: "Your Cart (1 item)" });
  await expect(drawer).toBeVisible();
  await tabTo(page, /^Go to Cart Page$/);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/cart$/);

  // Shipping by typing, the state picked by typing its name on the list.
  await typeInto(page, /^Full name/, "Kira Keys");
  await typeInto(page, /^Street address/, "1201 W Division St");
  await typeInto(page, /^City/, "Arlington");
  await tabTo(page, /^State/);
  await page.keyboard.type("Texas");
  await expect(page.getByLabel("State", { exact: true })).toHaveValue("TX");
  await typeInto(page, /^ZIP code/, "76012");
  await typeInto(page, /^Phone/, "(817) 555-0142");
  await typeInto(page, /^Email/, email);
  await tabTo(page, /^Proceed to Checkout$/);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Review your order" })).toBeFocused();
  await tabTo(page, /^Pay \$/);
  await page.keyboard.press("Enter");

  // The test provider's card page.
  await expect(page).toHaveURL(/\/checkout\/test-payment\//);
  await typeInto(page, /^Card number/, "4242 4242 4242 4242");
  await typeInto(page, /^Expiry/, "12/40");
  await tabTo(page, /^Pay \$/);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeFocused();
  const order = (await page.getByText(/Your order #\d+/).textContent())!.match(/#(\d+)/)![1]!;

  await tabTo(page, /^View My Orders$/);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Your Orders" })).toBeFocused();
  await expect(page.getByRole("main").getByText(`Order #${order}`)).toBeVisible();
});

test("the owner adds a title and ships an order with the keyboard alone", async ({
  page,
  browser,
}, testInfo) => {
  // A paid order waiting, from a customer in another browser.
  const shopping = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${testInfo.testId}-buyer`) },
  });
  const shopper = await shopping.newPage();
  await shopper.emulateMedia({ reducedMotion: "reduce" });
  const email = uniqueEmail("keys-buyer");
  await signedInCustomer(shopper, email, "Keys-Buyer-Pass-5", "Bea", "Buyer");
  await shopper.goto("/movies");
  await shopper.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await shopper
    .getByRole("button", { name: /^Add to Cart:/ })
    .first()
    .click();
  await expect(shopper.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  await shopper.goto("/cart");
  await shopper.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const order = await checkoutWithTestCard(shopper, email);
  await shopping.close();

  const owner = uniqueEmail("keys-owner");
  await createAdmin(owner, "Keys-Only-Owner-8");
  await page.goto("/login");
  await typeInto(page, /^Email/, owner);
  await typeInto(page, /^Password/, "Keys-Only-Owner-8");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();

  // A new regular title.
  const title = `Keyboard Noir ${Date.now()}`;
  await tabTo(page, /^Add New Titles$/);
  await page.keyboard.press("Enter");
  await tabTo(page, /^Regular$/);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Add Regular Title" })).toBeVisible();
  await typeInto(page, /^ProductID/, "KN-001");
  await typeInto(page, /^QtyToList/, "3");
  await typeInto(page, /^Title/, title);
  await typeInto(page, /^Release Year/, "1999");
  await tabTo(page, /^Disc/);
  await page.keyboard.type("DVD");
  await typeInto(page, /^CurrentPrice/, "14.99");
  await tabTo(page, /^Add Title$/);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/items\?q=\d+/);
  await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();

  // The paid order, found by its number, marked shipped.
  await tabTo(page, /^Orders$/, { backwards: true });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Orders", exact: true })).toBeVisible();
  await tabTo(page, /^Search by order number/);
  await page.keyboard.type(String(order));
  await expect(page).toHaveURL(new RegExp(`q=${order}`));
  await tabTo(page, new RegExp(`^#${order}$`));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: `Order #${order}` })).toBeVisible();
  await tabTo(page, /^Mark as shipped$/);
  await page.keyboard.press("Enter");
  await expect(page.getByText(`Order #${order} is marked shipped.`)).toBeVisible();
});

test("with motion on, 'Go to Cart Page' leaves focus on the cart page's heading once the drawer has slid away", async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await page.goto("/movies");
  await tabTo(page, /^Add to Cart/);
  await page.keyboard.press("Enter");
  await tabTo(page, /^Cart \(1\)$/, { backwards: true });
  await page.keyboard.press("Enter");
  const drawer = page.getByRole("dialog", { name: "Your Cart (1 item)" });
  await expect(drawer).toBeVisible();
  await tabTo(page, /^Go to Cart Page$/);
  // The drawer slides away ten times slower, so that the cart page is there before it has gone
  // (as on a busy phone): the page's heading keeps focus all the same.
  await animationRate(page, 0.1);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/cart$/);
  await expect(drawer).toBeHidden();
  // Every animation of the closing drawer has ended by now.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running"),
  );
  await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toBeFocused();
});

test("the success page keeps focus where it was when the payment's confirmation arrives", async ({
  page,
  context,
}) => {
  const email = uniqueEmail("keys-waiting");
  await signedInCustomer(page, email, "Keys-Waiting-Pass-3", "Wade", "Waiting");
  await page.goto("/movies");
  await tabTo(page, /^Add to Cart/);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  await page.goto("/cart");
  await fillShipping(page, email);
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/checkout\/test-payment\//);
  const paymentPage = page.url();
  const order = /test_(\d+)_/.exec(paymentPage)![1]!;

  // The success page while the payment is not confirmed yet: it checks again by itself.
  await page.goto(`/cart-success?order=${order}`);
  await expect(page.getByRole("heading", { name: "Confirming your payment…" })).toBeVisible();
  await tabTo(page, /^View My Orders$/);

  const paying = await context.newPage();
  await paying.goto(paymentPage);
  await paying.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await paying.getByLabel("Card number").fill("4242 4242 4242 4242");
  await paying.getByLabel("Expiry (MM/YY)").fill("12/40");
  await paying.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(paying.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();
  await paying.close();

  await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();
  await expect(page.getByRole("link", { name: "View My Orders" })).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: `Your order #${order}` })).toBeVisible();
});
