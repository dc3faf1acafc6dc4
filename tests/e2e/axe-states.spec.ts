import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer, signInAsAdmin } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { uniqueEmail } from "./support/mailbox.ts";

// States a page reaches only after something is done on it, judged by axe at every impact.

test.beforeEach(async ({ context }, testInfo) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

test("a search with no matches says so as a status, with no empty listbox", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/about");
  const box = page.getByRole("combobox", { name: "Search films" });
  await box.fill("qqqzzzxxx");
  await expect(page.getByText("No matches found.")).toBeVisible();
  expect(await allViolations(page)).toEqual([]);
  await expect(page.getByRole("status").getByText("No matches found.")).toBeVisible();
  await expect(box).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("listbox")).toHaveCount(0);
});

test("the search page's two search landmarks have names of their own", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/search?query=the");
  expect(await allViolations(page)).toEqual([]);
  await expect(page.getByRole("search", { name: "Search films" })).toBeVisible();
  await expect(page.getByRole("search", { name: "Search the results" })).toBeVisible();
});

test("the adult catalogue's production search has a name of its own", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/age-check?returnTo=/adult-movies");
  await page.getByRole("button", { name: "I am 18 or older" }).click();
  await expect(page.getByRole("heading", { name: "Adult Titles" })).toBeVisible();
  expect(await allViolations(page)).toEqual([]);
  await expect(page.getByRole("search", { name: "Search adult titles" })).toBeVisible();
});

test("the admin tables' search landmarks have names of their own", async ({ page }) => {
  test.slow();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  for (const [path, name] of [
    ["/admin/items", "Search regular titles"],
    ["/admin/adult/items", "Search adult titles"],
    ["/admin/orders", "Search by order number, name or e-mail"],
    ["/admin/customers", "Search customers by e-mail or name"],
  ] as const) {
    await page.goto(path);
    expect(await allViolations(page), path).toEqual([]);
    await expect(page.getByRole("search", { name }), path).toBeVisible();
  }
});

test("the open user menu is inside the header's navigation", async ({ page }) => {
  test.slow();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signedInCustomer(page, uniqueEmail("menu"), "Menu-Landmark-4", "Mona", "Menu");
  await page.goto("/about");
  await page.getByRole("button", { name: "Mona Menu" }).click();
  await expect(page.getByRole("menuitem", { name: "My Account" })).toBeVisible();
  expect(await allViolations(page)).toEqual([]);
  const menu = page.getByRole("navigation", { name: "Main" }).getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: "My Account" })).toBeVisible();
});
