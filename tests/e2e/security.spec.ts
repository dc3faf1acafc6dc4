import { expect, test } from "./support/fixtures.ts";
import { openStaffPickInStock } from "./support/catalogue.ts";

test("pages run under a Content-Security-Policy without violating it", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto("/");
  expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  const dialog = await openStaffPickInStock(page);
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await page.getByRole("button", { name: "Cart (1)" }).click();
  await expect(page.getByRole("dialog", { name: /Your Cart/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.getByRole("combobox", { name: "Search films" }).fill("alien");
  await expect(page.getByRole("listbox")).toBeVisible();
  await page.goto("/movies/1");
  await page.goto("/login");
  expect(violations).toEqual([]);
});

test("pages cannot be framed by other sites", async ({ request }) => {
  const response = await request.get("/movies");
  expect(response.headers()["x-frame-options"]).toBe("DENY");
  expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
});
