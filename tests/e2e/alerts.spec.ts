import type { Page } from "@playwright/test";
import { expect, test, whenInteractive } from "./support/fixtures.ts";
import { adminInOtherBrowser, clientAddress, signedInCustomer } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { addComingSoonEntry, listRegularTitle } from "./support/catalogue.ts";
import { mailsMatching, uniqueEmail, waitForMail } from "./support/mailbox.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.setTimeout(120_000);
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** The admin sets a title's copies on its edit page. */
async function setStock(admin: Page, serial: string, title: string, qty: number) {
  await admin.goto(`/admin/items/${serial}/edit`);
  await expect(admin.getByRole("heading", { name: new RegExp(`^Edit ${title}`) })).toBeVisible();
  await admin.getByLabel("QtyToList").fill(String(qty));
  await admin.getByRole("button", { name: "Save Changes" }).click();
  await expect(admin.getByRole("row").filter({ hasText: title })).toBeVisible();
}

/** A visitor's signup on a page with the alert form; returns the confirmation link. */
async function visitorSignsUp(page: Page, email: string, button: string) {
  await whenInteractive(page);
  await page.getByRole("button", { name: button }).click();
  await expect(page.getByText("Please enter your email.")).toBeVisible();
  await page.getByLabel("Your email").fill(email);
  const since = Date.now();
  await page.getByRole("button", { name: button }).click();
  await expect(
    page.getByText("Check your e-mail: follow the link in it to confirm your alert."),
  ).toBeVisible();
  const mail = await waitForMail(email, /^Confirm your Reel & Repair alert$/, { after: since });
  return mail.text.match(/https?:\/\/\S+\/alerts\/confirm\/\S+/)![0];
}

