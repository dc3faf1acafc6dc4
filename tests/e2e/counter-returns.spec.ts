import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { allViolations } from "./support/axe.ts";
import {
  atTheCounter,
  expectOnTheReceiptRoll,
  scanCode,
  takeTurnsAtTheTill,
} from "./support/counter.ts";
import { shelfBarcode, shelveProduct } from "./support/shop-database.ts";

// Returns and exchanges at the counter (decision 023, point 7). The shop has one till: these
// tests take turns at it, in order, and with counter.spec.ts (holdTheTill).
takeTurnsAtTheTill();

/** Pays the open sale in cash; returns the sale's number. */
async function payInCash(page: Page, total: string, tendered: string): Promise<string> {
  const payment = page.getByRole("region", { name: "Payment" });
  await payment.getByLabel("Cash tendered ($)").fill(tendered);
  await payment.getByRole("button", { name: `Pay ${total} in cash` }).click();
  const paid = page.getByText(/Sale S-\d+ paid:/);
  await expect(paid).toBeVisible();
  return (await paid.textContent())!.match(/S-\d+/)![0];
}

/** Axe finds nothing on the page as it is, on a tablet and on a phone. */
async function judgedAtBothWidths(page: Page) {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    expect(await allViolations(page)).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a cash sale returned by its receipt's number: cash back from the till, the copy back on the shelf", async ({
  page,
}) => {
  const tag = String(Date.now()).slice(-6);
  const film = `Returned Film ${tag}`;
  const code = shelfBarcode();
  await shelveProduct({ type: "regular", name: film, priceCents: 2000, stock: 2, barcode: code });
  await atTheCounter(page);
  const lines = page.getByRole("list", { name: "Lines of this sale" });
  await scanCode(page, code);
  await expect(lines.getByRole("listitem")).toHaveCount(1);
  await scanCode(page, code);
  await expect(lines).toContainText("2 × $20.00");
  // 40.00 + 8.25 % tax (3.30) = 43.30.
  const sale = await payInCash(page, "$43.30", "50");
  await scanCode(page, code);
  await expect(page.getByText(`“${film}” is sold out.`)).toBeVisible();

  // The receipt's number, scanned or typed, opens the sale.
  await page.getByLabel("Barcode, serial, SKU or name").fill("");
  await scanCode(page, sale);
  await expect(page.getByRole("heading", { name: `Receipt ${sale}` })).toBeVisible();
  await page.getByRole("link", { name: "Return items" }).click();
  await expect(page.getByRole("heading", { name: `Return from sale ${sale}` })).toBeVisible();
  await expect(page.getByText("in cash from the till.")).toBeVisible();

  // Nothing chosen to come back: told so, and nothing changes.
  await page.getByLabel("Why it comes back").selectOption("Changed their mind");
  await page.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByText("Choose how many of a line come back.")).toBeVisible();
  await judgedAtBothWidths(page);

  await page.getByLabel(`How many (of 2) of “${film}”`).fill("1");
  await page.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByRole("heading", { name: /^Return CR-\d+$/ })).toBeVisible();
  const slip = page.getByRole("article");
  // One copy and its half of the tax.
  await expect(slip).toContainText(`Receipt ${sale}`);
  await expect(slip).toContainText("Returned, with tax$21.65");
  await expect(slip).toContainText("Cash refund$21.65");
  await expect(slip).toContainText("Reason: Changed their mind");
  await judgedAtBothWidths(page);
  await expectOnTheReceiptRoll(page, "return-slip.pdf");

  // The receipt lists the return, and one copy can still come back.
  await page.goto(`/counter/sales/${sale}`);
  await expect(page.getByRole("link", { name: /^Return CR-\d+$/ })).toBeVisible();
  await page.getByRole("link", { name: "Return items" }).click();
  await expect(page.getByText("Sold 2, 1 returned already")).toBeVisible();
  await expect(page.getByLabel(`How many (of 1) of “${film}”`)).toBeVisible();

  // The copy is back on the one stock: the counter can sell it again.
  await page.goto("/counter");
  await scanCode(page, code);
  await expect(lines).toContainText(film);
  await page.getByRole("button", { name: "Void sale" }).click();
  await expect(page.getByText("Nothing scanned yet.")).toBeVisible();
});

test("an exchange: a title returned pays for another in one step, the difference in cash", async ({
  page,
}) => {
  const tag = String(Date.now()).slice(-6);
  const old = `Exchanged Film ${tag}`;
  const next = `Wanted Film ${tag}`;
  const oldCode = shelfBarcode();
  const nextCode = shelfBarcode();
  await shelveProduct({ type: "regular", name: old, priceCents: 1000, stock: 1, barcode: oldCode });
  await shelveProduct({
    type: "regular",
    name: next,
    priceCents: 1500,
    stock: 1,
    barcode: nextCode,
  });
  await atTheCounter(page);
  await scanCode(page, oldCode);
  const sale = await payInCash(page, "$10.83", "10.83");

  // The customer comes back for another title: it is rung up, then the old receipt opened.
  await scanCode(page, nextCode);
  await expect(page.getByRole("list", { name: "Lines of this sale" })).toContainText(next);
  const newSale = (await page.getByRole("heading", { name: /^Sale S-\d+$/ }).textContent())!.match(
    /S-\d+/,
  )![0];
  await scanCode(page, sale);
  await page.getByRole("link", { name: "Return items" }).click();
  await page.getByLabel(`How many (of 1) of “${old}”`).fill("1");
  await page.getByLabel("Why it comes back").selectOption("Exchange for another title");
  const exchange = page.getByRole("button", { name: `Exchange for sale ${newSale}` });
  // $16.24 for the new title less $10.83 of credit: the cash must cover $5.41.
  await exchange.click();
  await expect(page.getByText("The cash handed over must cover the total.")).toBeVisible();
  await judgedAtBothWidths(page);
  await page.getByLabel("Cash for the difference ($)").fill("6");
  await exchange.click();

  await expect(page.getByRole("heading", { name: /^Return CR-\d+$/ })).toBeVisible();
  const slip = page.getByRole("article");
  await expect(slip).toContainText("Credit to sale$10.83");
  await expect(slip).toContainText(`Exchanged: the credit paid sale ${newSale}.`);

  // The new sale is paid: the credit and the cash, with change.
  await page.goto(`/counter/sales/${newSale}`);
  const receipt = page.getByRole("article");
  await expect(receipt).toContainText("Exchange credit$10.83");
  await expect(receipt).toContainText("Cash tendered$6.00");
  await expect(receipt).toContainText("Change$0.59");

  // The old title is back on the shelf, the new one gone, and no sale is left open.
  await page.goto("/counter");
  await expect(page.getByText("Nothing scanned yet.")).toBeVisible();
  await scanCode(page, nextCode);
  await expect(page.getByText(`“${next}” is sold out.`)).toBeVisible();
  await page.getByLabel("Barcode, serial, SKU or name").fill("");
  await scanCode(page, oldCode);
  await expect(page.getByRole("list", { name: "Lines of this sale" })).toContainText(old);
  await page.getByRole("button", { name: "Void sale" }).click();
  await expect(page.getByText("Nothing scanned yet.")).toBeVisible();
});
