import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { seriousViolations } from "./support/axe.ts";

test("the footer shows how to reach the shop and links to About and Returns", async ({ page }) => {
  await page.goto("/contact");
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByText("1201 W Division St, Arlington, TX 76012")).toBeVisible();
  await expect(footer.getByRole("link", { name: "(817) 555-0142" })).toHaveAttribute(
    "href",
    "tel:8175550142",
  );
  await expect(footer.getByRole("link", { name: "hello@reelandrepair.example" })).toHaveAttribute(
    "href",
    "mailto:hello@reelandrepair.example",
  );
  await expect(footer.getByText("Mon–Sat 10:00–18:00, closed Sunday")).toBeVisible();
  const map = footer.getByRole("link", { name: /^Map of 1201 W Division St/ });
  await expect(map).toHaveAttribute("href", /^https:\/\/www\.google\.com\/maps\//);
  await expect(map).toHaveAttribute("target", "_blank");
  // Only the profile the shop configured (Instagram), in a new tab; none for the others.
  const instagram = footer.getByRole("link", { name: /Instagram/ });
  await expect(instagram).toHaveAttribute(
    "href",
    "https://www.instagram.com/reelandrepair.example/",
  );
  await expect(instagram).toHaveAttribute("target", "_blank");
  await expect(footer.getByRole("link", { name: /Facebook|LinkedIn/ })).toHaveCount(0);
  await expect(footer.locator('a[href="https://www.instagram.com/"]')).toHaveCount(0);

  await footer.getByRole("link", { name: "About us" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1, name: "About Reel & Repair" })).toBeVisible();

  await page
    .getByRole("contentinfo")
    .getByRole("link", { name: "Free returns within 30 days" })
    .click();
  await expect(page).toHaveURL(/\/returns$/);
  await expect(page.getByRole("heading", { level: 1, name: "Returns" })).toBeVisible();
});

/** Scrolls to the footer and waits until it has faded in, so axe sees it as people do. */
async function showFooter(page: Page) {
  const footer = page.getByRole("contentinfo");
  await footer.scrollIntoViewIfNeeded();
  await expect(footer).toHaveAttribute("data-visible", "true");
  await expect
    .poll(() => footer.evaluate((element) => getComputedStyle(element).opacity))
    .toBe("1");
}

test("/about gives the phone, e-mail, hours and map; both pages pass axe", async ({ page }) => {
  await page.goto("/about");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "Visit or call us" })).toBeVisible();
  await expect(main.getByRole("link", { name: "(817) 555-0142" })).toHaveAttribute(
    "href",
    "tel:8175550142",
  );
  await expect(main.getByRole("link", { name: "hello@reelandrepair.example" })).toHaveAttribute(
    "href",
    "mailto:hello@reelandrepair.example",
  );
  await expect(main.getByText("Opening hours: Mon–Sat 10:00–18:00, closed Sunday")).toBeVisible();
  await expect(main.getByRole("link", { name: /^Map of 1201 W Division St/ })).toBeVisible();
  await showFooter(page);
  expect(await seriousViolations(page)).toEqual([]);

  await main.getByRole("link", { name: "returns policy" }).click();
  await expect(page).toHaveURL(/\/returns$/);
  await expect(page.getByRole("heading", { name: "How to return" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Contact us" })).toHaveAttribute(
    "href",
    "/contact",
  );
  await showFooter(page);
  expect(await seriousViolations(page)).toEqual([]);
});

test("the sitemap lists the returns page", async ({ request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  expect(sitemap).toMatch(/<loc>[^<]*\/returns<\/loc>/);
});
