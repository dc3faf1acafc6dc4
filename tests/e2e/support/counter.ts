import fs from "node:fs";
import type { Page } from "@playwright/test";
import { clientAddress, signInAsClerk } from "./accounts.ts";
import { expect, test } from "./fixtures.ts";
import { holdTheTill } from "./shop-database.ts";

/**
 * The shop has one till: a spec file's tests at it take turns, in order, and with the counter's
 * other spec files, each test holding the till (holdTheTill) from its start to its end.
 */
export function takeTurnsAtTheTill() {
  test.describe.configure({ mode: "default" });
  let letGo: (() => Promise<void>) | undefined;
  test.beforeEach(async ({ context, page }, testInfo) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    test.slow();
    await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
    letGo = await holdTheTill();
  });
  test.afterEach(async () => {
    await letGo?.();
  });
}

/** A clerk at the counter with the till open and no sale left over from before. */
export async function atTheCounter(page: Page) {
  await signInAsClerk(page);
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Counter" })
    .click();
  await expect(page.getByRole("heading", { name: "Counter", level: 1 })).toBeVisible();
  if (await page.getByRole("button", { name: "Open the till" }).isVisible()) {
    await page.getByLabel("Float ($)").fill("100.00");
    await page.getByRole("button", { name: "Open the till" }).click();
  }
  const scan = page.getByLabel("Barcode, serial, SKU or name");
  await expect(scan).toBeVisible();
  if (await page.getByRole("button", { name: "Void sale" }).isVisible()) {
    await page.getByRole("button", { name: "Void sale" }).click();
    await expect(page.getByText("Nothing scanned yet.")).toBeVisible();
  }
  return scan;
}

/**
 * Whatever the till took before is counted (at what it expects) and closed, so a test's day
 * starts afresh: a sale left open is voided first, as closing needs. The page is left on the
 * counter with the till closed. Call it while holding the till (`takeTurnsAtTheTill`).
 */
export async function closeTheTill(page: Page) {
  await page.goto("/counter");
  const close = page.getByRole("link", { name: "Close the till" });
  if (!(await close.isVisible())) return;
  if (await page.getByRole("button", { name: "Void sale" }).isVisible()) {
    await page.getByRole("button", { name: "Void sale" }).click();
    await expect(page.getByText("Nothing scanned yet.")).toBeVisible();
  }
  await close.click();
  const expected = await page
    .getByText(/^Count the drawer, float included\. Expected: \$/)
    .textContent();
  await page
    .getByLabel("Counted cash ($)")
    .fill(expected!.match(/\$([\d,]+\.\d\d)/)![1]!.replaceAll(",", ""));
  await page.getByRole("button", { name: "Close the till" }).click();
  await expect(page.getByRole("heading", { name: /^Z report, till \d+$/ })).toBeVisible();
  await page.goto("/counter");
}

/** What a scanner does: the code's digits typed into the focused field, then Enter. */
export async function scanCode(page: Page, code: string) {
  const scan = page.getByLabel("Barcode, serial, SKU or name");
  await expect(scan).toBeFocused();
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
}

/** Printed, the page is one page 80 mm wide (226.8 points): the receipt printer's roll. */
export async function expectOnTheReceiptRoll(page: Page, file: string) {
  await page.emulateMedia({ media: "print" });
  const pdf = (await page.pdf({ preferCSSPageSize: true })).toString("latin1");
  fs.writeFileSync(test.info().outputPath(file), pdf, "latin1");
  const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf);
  expect(Number(box?.[1])).toBeCloseTo(226.8, 0);
  expect(pdf.match(/\/Type\s*\/Page\b/g)).toHaveLength(1);
  await page.emulateMedia({ media: "screen" });
}
