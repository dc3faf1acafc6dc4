import { expect, test } from "./support/fixtures.ts";
import {
  adminInOtherBrowser,
  clientAddress,
  signedInCustomer,
  signInAsAdmin,
} from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { addComingSoonEntry, listRegularTitle } from "./support/catalogue.ts";
import { uniqueEmail } from "./support/mailbox.ts";

// The staff's and the customer's screens of stock alerts: Most wanted on the dashboard, linking
// a Coming Soon entry to its catalogue title, and My Account's My Alerts.

test.beforeEach(async ({ context, page }, testInfo) => {
  // Toasts fade in; axe must not judge their colours halfway through.
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

test("the dashboard shows what shoppers wait for most", async ({ page }) => {
  await signInAsAdmin(page);
  const wanted = page.getByRole("region", { name: "Most wanted" });
  await expect(wanted.getByRole("heading", { name: "Most wanted" })).toBeVisible();
  // Other tests may have left alerts waiting: either the list or the empty text.
  await expect(
    wanted.getByText("Nobody is waiting for a title.").or(wanted.getByRole("listitem").first()),
  ).toBeVisible();
  for (const row of await wanted.getByRole("listitem").all()) {
    await expect(row).toContainText(/(back in stock|release)\s*\d+ waiting/);
  }
  expect(await seriousViolations(page)).toEqual([]);
});

test("staff link a Coming Soon entry to its title once it is in the catalogue", async ({
  page,
}) => {
  await signInAsAdmin(page);
  const stamp = Date.now();
  const upcoming = `Lantern Premiere ${stamp}`;
  await addComingSoonEntry(page, upcoming);
  const entries = page.getByRole("list", { name: "Coming Soon entries" });
  const entry = entries.getByRole("listitem").filter({ hasText: upcoming });
  await expect(entry).toContainText("Nobody waiting yet");
  const serial = entry.getByLabel("Catalogue serial number");
  await expect(entry.getByLabel("Remove it from Coming Soon")).toBeChecked();

  // No such title: said next to the field, and the entry stays.
  await serial.fill("999999999");
  await entry.getByRole("button", { name: /^Link and send release alerts/ }).click();
  await expect(entry).toContainText("There is no regular title with serial number 999999999.");
  await expect(serial).toHaveAttribute("aria-invalid", "true");
  expect(await seriousViolations(page)).toEqual([]);

  const serialNo = await listRegularTitle(page, {
    title: `Lantern Feature ${stamp}`,
    productId: `LNK-${stamp}`,
    qty: 3,
  });
  await page.goto("/admin/coming-soon");
  await entry.getByLabel("Catalogue serial number").fill(serialNo);
  await entry.getByRole("button", { name: /^Link and send release alerts/ }).click();
  await expect(
    page.getByText(
      `${upcoming} is linked to Lantern Feature ${stamp}; 0 release alerts will go out. The entry is off the Coming Soon list.`,
    ),
  ).toBeVisible();
  await expect(entries).not.toContainText(upcoming);
});

test("deleting a Coming Soon entry people wait for says they will not be told, and works", async ({
  page,
  browser,
}, testInfo) => {
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "shelving-desk");
  const upcoming = `Shelved Premiere ${Date.now().toString(36)}`;
  await addComingSoonEntry(admin, upcoming);
  const entries = admin.getByRole("list", { name: "Coming Soon entries" });
  const entry = entries.getByRole("listitem").filter({ hasText: upcoming });
  const id = await entry.locator('input[name="id"]').first().inputValue();

  // A customer waits for it; a visitor asked and has not confirmed yet.
  await signedInCustomer(page, uniqueEmail("shelved-fan"), "Shelved-Fan-Pass-8", "Sam", "Shelf");
  await page.goto(`/coming-soon/${id}`);
  await page.getByRole("button", { name: "Notify me on release" }).click();
  await expect(page.getByText(`We will e-mail you when ${upcoming} is released.`)).toBeVisible();
  const visitor = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${testInfo.testId}-visitor`) },
  });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/coming-soon/${id}`);
  await visitorPage.getByLabel("Your email").fill(uniqueEmail("shelved-visitor"));
  await visitorPage.getByRole("button", { name: "Notify me on release" }).click();
  await expect(
    visitorPage.getByText("Check your e-mail: follow the link in it to confirm your alert."),
  ).toBeVisible();
  await visitor.close();

  await admin.goto("/admin/coming-soon");
  await expect(entry).toContainText("1 waiting for its release");
  await entry.getByRole("button", { name: `Delete ${upcoming}` }).click();
  const dialog = admin.getByRole("dialog", { name: "Delete Coming Soon entry" });
  await expect(dialog).toContainText(
    `Delete "${upcoming}"? This cannot be undone. 1 person waiting for its release will not be told; their alert ends with it.`,
  );
  expect(await seriousViolations(admin)).toEqual([]);
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(admin.getByText("Entry deleted")).toBeVisible();
  await expect(
    admin.getByText("1 person waiting for its release will not be told; their alert ends with it."),
  ).toBeVisible();
  await expect(entries).not.toContainText(upcoming);
  await admin.context().close();
});

test("a customer's My Alerts, where the alert e-mails lead", async ({ page }) => {
  await signedInCustomer(page, uniqueEmail("alerts"), "Alert-Watcher-Pass-5", "Wanda", "Waits");
  await page.goto("/account");
  await page.getByRole("link", { name: /^My Alerts/ }).click();
  await expect(page).toHaveURL(/\/account\?section=alerts$/);
  await expect(page.getByRole("heading", { name: "My Alerts", level: 1 })).toBeVisible();
  await expect(
    page.getByText("You have no alerts. On a sold-out title, choose “Email me when it's back”."),
  ).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
