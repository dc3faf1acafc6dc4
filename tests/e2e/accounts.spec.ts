import { expect, test } from "./support/fixtures.ts";
import { clientAddress, login, logout, register, signedInCustomer } from "./support/accounts.ts";
import { firstLink, uniqueEmail, waitForMail } from "./support/mailbox.ts";

test.beforeEach(async ({ context }, testInfo) => {
  // Whole journeys through e-mail and sign-in: give them room on a busy machine.
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

test("register → confirm by e-mail → log in → log out → reset → log in with the new password", async ({
  page,
}) => {
  const email = uniqueEmail("ada");
  await register(page, email, "Analytical-Engine-1843");
  await expect(
    page.getByText(
      "Registration successful! Check your email for a confirmation link before logging in.",
    ),
  ).toBeVisible();

  // Not confirmed yet: logging in is refused.
  await login(page, email, "Analytical-Engine-1843");
  await expect(page.getByRole("alert")).toContainText(/verif/i);

  const confirmation = await waitForMail(email, /Confirm your e-mail/);
  await page.goto(firstLink(confirmation));
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("Your e-mail is confirmed. You can log in now.")).toBeVisible();

  await login(page, email, "Analytical-Engine-1843");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Ada Lovelace" })).toBeVisible();

  // Logging out ends the session on the server and empties the cart.
  await page.goto("/movies");
  await page
    .getByRole("button", { name: /^Add to Cart:/ })
    .first()
    .click();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  const sessionCookie = (await page.context().cookies()).find(
    (c) => c.name === "shop.session_token",
  )!;
  await logout(page, "Ada Lovelace");
  await expect(page.getByRole("button", { name: "Cart (0)" })).toBeVisible();
  const reused = await page.request.get("/api/auth/get-session", {
    headers: { Cookie: `shop.session_token=${sessionCookie.value}` },
  });
  expect(await reused.json()).toBeNull();

  const beforeReset = Date.now();
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset Password" })).toBeVisible();
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Please enter your email to reset your password.")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("✅ Check your inbox for a reset link.")).toBeVisible();

  const reset = await waitForMail(email, /Reset your/, { after: beforeReset });
  const resetLink = firstLink(reset);
  await page.goto(resetLink);
  await expect(page.getByRole("heading", { name: "Update Password" })).toBeVisible();
  await page.getByLabel("New password").fill("short");
  await page.getByLabel("Confirm password").fill("different");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
  await page.getByLabel("New password").fill("password123");
  await page.getByLabel("Confirm password").fill("password123");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText(/most common/)).toBeVisible();
  await page.getByLabel("New password").fill("Difference-Engine-1822");
  await page.getByLabel("Confirm password").fill("Difference-Engine-1822");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("Password updated successfully.")).toBeVisible();

  // The link works once.
  await page.goto(resetLink);
  await expect(page.getByText(/invalid or has expired/)).toBeVisible();

  await login(page, email, "Analytical-Engine-1843");
  await expect(page.getByRole("alert")).toContainText(/invalid/i);
  await login(page, email, "Difference-Engine-1822");
  await expect(page.getByRole("button", { name: "Ada Lovelace" })).toBeVisible();
});

test("registration explains what is wrong, next to the field, and keeps what was typed", async ({
  page,
}) => {
  await page.goto("/register");
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Email").fill("grace@example.test");
  await page.getByLabel("Password", { exact: true }).fill("Compiler-1952-A0");
  await page.getByLabel("Confirm password").fill("Compiler-1952-B0");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Please enter your date of birth.")).toBeVisible();
  await expect(page.getByText("Passwords do not match.")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue("Grace");
  await expect(page.getByLabel("Email")).toHaveValue("grace@example.test");
});

test("an address that is already registered is told to log in", async ({ page }) => {
  const email = uniqueEmail("twice");
  await register(page, email, "Twice-Registered-77");
  await expect(page.getByText(/Registration successful!/)).toBeVisible();
  await register(page, email, "Twice-Registered-77");
  await expect(page.getByText("This email is already registered. Please log in.")).toBeVisible();
});

test("resetting the password signs the account out everywhere", async ({
  page,
  browser,
}, testInfo) => {
  const email = uniqueEmail("everywhere");
  await signedInCustomer(page, email, "Signed-In-Twice-31", "Eve", "Where");
  const other = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${testInfo.testId}-other`) },
  });
  const otherPage = await other.newPage();
  await login(otherPage, email, "Signed-In-Twice-31");
  await expect(otherPage.getByRole("button", { name: "Eve Where" })).toBeVisible();

  const before = Date.now();
  await page.goto("/reset-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText(`Email sent to ${email}. Please check your inbox.`)).toBeVisible();
  await page.goto(firstLink(await waitForMail(email, /Reset your/, { after: before })));
  await page.getByLabel("New password").fill("Signed-In-Once-32");
  await page.getByLabel("Confirm password").fill("Signed-In-Once-32");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Password updated successfully.")).toBeVisible();

  await otherPage.reload();
  await expect(otherPage.getByRole("button", { name: "Login" })).toBeVisible();
  await other.close();
});

test("asking for a reset says the same for an address without an account", async ({ page }) => {
  await page.goto("/reset-password");
  await page.getByLabel("Email").fill("not-a-customer@example.test");
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(
    page.getByText("Email sent to not-a-customer@example.test. Please check your inbox."),
  ).toBeVisible();
  await page.getByLabel("Email").fill("not an address");
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
});
