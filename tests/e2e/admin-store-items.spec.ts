import fs from "node:fs";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  // Dialogs fade in; axe must not judge their colours halfway through.
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** A 12-digit UPC of this run's own (a retry or another run must not find it taken). */
function upcOf(tag: string): string {
  const body = `0${tag.padStart(10, "0").slice(-10)}`;
  let sum = 0;
  for (let i = body.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) {
    sum += Number(body[i]) * weight;
  }
  return body + String((10 - (sum % 10)) % 10);
}

test("an admin adds a store item with its barcode, changes its stock, sees who did, and takes it off sale", async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Store Items" }).click();
  await expect(page.getByRole("heading", { name: "Store Items" })).toBeVisible();
  const tag = String(Date.now()).slice(-6);
  const upc = upcOf(String(Date.now()));
  const misread = upc.slice(0, -1) + String((Number(upc.at(-1)) + 1) % 10);
  const name = `Jaws one-sheet poster ${tag}`;

  await page.getByRole("link", { name: "Add Item" }).click();
  await expect(page.getByRole("heading", { name: "Add Store Item" })).toBeVisible();
  await page.getByLabel("SKU").fill(`POS-${tag}`);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Price").fill("twenty");
  await page.getByLabel("Stock", { exact: true }).fill("3");
  // A UPC whose check digit is wrong.
  await page.getByLabel("Barcode (UPC/EAN)").fill(misread);
  await page.getByRole("button", { name: "Add Item" }).click();
  // Told next to each field, and nothing typed is lost.
  await expect(page.getByText("Price must be a number of dollars, e.g. 12.99.")).toBeVisible();
  await expect(page.getByLabel("Barcode (UPC/EAN)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Name")).toHaveValue(name);
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel("Price").fill("24.99");
  await page.getByLabel("Barcode (UPC/EAN)").fill(upc);
  await page.getByRole("button", { name: "Add Item" }).click();
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText(upc);
  await expect(row).toContainText("$24.99");

  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { name: `Edit ${name}` })).toBeVisible();
  await expect(page.getByRole("row", { name: /Added to the catalogue/ })).toContainText("+3");
  await page.getByLabel("Stock", { exact: true }).fill("5");
  await page.getByRole("button", { name: "Save Changes" }).click();
  // The fifth column is the stock.
  await expect(
    page
      .getByRole("row", { name: new RegExp(name) })
      .getByRole("cell")
      .nth(4),
  ).toHaveText("5");

  await page.getByRole("link", { name: `Edit ${name}` }).click();
  const change = page.getByRole("row", { name: /Changed in the back office/ });
  await expect(change).toContainText("+2");
  await expect(change).toContainText("Shop Owner");
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("link", { name: "Cancel" }).click();
  // The items as a spreadsheet opens them: this one with its barcode and new stock.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = fs.readFileSync((await (await download).path())!, "utf8");
  expect(csv).toContain(`POS-${tag},${upc},${name},24.99,5,yes`);
  await page.getByRole("button", { name: `Take off sale ${name}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Take off sale" }).click();
  await expect(page.getByText("Item taken off sale")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
});
