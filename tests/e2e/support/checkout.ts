import { expect, type Page } from "@playwright/test";

/** Fills the cart page's shipping form (a Texas address unless overridden). */
export async function fillShipping(
  page: Page,
  email: string,
  overrides: Record<string, string> = {},
) {
  const values = {
    "Full name": "Ada Lovelace",
    "Street address": "1201 W Division St",
    City: "Arlington",
    "ZIP code": "76012",
    Phone: "(817) 555-0142",
    Email: email,
    ...overrides,
  };
  for (const [label, value] of Object.entries(values)) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByLabel("State", { exact: true }).selectOption("TX");
}

/**
 * From a filled cart: shipping form, review, the test provider's page with the paying test card,
 * the success page. Returns the order number shown there.
 */
export async function checkoutWithTestCard(page: Page, email: string): Promise<number> {
  await page.goto("/cart");
  await fillShipping(page, email);
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/40");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();
  const text = await page.getByText(/Your order #\d+/).textContent();
  return Number(text!.match(/#(\d+)/)![1]);
}
