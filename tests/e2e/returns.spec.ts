import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { adminInOtherBrowser, clientAddress, signedInCustomer } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { listRegularTitle } from "./support/catalogue.ts";
import { checkoutWithTestCard } from "./support/checkout.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { backdateShipment } from "./support/shop-database.ts";

const CUSTOMER_PASSWORD = "Return-Desk-Buyer-42";

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.setTimeout(120_000);
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/**
 * Two new titles with three copies each; the customer buys one of each and the admin ships the
 * order. Returns the order number and the titles' names and serial numbers.
 */
async function aShippedOrder(page: Page, admin: Page, label: string) {
  const titles = [];
  for (const which of ["One", "Two"]) {
    const title = `Return ${label} ${which} ${Date.now().toString(36)}`;
    const serial = await listRegularTitle(admin, {
      title,
      productId: `RET-${label}-${which}`,
      qty: 3,
    });
    titles.push({ title, serial });
  }
  const email = uniqueEmail(`return-${label}`);
  await signedInCustomer(page, email, CUSTOMER_PASSWORD, "Rory", "Returner");
  for (const [index, { serial }] of titles.entries()) {
    await page.goto(`/movies/${serial}`);
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByRole("button", { name: `Cart (${index + 1})` })).toBeVisible();
  }
  const orderNumber = await checkoutWithTestCard(page, email);
  await admin.goto(`/admin/orders/${orderNumber}`);
  await admin.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(admin.getByText(`Order #${orderNumber} is marked shipped.`)).toBeVisible();
  return { email, orderNumber, titles };
}

/** The customer asks to return one copy of a title from My Orders; returns the RMA. */
async function requestReturn(
  page: Page,
  orderNumber: number,
  title: string,
  method: "Drop it off at the shop" | "Send it by mail" = "Drop it off at the shop",
) {
  await page.goto("/orders");
  await page.getByRole("link", { name: `Return items of order #${orderNumber}` }).click();
  await expect(
    page.getByRole("heading", { name: `Return items of order #${orderNumber}` }),
  ).toBeVisible();
  await page.getByLabel(`How many of ${title}`).selectOption("1");
  await page.getByLabel("Reason").selectOption("Faulty disc");
  await page.getByLabel(method).check();
  await page.getByRole("button", { name: "Request return" }).click();
  const confirmation = page.getByText(/^Your return RMA-\d+ is requested\./);
  await expect(confirmation).toBeVisible();
  return (await confirmation.textContent())!.match(/RMA-\d+/)![0];
}

