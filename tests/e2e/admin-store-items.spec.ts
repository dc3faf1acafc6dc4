import fs from "node:fs";
import { parse } from "csv-parse/sync";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { posterPng } from "./support/catalogue.ts";
import { checkCsvFile, csvFile, rejectedRowNumber } from "./support/csv-import.ts";

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

test("an admin adds a store item with its barcode and photo, changes its stock, sees who did, and takes it off sale", async ({
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
  await page
    .getByLabel("Photo")
    .setInputFiles({ name: "jaws.png", mimeType: "image/png", buffer: await posterPng() });
  await page.getByRole("button", { name: "Add Item" }).click();
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText(upc);
  await expect(row).toContainText("$24.99");

  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { name: `Edit ${name}` })).toBeVisible();
  // The photo as the shop keeps it, beside the field that would replace it.
  await expect(page.getByRole("img", { name: `Photo of ${name}` })).toHaveJSProperty(
    "complete",
    true,
  );
  expect(
    await page
      .getByRole("img", { name: `Photo of ${name}` })
      .evaluate((image: HTMLImageElement) => image.naturalWidth),
  ).toBeGreaterThan(0);
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

test("an admin checks a store items CSV in a dry run, fixes the row it rejects, imports it, and an export reads back unchanged", async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Store Items" }).click();
  await page.getByRole("link", { name: "Import CSV" }).click();
  await expect(page.getByRole("heading", { name: "Import store items" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  const tag = String(Date.now()).slice(-6);
  const upc = upcOf(`9${tag}`);
  const good = [
    `IMP-${tag}-1,${upc},"Alien lobby card, ${tag}",$18.50,2,yes`,
    `IMP-${tag}-2,,Signed still ${tag},40,1,no`,
  ];
  // Spreadsheet rows: the header is row 1.
  const bad = `IMP-${tag}-3,,Press kit ${tag},free,1,yes`;
  const file = (rows: string[]) =>
    csvFile("store-items.csv", "SKU,Barcode,Name,Price,Stock,Taxable", rows);

  const report = await checkCsvFile(page, file([...good, bad]));
  await expect(report).toContainText("Nothing was written: 1 of 3 rows need fixing.");
  await expect(rejectedRowNumber(report, "Price must be a number of dollars")).toHaveText("4");
  await expect(page.getByRole("button", { name: "Import" })).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);

  await checkCsvFile(page, file(good));
  await expect(report).toContainText("Dry run: 2 would be added, 0 updated, 0 rejected.");
  await page.getByRole("button", { name: "Import" }).click();
  await expect(report).toContainText("Imported: 2 added, 0 updated.");

  await report.getByRole("link", { name: "Back to the store items" }).click();
  const search = page.getByRole("searchbox", { name: "Search store items" });
  await search.fill(`IMP-${tag}`);
  await search.press("Enter");
  const card = page.getByRole("row", { name: new RegExp(`Alien lobby card, ${tag}`) });
  await expect(card).toContainText(upc);
  await expect(card).toContainText("$18.50");
  await expect(page.getByRole("row", { name: new RegExp(`Signed still ${tag}`) })).toContainText(
    "$40.00",
  );
  // The import's stock is in the item's history, named for whoever imported it.
  await card.getByRole("link", { name: `Edit Alien lobby card, ${tag}` }).click();
  const imported = page.getByRole("row", { name: /CSV import/ });
  await expect(imported).toContainText("+2");
  await expect(imported).toContainText("Shop Owner");

  // The export, as downloaded, is a file the import takes back with nothing to add or change.
  await page.goto("/admin/store-items");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const exported = (await (await download).path())!;
  const rows = (parse(fs.readFileSync(exported, "utf8"), { bom: true }) as string[][]).length - 1;
  await page.getByRole("link", { name: "Import CSV" }).click();
  await checkCsvFile(page, exported);
  await expect(report).toContainText(`Dry run: 0 would be added, ${rows} updated, 0 rejected.`);
});
