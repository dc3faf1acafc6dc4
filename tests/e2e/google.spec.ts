import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, logout, login, signedInCustomer } from "./support/accounts.ts";
import { uniqueEmail } from "./support/mailbox.ts";

test.beforeEach(async ({ context }, testInfo) => {
  // Whole journeys through e-mail and sign-in: give them room on a busy machine.
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** Goes through the identity provider's own pages, as a person would. */
async function signInWithGoogle(page: Page, login: string) {
  // Forget the provider's own session (shop and provider share the host), so it asks who we are.
  await page.context().clearCookies({ name: /^_(session|interaction)/ });
  await page.goto("/login");
  await page.getByRole("button", { name: "Login with Google" }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("Google sign-in creates an account and signs in", async ({ page, baseURL }) => {
  const email = uniqueEmail("newbie");
  await signInWithGoogle(page, email);
  // Back on the shop's home page (not the sign-in server's).
  await expect(page).toHaveURL(`${baseURL}/`);
  const local = email.split("@")[0]!;
  await expect(page.getByRole("button", { name: `Google ${local}` })).toBeVisible();
  await page.goto("/account?section=personalInfo");
  await expect(page.getByLabel("Email")).toHaveValue(email);
});

test("Google links to an existing account only when it says the address is verified", async ({
  page,
}) => {
  const email = uniqueEmail("linked");
  await signedInCustomer(page, email, "Linked-Account-55", "Lina", "Linked");
  await logout(page, "Lina Linked");

  await signInWithGoogle(page, `unverified:${email}`);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("alert")).toContainText(/not linked/);

  await signInWithGoogle(page, email);
  await expect(page.getByRole("button", { name: "Lina Linked" })).toBeVisible();

  // The password still works too.
  await logout(page, "Lina Linked");
  await login(page, email, "Linked-Account-55");
  await expect(page.getByRole("button", { name: "Lina Linked" })).toBeVisible();
});