test("a visitor asks for sold-out titles, confirms, gets one e-mail when staff restock one, and stops every alert in one click", async ({
  page,
  browser,
}, testInfo) => {
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "alerts-desk");
  const stamp = Date.now().toString(36);
  const [first, second] = [`Alert Me ${stamp}`, `Alert Me Too ${stamp}`];
  const firstSerial = await listRegularTitle(admin, { title: first, productId: "ALERT-1", qty: 0 });
  const secondSerial = await listRegularTitle(admin, {
    title: second,
    productId: "ALERT-2",
    qty: 0,
  });

  const email = uniqueEmail("alert-visitor");
  // From a list: the sold-out card leads to the title page's signup.
  await page.goto(`/search?query=${encodeURIComponent(first)}`);
  await page.getByRole("link", { name: new RegExp(`^Email me when it's back: ${first}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/movies/${firstSerial}#back-in-stock$`));
  await expect(page.getByText("Out of stock")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const confirmLink = await visitorSignsUp(page, email, "Email me when it's back");
  // The link opens a page; only its button confirms.
  await page.goto(confirmLink);
  await expect(
    page.getByText(`E-mail this address once when ${first} is back in stock?`),
  ).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Confirm alert" }).click();
  await expect(
    page.getByText(`Your alert is confirmed: we will e-mail you when ${first} is back in stock.`),
  ).toBeVisible();
  await page.goto(`/movies/${secondSerial}`);
  await page.goto(await visitorSignsUp(page, email, "Email me when it's back"));
  await page.getByRole("button", { name: "Confirm alert" }).click();
  await expect(page.getByText(/^Your alert is confirmed/)).toBeVisible();

  await setStock(admin, firstSerial, first, 2);
  const alert = await waitForMail(email, /is back in stock/);
  expect(alert.subject).toBe(`${first} is back in stock at Reel & Repair`);
  expect(alert.text).toContain(`${first} is on our shelves at $9.99`);
  expect(alert.text).toContain(`/movies/${firstSerial}`);
  expect(alert.text).toContain("/account?section=alerts");
  const unsubscribeUrl = /<(https?:\/\/\S+\/alerts\/unsubscribe\/\S+)>/.exec(
    alert.headers!["list-unsubscribe"]!,
  )![1]!;
  expect(alert.headers!["list-unsubscribe-post"]).toBe(
    "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
  );

  // The mail program's one-click unsubscribe: a POST with no cookie and no page.
  const mailProgram = await browser.newContext();
  const stopped = await mailProgram.request.post(unsubscribeUrl, {
    form: { "List-Unsubscribe": "One-Click" },
  });
  expect(stopped.status()).toBe(200);
  await mailProgram.close();
  await page.goto(unsubscribeUrl);
  await expect(
    page.getByText("You will get no more alert e-mails from us at this address."),
  ).toBeVisible();

  // The other title comes in: a customer who asked since is told, the stopped address is not.
  const customer = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${testInfo.testId}-customer`) },
  });
  const shopper = await customer.newPage();
  const customerEmail = uniqueEmail("alert-customer");
  await signedInCustomer(shopper, customerEmail, "Alert-Customer-Pass-7", "Ali", "Alert");
  await shopper.goto(`/movies/${secondSerial}`);
  await expect(shopper.getByLabel("Your email")).toHaveCount(0);
  await shopper.getByRole("button", { name: "Email me when it's back" }).click();
  await expect(
    shopper.getByText(`We will e-mail you when ${second} is back in stock.`),
  ).toBeVisible();
  await setStock(admin, secondSerial, second, 3);
  await waitForMail(customerEmail, /is back in stock/);
  expect(mailsMatching(email, /is back in stock/).map((mail) => mail.subject)).toEqual([
    `${first} is back in stock at Reel & Repair`,
  ]);
  await customer.close();
  await admin.context().close();
});

test("without JavaScript the signup is a plain form post with its answer on a page", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(testInfo.testId) },
  });
  const page = await context.newPage();
  await page.goto("/");
  await page.getByRole("region", { name: "Coming Soon posters" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/coming-soon\/\d+$/);
  const title = (await page.getByRole("heading", { level: 1 }).textContent())!;
  await page.getByLabel("Your email").fill(uniqueEmail("alert-plain"));
  await page.getByRole("button", { name: "Notify me on release" }).click();
  await expect(page.getByRole("heading", { name: "Your alert" })).toBeVisible();
  await expect(
    page.getByText("Check your e-mail: follow the link in it to confirm your alert."),
  ).toBeVisible();
  await page.getByRole("link", { name: "Back to the title" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await context.close();
});

test("a Coming Soon title linked to its new catalogue title sends the release alerts once", async ({
  page,
  browser,
}, testInfo) => {
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "release-desk");
  const upcoming = `Premiere ${Date.now().toString(36)}`;
  await addComingSoonEntry(admin, upcoming);

  // A visitor finds it in the home row and asks to be told.
  const email = uniqueEmail("release-visitor");
  await page.goto("/");
  await page
    .getByRole("region", { name: "Coming Soon posters" })
    .getByRole("link", { name: new RegExp(upcoming) })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: upcoming })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto(await visitorSignsUp(page, email, "Notify me on release"));
  await page.getByRole("button", { name: "Confirm alert" }).click();
  await expect(
    page.getByText(`Your alert is confirmed: we will e-mail you when ${upcoming} is released.`),
  ).toBeVisible();

  // Out now: staff add the title and link the entry to it.
  const serial = await listRegularTitle(admin, { title: upcoming, productId: "REL-1", qty: 4 });
  await admin.goto("/admin/coming-soon");
  const entry = admin.getByRole("listitem").filter({ hasText: upcoming });
  await entry.getByLabel("Catalogue serial number").fill(serial);
  await entry.getByRole("button", { name: "Link and send release alerts" }).click();
  await expect(admin.getByText(/1 release alert will go out/)).toBeVisible();
  const released = await waitForMail(email, /is out now/);
  expect(released.subject).toBe(`${upcoming} is out now at Reel & Repair`);
  expect(released.text).toContain(`/movies/${serial}`);
  await expect(admin.getByRole("list", { name: "Coming Soon entries" })).not.toContainText(
    upcoming,
  );
  expect(mailsMatching(email, /is out now/)).toHaveLength(1);
  await admin.context().close();
});

test("a Coming Soon title linked and kept on the row leads to its title, whose back-in-stock alert is sent", async ({
  page,
  browser,
}, testInfo) => {
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "kept-release-desk");
  const stamp = Date.now().toString(36);
  const upcoming = `Kept Premiere ${stamp}`;
  // Far ahead, so it is not the first of the home row that other tests open.
  await addComingSoonEntry(admin, upcoming, 900);
  const entry = admin
    .getByRole("list", { name: "Coming Soon entries" })
    .getByRole("listitem")
    .filter({ hasText: upcoming });
  const id = await entry.locator('input[name="id"]').first().inputValue();
  const feature = `Kept Feature ${stamp}`;
  // Out, and sold out already.
  const serial = await listRegularTitle(admin, { title: feature, productId: "KEPT-1", qty: 0 });
  await admin.goto("/admin/coming-soon");
  await entry.getByLabel("Catalogue serial number").fill(serial);
  await entry.getByLabel("Remove it from Coming Soon").uncheck();
  await entry.getByRole("button", { name: /^Link and send release alerts/ }).click();
  await expect(
    admin.getByText(
      `${upcoming} is linked to ${feature}; 0 release alerts will go out. The entry stays on Coming Soon and leads to ${feature}.`,
    ),
  ).toBeVisible();
  await expect(entry).toContainText(`Out now as ${feature} (${serial})`);

  // The entry's page no longer promises a release e-mail: it leads to the title.
  await page.goto(`/coming-soon/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: upcoming })).toBeVisible();
  await expect(page.getByText(`${upcoming} is in our catalogue now.`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Notify me on release" })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("link", { name: `See ${feature}` }).click();
  await expect(page).toHaveURL(new RegExp(`/movies/${serial}$`));
  const email = uniqueEmail("kept-release");
  await page.goto(await visitorSignsUp(page, email, "Email me when it's back"));
  await page.getByRole("button", { name: "Confirm alert" }).click();
  await expect(
    page.getByText(`Your alert is confirmed: we will e-mail you when ${feature} is back in stock.`),
  ).toBeVisible();

  await setStock(admin, serial, feature, 2);
  const alert = await waitForMail(email, /is back in stock/);
  expect(alert.subject).toBe(`${feature} is back in stock at Reel & Repair`);
  await admin.goto("/admin/coming-soon");
  await entry.getByRole("button", { name: `Delete ${upcoming}` }).click();
  await admin
    .getByRole("dialog", { name: "Delete Coming Soon entry" })
    .getByRole("button", { name: "Delete", exact: true })
    .click();
  await expect(admin.getByText("Entry deleted")).toBeVisible();
  await admin.context().close();
});
