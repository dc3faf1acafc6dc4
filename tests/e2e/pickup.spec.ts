import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer, signInAsClerk } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { shelfBarcode, shelveProduct } from "./support/shop-database.ts";

// A web order picked up at the store (decision 023, point 8): paid online, marked ready by
// staff (an e-mail with its code and QR image), handed over at the counter's pickups page.

const PASSWORD = "Pickup-At-The-Store-24";

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** A title of its own on the shelf, regular or adult; its id. */
async function shelved(type: "regular" | "adult", name: string) {
  return shelveProduct({ type, name, priceCents: 1200, stock: 3, barcode: shelfBarcode() });
}

/** The shopper checks out their cart with "Pick up at the store (free)"; the order number. */
async function checkoutForPickup(page: Page, email: string) {
  await page.goto("/cart");
  await page.getByLabel("Shipping method").selectOption({ label: "Pick up at the store (free)" });
  // Nothing is shipped: no address is asked, only who picks it up.
  await expect(page.getByRole("group", { name: "Who picks it up" })).toBeVisible();
  await expect(page.getByLabel("Street address")).toBeHidden();
  await page.getByLabel("Full name", { exact: true }).fill("Pia Pickup");
  await page.getByLabel("Phone", { exact: true }).fill("(817) 555-0142");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Review your order" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Pick up at the store" })).toBeVisible();
  await expect(page.getByText(/Collect at 1201 W Division St/)).toBeVisible();
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/40");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();
  const text = await page.getByText(/Your order #\d+/).textContent();
  return Number(text!.match(/#(\d+)/)![1]);
}

/** A clerk in a browser of their own, marking the order ready on its page; the code e-mailed. */
async function clerkMarksReady(browser: Browser, testId: string, orderId: number, email: string) {
  const context = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${testId}-clerk`) },
  });
  const clerk = await context.newPage();
  await clerk.emulateMedia({ reducedMotion: "reduce" });
  await signInAsClerk(clerk, "pickup-clerk");
  await clerk.goto(`/admin/orders/${orderId}`);
  const pickup = clerk.getByRole("region", { name: "Pick up at the store" });
  await expect(pickup).toContainText("Paid: get it ready at the counter");
  await pickup.getByRole("button", { name: "Ready for pickup" }).click();
  await expect(clerk.getByText(`Order #${orderId} is ready for pickup`)).toBeVisible();
  const mail = await waitForMail(email, /is ready to pick up/);
  const code = /Your pickup code: ([A-Z0-9]{8})/.exec(mail.text)![1]!;
  await expect(pickup).toContainText(`Pickup code: ${code}`);
  return { clerk, code, mail };
}

/** The clerk opens the pickups page from the counter. */
async function toPickups(clerk: Page) {
  await clerk
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Counter" })
    .click();
  await expect(clerk.getByRole("heading", { name: "Counter", level: 1 })).toBeVisible();
  await clerk.getByRole("link", { name: "Pickups" }).click();
  await expect(clerk.getByRole("heading", { name: "Pickups", level: 1 })).toBeVisible();
}

/** axe, at every impact, at a tablet's 1024×768 and a phone's 390 px. */
async function judgedAtBothWidths(page: Page) {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    expect(await allViolations(page), `${size.width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1024, height: 768 });
}

test("a pickup order: checked out free, marked ready with an e-mailed code, handed over at the counter by its code", async ({
  page,
  browser,
}, testInfo) => {
  const tag = String(Date.now()).slice(-6);
  const film = `Pickup Film ${tag}`;
  const filmId = await shelved("regular", film);
  const email = uniqueEmail("pickup");
  await signedInCustomer(page, email, PASSWORD, "Pia", "Pickup");
  await page.goto(`/movies/${filmId}`);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();

  const orderId = await checkoutForPickup(page, email);
  const confirmation = await waitForMail(email, new RegExp(`order #${orderId} is confirmed`));
  expect(confirmation.text).toContain("Shipping (Pick up at the store): Free");
  expect(confirmation.text).toContain("ready to pick up");

  const { clerk, code, mail } = await clerkMarksReady(browser, testInfo.testId, orderId, email);
  // The QR code is a PNG inside the message, by its Content-ID: the receiving mail parser put the
  // image it found there in place of the cid: link, as a mail client shows it.
  expect(mail.html).toMatch(
    new RegExp(`<img src="data:image/png;base64,[^"]+" alt="QR code of pickup code ${code}"`),
  );

  await page.goto("/orders");
  const card = page.locator(`#order-${orderId}`);
  await expect(card).toContainText("Pick up at the store");
  await expect(card).toContainText(`Show this code at the counter: ${code}`);

  await toPickups(clerk);
  await judgedAtBothWidths(clerk);
  await clerk.getByLabel("Pickup code").fill("ZZZZ2222");
  await clerk.getByRole("button", { name: "Find by code" }).click();
  await expect(
    clerk.getByText("No order has this pickup code. Check it, or search by name."),
  ).toBeVisible();
  await judgedAtBothWidths(clerk);

  // A scanner types the code read from the QR image, then Enter.
  await clerk.getByLabel("Pickup code").fill("");
  await clerk.getByLabel("Pickup code").pressSequentially(code.toLowerCase());
  await clerk.keyboard.press("Enter");
  const found = clerk.getByRole("region", { name: `Order #${orderId} for Pia Pickup` });
  await expect(found).toContainText(`1 × ${film}`);
  await judgedAtBothWidths(clerk);
  await found.getByRole("button", { name: `Hand over order #${orderId}` }).click();
  await expect(found.getByRole("status")).toHaveText(
    `Order #${orderId} handed over to Pia Pickup.`,
  );
  await judgedAtBothWidths(clerk);

  // Once is enough: the same code again is refused.
  await clerk.getByLabel("Pickup code").fill(code);
  await clerk.getByRole("button", { name: "Find by code" }).click();
  await expect(found).toContainText("Collected already");
  await expect(found.getByRole("button", { name: /^Hand over/ })).toHaveCount(0);

  await page.goto("/orders");
  await expect(card).toContainText("Collected");
  await expect(card).toContainText(/completed/i);
  await clerk.context().close();
});

test("a pickup order with an adult title: found by name and order number, handed over only after the ID check", async ({
  page,
  browser,
}, testInfo) => {
  const tag = String(Date.now()).slice(-6);
  const adult = `Pickup Adult ${tag}`;
  const adultId = await shelved("adult", adult);
  const email = uniqueEmail("pickup-adult");
  await signedInCustomer(page, email, PASSWORD, "Pia", "Pickup");
  // Signed in with a date of birth of 1990: no age gate.
  await page.goto(`/adult-movies/${adultId}`);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  const orderId = await checkoutForPickup(page, email);

  const { clerk, mail } = await clerkMarksReady(browser, testInfo.testId, orderId, email);
  expect(mail.text).toContain("please bring an ID");

  await toPickups(clerk);
  await clerk.getByLabel("Order number").fill(String(orderId));
  await clerk.getByLabel("Customer's name").fill("pia pickup");
  await clerk.getByRole("button", { name: "Find by name" }).click();
  const found = clerk.getByRole("region", { name: `Order #${orderId} for Pia Pickup` });
  await expect(found).toContainText(`1 × ${adult} (adult title: ID check)`);
  const handOver = found.getByRole("button", { name: `Hand over order #${orderId}` });
  const birthDate = found.getByLabel("Birth date on the customer's ID");

  await handOver.click();
  await expect(
    found.getByText("Adult titles need an ID check: type the birth date on the customer's ID."),
  ).toBeVisible();
  await judgedAtBothWidths(clerk);
  const tooYoung = `${new Date().getUTCFullYear() - 10}-01-01`;
  await birthDate.fill(tooYoung);
  await handOver.click();
  await expect(
    found.getByText("The customer is under 18: adult titles cannot be handed over."),
  ).toBeVisible();
  await expect(birthDate).toHaveValue(tooYoung);

  await birthDate.fill("1990-12-10");
  await handOver.click();
  await expect(found.getByRole("status")).toHaveText(
    `Order #${orderId} handed over to Pia Pickup.`,
  );
  await clerk.context().close();
});