test("a customer returns one of two lines: RMA by e-mail, staff receive it back to stock and refund it, the customer sees the refund", async ({
  page,
  browser,
}, testInfo) => {
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "returns-desk");
  const { email, orderNumber, titles } = await aShippedOrder(page, admin, "refund");
  const [returned, kept] = titles;
  await page.goto(`/movies/${returned!.serial}`);
  await expect(page.getByText("Only 2 left")).toBeVisible();

  // Nothing chosen: the form says so and keeps the reason.
  await page.goto("/orders");
  await page.getByRole("link", { name: `Return items of order #${orderNumber}` }).click();
  await page.getByLabel("Reason").selectOption("Faulty disc");
  await page.getByRole("button", { name: "Request return" }).click();
  await expect(page.getByText("Please choose at least one item to return.")).toBeVisible();
  await expect(page.getByText("Please choose how you will send it back.")).toBeVisible();
  await expect(page.getByLabel("Reason")).toHaveValue("Faulty disc");
  expect(await seriousViolations(page)).toEqual([]);

  const rma = await requestReturn(page, orderNumber, returned!.title);
  const card = page.locator(`#order-${orderNumber}`);
  await expect(card.getByText(`Return ${rma}`)).toBeVisible();
  await expect(card.getByText("Requested", { exact: true })).toBeVisible();
  // The other line can still go back.
  await expect(
    card.getByRole("link", { name: `Return items of order #${orderNumber}` }),
  ).toBeVisible();
  const instructions = await waitForMail(
    email,
    new RegExp(`Your return ${rma} for order #${orderNumber}`),
  );
  expect(instructions.text).toContain(`Your return number is ${rma}`);
  expect(instructions.text).toContain(`1 × ${returned!.title}`);
  expect(instructions.text).not.toContain(kept!.title);

  // The back office: the dashboard counts it, the list leads to it.
  await admin.goto("/admin");
  await expect(admin.getByRole("region", { name: "Open returns" })).toBeVisible();
  await admin
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Returns" })
    .click();
  await admin.getByRole("link", { name: rma }).click();
  await expect(admin.getByRole("heading", { name: `Return ${rma}` })).toBeVisible();
  expect(await seriousViolations(admin)).toEqual([]);
  await admin.getByRole("button", { name: "Mark as received" }).click();
  await expect(admin.getByText("Please say whether it goes back to stock.")).toBeVisible();
  await admin.getByLabel(`1 × ${returned!.title}`).selectOption("Back to stock");
  await admin.getByRole("button", { name: "Mark as received" }).click();
  await expect(admin.getByText(`${rma} is received. It can be refunded now.`)).toBeVisible();
  // The price paid: this shop charges no sales tax (its share is in the integration tests), and
  // a parcel brought to the shop costs no postage.
  const amount = "$9.99";
  await admin.getByRole("button", { name: `Refund ${amount}` }).click();
  await expect(admin.getByText(`${rma} was refunded: ${amount}.`)).toBeVisible();
  const history = admin.getByRole("listitem").filter({ hasText: "Received → Refunded" });
  await expect(history).toContainText("by Shop Owner");
  await admin.goto(`/admin/orders/${orderNumber}`);
  await expect(
    admin.getByRole("listitem").filter({ hasText: `Return ${rma}: Requested → Received` }),
  ).toBeVisible();

  const refunded = await waitForMail(email, new RegExp(`Your return ${rma} is refunded`));
  expect(refunded.text).toContain(`We refunded ${amount}`);
  await page.goto("/orders");
  await expect(card.getByText("Refunded", { exact: true })).toBeVisible();
  await expect(card).toContainText(`Refunded ${amount} on`);
  expect(await seriousViolations(page)).toEqual([]);
  // Back on sale: one more copy on the title page.
  await page.goto(`/movies/${returned!.serial}`);
  await expect(page.getByText("Only 3 left")).toBeVisible();
  await admin.context().close();
});

