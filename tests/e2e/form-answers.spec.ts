import type { Locator, Page } from "@playwright/test";
import { expect, test, whenFeedbackReady } from "./support/fixtures.ts";
import { adminInOtherBrowser, clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { listRegularTitle } from "./support/catalogue.ts";
import { uniqueEmail } from "./support/mailbox.ts";
import { aShippedOrder } from "./support/returns.ts";
import { setRegularStock } from "./support/shop-database.ts";

// Where focus goes once a form has its answer (decision 007): on what answers, in view, never
// on the page's body nor back up on its heading.

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** Presses Enter on a control, as a keyboard user who has reached it does. */
async function pressEnterOn(control: Locator) {
  await control.focus();
  await control.page().keyboard.press("Enter");
}

/** Focus is on `target`, which is on screen, and the page's heading does not have it. */
async function expectFocusedInView(page: Page, target: Locator) {
  await expect(target).toBeFocused();
  await expect(target).toBeInViewport();
  await expect(page.getByRole("heading", { level: 1 })).not.toBeFocused();
}

test("'Email me when it's back' and 'Notify me on release' put focus on what answers them: the field, the message", async ({
  page,
  browser,
}, testInfo) => {
  test.slow();
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "alert-focus");
  const title = `Answer Focus ${Date.now().toString(36)}`;
  const serial = await listRegularTitle(admin, { title, productId: "FOCUS-1", qty: 0 });
  await admin.context().close();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/movies/${serial}`);
  await whenFeedbackReady(page);
  const button = page.getByRole("button", { name: "Email me when it's back" });
  const email = page.getByLabel("Your email");

  // No address: the field that needs one has focus, with its message.
  await pressEnterOn(button);
  await expect(page.getByText("Please enter your email.")).toBeVisible();
  await expectFocusedInView(page, email);

  // Back in stock meanwhile: the form's message says so and has focus.
  await setRegularStock(serial, 2);
  await email.fill(uniqueEmail("alert-focus"));
  await pressEnterOn(button);
  const inStock = page.getByText("It is in stock now: add it to your cart.");
  await expectFocusedInView(page, inStock);
  expect(await allViolations(page)).toEqual([]);

  // Sold out again: the confirmation that replaces the form has focus.
  await setRegularStock(serial, 0);
  await pressEnterOn(button);
  const checkMail = page.getByText(
    "Check your e-mail: follow the link in it to confirm your alert.",
  );
  await expectFocusedInView(page, checkMail);
  expect(await allViolations(page)).toEqual([]);

  // The same for a Coming Soon title.
  await page.goto("/");
  await page.getByRole("region", { name: "Coming Soon posters" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/coming-soon\/\d+$/);
  await page.getByLabel("Your email").fill(uniqueEmail("release-focus"));
  await pressEnterOn(page.getByRole("button", { name: "Notify me on release" }));
  await expectFocusedInView(
    page,
    page.getByText("Check your e-mail: follow the link in it to confirm your alert."),
  );
});

test("a refused estimate puts focus on its message or the line's field, not on the ticket's heading", async ({
  page,
}) => {
  test.slow();
  await signInAsAdmin(page, "estimate-focus");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/admin/repairs/new");
  await whenFeedbackReady(page);
  await page.getByLabel("Name").fill("Fay Cuss");
  await page.getByLabel("Email").fill(uniqueEmail("estimate-focus"));
  await page.getByLabel("Phone").fill("(817) 555-0188");
  await page.getByLabel("Service").selectOption("Mobile Phone Repair");
  await page.getByLabel("Kind of device").selectOption("Phone");
  await page.getByLabel("Brand").fill("Apple");
  await page.getByLabel("Model").fill("iPhone 12");
  await page.getByLabel("Problem, as the customer tells it").fill("Battery drains");
  await page.getByLabel("Condition at intake").fill("Scratched back");
  await page.getByRole("button", { name: "Open ticket" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Ticket R-\d+$/ })).toBeVisible();
  await page.getByRole("button", { name: "Start diagnosing" }).click();
  await expect(page.getByRole("heading", { name: "Send an estimate" })).toBeVisible();

  // No line at all: the form's message has focus.
  const send = page.getByRole("button", { name: "Send estimate" });
  await pressEnterOn(send);
  await expectFocusedInView(page, page.getByText("An estimate needs at least one line."));

  // A price that is no price, on the third line: that field has focus, well below the heading.
  await page.getByRole("textbox", { name: "Line 1 Description" }).fill("Labour");
  await page.getByRole("textbox", { name: "Line 1 Unit price ($)" }).fill("40");
  await page.getByRole("textbox", { name: "Line 3 Description" }).fill("New battery");
  await page.getByRole("textbox", { name: "Line 3 Unit price ($)" }).fill("a lot");
  await pressEnterOn(send);
  const price = page.getByRole("textbox", { name: "Line 3 Unit price ($)" });
  await expect(price).toHaveAccessibleDescription("Please enter a price, e.g. 49.99.");
  await expectFocusedInView(page, price);
  expect(await allViolations(page)).toEqual([]);
});

test("after 'Request return', My Orders shows its confirmation in view, with focus on it", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "return-focus");
  const { orderNumber, title } = await aShippedOrder(page, admin, { label: "return-focus" });
  await admin.context().close();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/orders");
  await whenFeedbackReady(page);
  await page.getByRole("link", { name: `Return items of order #${orderNumber}` }).click();
  await expect(
    page.getByRole("heading", { name: `Return items of order #${orderNumber}` }),
  ).toBeVisible();
  await page.getByLabel(`How many of ${title}`).selectOption("1");
  await page.getByLabel("Reason").selectOption("Faulty disc");
  await page.getByLabel("Drop it off at the shop").check();
  await pressEnterOn(page.getByRole("button", { name: "Request return" }));
  await expect(page).toHaveURL(/\/orders\?return=/);
  const confirmation = page.getByText(/^Your return RMA-\d+ is requested\./);
  await expectFocusedInView(page, confirmation);
  expect(await allViolations(page)).toEqual([]);
});
