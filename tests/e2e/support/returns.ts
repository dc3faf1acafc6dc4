import { expect, type Page } from "@playwright/test";
import { signedInCustomer } from "./accounts.ts";
import { listRegularTitle } from "./catalogue.ts";
import { checkoutWithTestCard } from "./checkout.ts";
import { uniqueEmail } from "./mailbox.ts";

/**
 * A title of its own (three copies) that a new customer buys, with `shippingEmail` on the order
 * if given, and the admin ships. `page` is the customer's, signed in; `admin` an admin's.
 */
export async function aShippedOrder(
  page: Page,
  admin: Page,
  { label, shippingEmail }: { label: string; shippingEmail?: string },
) {
  const title = `Shipped ${label} ${Date.now().toString(36)}`;
  const serial = await listRegularTitle(admin, { title, productId: `SHIP-${label}`, qty: 3 });
  const email = uniqueEmail(`shipped-${label}`);
  await signedInCustomer(page, email, "Shipped-Order-Buyer-42", "Rory", "Returner");
  await page.goto(`/movies/${serial}`);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  const orderNumber = await checkoutWithTestCard(page, shippingEmail ?? email);
  await admin.goto(`/admin/orders/${orderNumber}`);
  await admin.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(admin.getByText(`Order #${orderNumber} is marked shipped.`)).toBeVisible();
  return { email, orderNumber, title, serial };
}
