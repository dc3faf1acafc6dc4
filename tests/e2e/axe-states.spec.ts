import { expect, test } from "./support/fixtures.ts";
import { clientAddress } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";

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
