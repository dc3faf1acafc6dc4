import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  test.slow();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

// A number field sends nothing for text the browser cannot read as a number. Which texts those
// are depends on the browser: Chromium reads "1999." as 1999 (others do not), and "19e" as
// nothing, so that is what is typed here.
test("a Release Year the browser cannot read as a number is refused next to the field, not sent empty", async ({
  page,
}) => {
  await signInAsAdmin(page, "year-typist");
  await page.goto("/admin/items/new");
  const title = `Trailing Dot ${Date.now()}`;
  await page.getByLabel("ProductID").fill("TD-001");
  await page.getByLabel("QtyToList").fill("2");
  await page.getByLabel("Title", { exact: true }).fill(title);
  const year = page.getByLabel("Release Year");
  await year.focus();
  await page.keyboard.type("19e");
  await page.getByLabel("Disc").selectOption("DVD");
  await page.getByLabel("CurrentPrice").fill("9.99");
  await page.getByRole("button", { name: "Add Title" }).click();

  await expect(year).toHaveAccessibleDescription("Year must be in YYYY format");
  await expect(year).toHaveAttribute("aria-invalid", "true");
  await expect(year).toBeFocused();
  await expect(page).toHaveURL(/\/admin\/items\/new$/);
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);

  // Corrected, it is saved with its year.
  await year.fill("1999");
  await expect(year).not.toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "Add Title" }).click();
  await expect(page).toHaveURL(/\/admin\/items\?q=\d+/);
  await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
});