test("a rejected return tells the customer why; outside the window the page says it has closed", async ({
  page,
  browser,
}, testInfo) => {
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "returns-desk");
  const { email, orderNumber, titles } = await aShippedOrder(page, admin, "reject");
  const rma = await requestReturn(page, orderNumber, titles[0]!.title);

  await admin.goto(`/admin/returns/${rma.replace("RMA-", "")}`);
  await admin.getByRole("button", { name: "Reject return" }).click();
  await expect(
    admin.getByText("Please tell the customer why the return is rejected."),
  ).toBeVisible();
  await admin
    .getByLabel("Reason for rejecting (the customer is told)")
    .fill("The disc came back broken in two.");
  await admin.getByRole("button", { name: "Reject return" }).click();
  await expect(admin.getByText(`${rma} is rejected; the customer is told why.`)).toBeVisible();
  const mail = await waitForMail(email, new RegExp(`Your return ${rma} could not be accepted`));
  expect(mail.text).toContain("The disc came back broken in two.");
  await page.goto("/orders");
  const card = page.locator(`#order-${orderNumber}`);
  await expect(card).toContainText("Not accepted: The disc came back broken in two.");

  // 32 days later the window has closed (it ends with the shop's 30th day after the shipping
  // day; 31 days to the hour can still be inside it late in the shop's evening): the page says
  // so, and a request is refused.
  await backdateShipment(orderNumber, 32);
  await page.goto("/orders");
  await expect(card).toContainText("The 30-day return window for this order closed on");
  await expect(
    card.getByRole("link", { name: `Return items of order #${orderNumber}` }),
  ).toHaveCount(0);
  await page.goto(`/orders/${orderNumber}/return`);
  await expect(page.getByText(/^The 30-day return window for this order closed on/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Request return" })).toHaveCount(0);
  const refused = await page.request.post(`/orders/${orderNumber}/return`, {
    form: {
      [`quantity.regular.${titles[1]!.serial}`]: "1",
      reason: "Changed my mind",
      method: "mail",
    },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(409);
  await admin.context().close();
});

/** Staff receive a return back to stock and refund it; the button names the amount. */
async function receiveAndRefund(admin: Page, rma: string, title: string, amount: string) {
  await admin.goto(`/admin/returns/${rma}`);
  await expect(admin.getByRole("heading", { name: `Return ${rma}` })).toBeVisible();
  await admin.getByLabel(`1 × ${title}`).selectOption("Back to stock");
  await admin.getByRole("button", { name: "Mark as received" }).click();
  await expect(admin.getByText(`${rma} is received. It can be refunded now.`)).toBeVisible();
  await admin.getByRole("button", { name: `Refund ${amount}` }).click();
  await expect(admin.getByText(`${rma} was refunded: ${amount}.`)).toBeVisible();
}

test("two returns of one order, by mail then at the shop: the postage promised is paid and the refunds add up to what was paid", async ({
  page,
  browser,
}, testInfo) => {
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "returns-ledger");
  const { email, orderNumber, titles } = await aShippedOrder(page, admin, "ledger");
  const [first, second] = titles;
  // Paid $25.97: 2 × $9.99 and $5.99 shipping, no sales tax in this shop. The postage comes out
  // of the shipping: $5.99, though the shop's contribution is $6.00.
  await page.goto(`/orders/${orderNumber}/return`);
  await expect(
    page.getByText("To the shop's address; we add $5.99 toward your postage to the refund."),
  ).toBeVisible();
  const byMail = await requestReturn(page, orderNumber, first!.title, "Send it by mail");
  const instructions = await waitForMail(email, new RegExp(`Your return ${byMail} for order`));
  expect(instructions.text).toContain("We add $5.99 toward your postage to the refund.");
  // The shipping is promised now: a second parcel by mail would be at the customer's cost.
  await page.goto(`/orders/${orderNumber}/return`);
  await expect(
    page.getByText("To the shop's address, with the postage at your cost."),
  ).toBeVisible();
  const atShop = await requestReturn(page, orderNumber, second!.title);

  // The desk finds both by the customer's e-mail.
  await admin.goto("/admin/returns");
  await admin
    .getByRole("searchbox", { name: "Search by RMA, order number, name or e-mail" })
    .fill(email);
  await expect(admin.getByRole("heading", { name: `Returns matching “${email}”` })).toBeVisible();
  await expect(admin.getByRole("link", { name: byMail })).toBeVisible();
  await expect(admin.getByRole("link", { name: atShop })).toBeVisible();
  // The address may name the return either way; the page's title names it once.
  await admin.goto(`/admin/returns/${byMail}`);
  await expect(admin).toHaveTitle(new RegExp(`^Return ${byMail} `));
  await expect(admin.getByText("$5.99 (promised $5.99 when asked for)")).toBeVisible();
  await receiveAndRefund(admin, byMail, first!.title, "$15.98");
  await receiveAndRefund(admin, atShop, second!.title, "$9.99");
  const money = admin.getByRole("region", { name: `Money of order #${orderNumber}` });
  await expect(money).toContainText("Kept of the payment$0.00");

  const last = await waitForMail(email, new RegExp(`Your return ${atShop} is refunded`));
  expect(last.text).toContain(
    `In all, we have refunded $25.97 of the $25.97 you paid for order #${orderNumber}.`,
  );
  await page.goto("/orders");
  const ledger = page.getByRole("group", { name: `Money of order #${orderNumber}` });
  await expect(ledger).toContainText("Paid$25.97");
  await expect(ledger).toContainText(`Refunded (${byMail})$15.98, of it $5.99 toward postage`);
  await expect(ledger).toContainText(`Refunded (${atShop})$9.99`);
  await expect(ledger).toContainText("Kept of the payment$0.00");
  expect(await seriousViolations(page)).toEqual([]);
  await admin.goto(`/admin/orders/${orderNumber}`);
  await expect(admin.getByText("Kept of the payment")).toBeVisible();
  expect(await seriousViolations(admin)).toEqual([]);
  await admin.context().close();
});
