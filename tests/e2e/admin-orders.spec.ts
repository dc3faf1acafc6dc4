import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { adminInOtherBrowser, clientAddress, signedInCustomer } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { checkoutWithTestCard } from "./support/checkout.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";

const CUSTOMER_PASSWORD = "Order-Desk-Buyer-42";

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.setTimeout(90_000);
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** The admin finds an order by the customer's e-mail and opens it. */
async function openOrder(admin: Page, customerEmail: string, orderNumber: number) {
  await admin
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Orders" })
    .click();
  await expect(admin.getByRole("heading", { name: "Orders", exact: true })).toBeVisible();
  await admin
    .getByRole("searchbox", { name: "Search by order number, name or e-mail" })
    .fill(customerEmail);
  // The search runs 300 ms after typing: wait for it, or it replaces the order page again.
  await expect(admin).toHaveURL(/\?q=/);
  const row = admin.getByRole("row").filter({ hasText: customerEmail });
  await expect(row).toHaveCount(1);
  await row.getByRole("link", { name: `#${orderNumber}` }).click();
  await expect(admin.getByRole("heading", { name: `Order #${orderNumber}` })).toBeVisible();
}

test("an admin ships a paid order with a tracking number; the customer is told and sees it", async ({
  page,
  browser,
}, testInfo) => {
  const email = uniqueEmail("ship-me");
  await signedInCustomer(page, email, CUSTOMER_PASSWORD, "Shea", "Shipper");
  await page.goto("/movies");
  await page
    .getByRole("button", { name: /^Add to Cart:/ })
    .first()
    .click();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  const orderNumber = await checkoutWithTestCard(page, email);

  const admin = await adminInOtherBrowser(browser, testInfo.testId, "order-desk");
  await openOrder(admin, email, orderNumber);
  expect(await seriousViolations(admin)).toEqual([]);
  await expect(admin.getByText("paid", { exact: true }).first()).toBeVisible();

  // A tracking number with a stray character is refused next to its field, the carrier kept.
  await admin.getByLabel("Carrier (optional)").fill("UPS");
  await admin.getByLabel("Tracking number (optional)").fill("1Z999AA1012345678$");
  await admin.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(admin.getByText("Use letters, digits, spaces and dashes only.")).toBeVisible();
  await expect(admin.getByLabel("Carrier (optional)")).toHaveValue("UPS");
  await admin.getByLabel("Tracking number (optional)").fill("1Z999AA10123456784");
  await admin.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(admin.getByText(`Order #${orderNumber} is marked shipped.`)).toBeVisible();
  const history = admin.getByRole("listitem").filter({ hasText: "paid → shipped" });
  await expect(history).toContainText("by Shop Owner");
  await expect(history).toContainText("UPS 1Z999AA10123456784");

  const mail = await waitForMail(email, new RegExp(`order #${orderNumber} has shipped`));
  expect(mail.text).toContain("Tracking number (UPS): 1Z999AA10123456784");

  await page.goto("/orders");
  const card = page.getByRole("listitem").filter({ hasText: `Order #${orderNumber}` });
  await expect(card.getByText("shipped", { exact: true })).toBeVisible();
  await expect(card).toContainText("with UPS");
  await expect(card).toContainText("Tracking number: 1Z999AA10123456784");

  // Shipped orders can be completed; the list's status filter finds it there.
  await admin.getByRole("button", { name: "Mark as completed" }).click();
  await expect(admin.getByText(`Order #${orderNumber} is completed.`)).toBeVisible();
  await admin.goto("/admin/orders");
  await admin.getByLabel("Status").selectOption("completed");
  await expect(admin).toHaveURL(/status=completed/);
  await expect(admin.getByRole("link", { name: `#${orderNumber}` })).toBeVisible();
  expect(await seriousViolations(admin)).toEqual([]);
  await admin.context().close();
});

test("an admin cancels a paid order: refunded, stock back on the shelf, the customer told", async ({
  page,
  browser,
}, testInfo) => {
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "order-desk");
  // A title of this test's own, three on the shelf.
  const title = `Orbit Cartographer ${Date.now()}`;
  await admin.goto("/admin/items/new");
  await admin.getByLabel("ProductID").fill("OC-001");
  await admin.getByLabel("QtyToList").fill("3");
  await admin.getByLabel("Title", { exact: true }).fill(title);
  await admin.getByLabel("Disc").selectOption("DVD");
  await admin.getByLabel("CurrentPrice").fill("9.99");
  await admin.getByRole("button", { name: "Add Title" }).click();
  const row = admin.getByRole("row").filter({ hasText: title });
  await expect(row).toBeVisible();
  const serial = (await row.getByRole("cell").first().textContent())!.trim();

  const email = uniqueEmail("cancel-me");
  await signedInCustomer(page, email, CUSTOMER_PASSWORD, "Cal", "Canceller");
  await page.goto(`/movies/${serial}`);
  await page
    .getByRole("button", { name: /^Add to Cart/ })
    .first()
    .click();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  const orderNumber = await checkoutWithTestCard(page, email);

  await admin.goto(`/admin/items?q=${serial}`);
  await expect(
    admin.getByRole("row").filter({ hasText: title }).getByRole("cell").nth(5),
  ).toHaveText("2");

  await openOrder(admin, email, orderNumber);
  await admin.getByRole("button", { name: "Cancel order" }).click();
  const dialog = admin.getByRole("dialog", { name: `Cancel order #${orderNumber}?` });
  await expect(dialog).toContainText("refunded to the customer's card");
  await dialog.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(
    admin.getByText(
      `Order #${orderNumber} is cancelled, its stock is back on sale and the payment was refunded.`,
    ),
  ).toBeVisible();
  await expect(admin.getByText("refunded", { exact: true }).first()).toBeVisible();
  await expect(admin.getByText(/^test_refund_/)).toBeVisible();
  await expect(admin.getByRole("listitem").filter({ hasText: "paid → cancelled" })).toContainText(
    "by Shop Owner",
  );
  expect(await seriousViolations(admin)).toEqual([]);
  // Nothing more to do, and a second cancel (another tab, another admin) is refused.
  await expect(admin.getByText("Nothing left to do for this order.")).toBeVisible();
  const again = await admin.request.post(`/admin/orders/${orderNumber}`, {
    form: { intent: "cancel" },
    headers: { Origin: new URL(admin.url()).origin },
  });
  expect(again.status()).toBe(409);

  await admin.goto(`/admin/items?q=${serial}`);
  await expect(
    admin.getByRole("row").filter({ hasText: title }).getByRole("cell").nth(5),
  ).toHaveText("3");

  const mail = await waitForMail(email, new RegExp(`order #${orderNumber} was cancelled`));
  expect(mail.text).toContain("We refunded $");
  await page.goto("/orders");
  const card = page.getByRole("listitem").filter({ hasText: `Order #${orderNumber}` });
  await expect(card.getByText("refunded", { exact: true })).toBeVisible();
  await admin.context().close();
});
