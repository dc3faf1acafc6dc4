import { expect, type Page } from "@playwright/test";
import sharp from "sharp";

/**
 * A signed-in admin lists a regular DVD at $9.99 through the back office's form; returns its
 * serial number as the catalogue table shows it.
 */
export async function listRegularTitle(
  page: Page,
  { title, productId, qty }: { title: string; productId: string; qty: number },
): Promise<string> {
  await page.goto("/admin/items/new");
  await page.getByLabel("ProductID").fill(productId);
  await page.getByLabel("QtyToList").fill(String(qty));
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Release Year").fill("2001");
  await page.getByLabel("Disc").selectOption("DVD");
  await page.getByLabel("CurrentPrice").fill("9.99");
  await page.getByRole("button", { name: "Add Title" }).click();
  await expect(page).toHaveURL(/\/admin\/items\?q=\d+/);
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row).toBeVisible();
  return (await row.getByRole("cell").first().textContent())!.trim();
}

/**
 * Opens the details dialog of the first Staff Pick still in stock, as a shopper passes over one
 * that says "Out of stock" (other tests buy from the same demo catalogue); returns the dialog.
 */
export async function openStaffPickInStock(page: Page) {
  const picks = page.getByRole("region", { name: "Staff Picks posters" }).getByRole("button");
  const count = await picks.count();
  for (let index = 0; index < count; index++) {
    await picks.nth(index).click();
    const dialog = page.getByRole("dialog");
    const button = dialog.getByRole("button", { name: /^(Add to Cart|Out of stock)$/ });
    await expect(button).toBeVisible();
    if ((await button.textContent())?.trim() === "Add to Cart") return dialog;
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
  throw new Error("Every Staff Pick is out of stock");
}

/** A real poster image, as an admin would upload one (400 × 600 PNG). */
export function posterPng() {
  return sharp({
    create: { width: 400, height: 600, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .png()
    .toBuffer();
}

/**
 * A signed-in admin adds an entry to Coming Soon, five days ahead (or `daysAhead`), and sees it
 * in the list.
 */
export async function addComingSoonEntry(page: Page, title: string, daysAhead = 5) {
  await page.goto("/admin/coming-soon");
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page
    .getByLabel("Release date")
    .fill(new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10));
  await page
    .getByLabel("Poster")
    .setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: await posterPng() });
  await page.getByRole("button", { name: "Add Coming Soon Title" }).click();
  await expect(page.getByRole("list", { name: "Coming Soon entries" })).toContainText(title);
}
