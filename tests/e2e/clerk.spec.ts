import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsClerk } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { shelfBarcode, shelveProduct } from "./support/shop-database.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

test("a clerk's back office is the desk: its sections only, and an admin's page sends them home", async ({
  page,
}) => {
  await signInAsClerk(page);
  const menu = page.getByRole("navigation", { name: "Back office" });
  await expect(menu.getByRole("link")).toHaveText([
    "Dashboard",
    "Counter",
    "Orders",
    "Returns",
    "Repairs",
  ]);
  await expect(page.getByRole("button", { name: "Add New Titles" })).toHaveCount(0);
  expect(await allViolations(page)).toEqual([]);

  await menu.getByRole("link", { name: "Repairs" }).click();
  await expect(page.getByRole("heading", { name: "Repairs", level: 1 })).toBeVisible();
  await menu.getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  // Read-only for a clerk: the orders' CSV (every customer's address) is an admin's.
  await expect(page.getByRole("link", { name: /Export CSV/ })).toHaveCount(0);
  expect(await allViolations(page)).toEqual([]);

  for (const adminsPage of ["/admin/items", "/admin/store-items/new", "/admin/customers"]) {
    await page.goto(adminsPage);
    await expect(page).toHaveURL(/\/$/);
  }
});

test("every link on a clerk's dashboard opens a page the clerk may see", async ({ page }) => {
  await shelveProduct({
    type: "regular",
    name: `Clerk's low shelf ${Date.now()}`,
    priceCents: 999,
    stock: 1,
    barcode: shelfBarcode(),
  });
  await signInAsClerk(page);
  await page.goto("/admin");
  // The titles low on stock are named, whoever may change them.
  const lowStock = page.getByRole("region", { name: "Low on stock" });
  await expect(lowStock.getByRole("listitem").first()).toBeVisible();

  const hrefs = await page
    .getByRole("main")
    .getByRole("link")
    .evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute("href")!))]);
  expect(hrefs.length).toBeGreaterThan(0);
  const refused: string[] = [];
  for (const href of hrefs) {
    const response = await page.request.get(href, { maxRedirects: 0 });
    if (response.status() >= 300) refused.push(`${href} → ${response.status()}`);
  }
  expect(refused).toEqual([]);
});
