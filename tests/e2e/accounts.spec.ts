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

test("sign-up says what comes next; every confirmation link returns to /login with the address filled; resend is limited", async ({
  page,
}) => {
  const email = uniqueEmail("confirm");
  const password = "Confirm-Me-Later-77";
  await register(page, email, password);
  await expect(
    page.getByText(
      "Registration successful! Check your email for a confirmation link before logging in.",
    ),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "What happens next" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  // Not the empty form again.
  await expect(page.getByRole("button", { name: "Create Account" })).toHaveCount(0);
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
  const signUpMail = await waitForMail(email, /Confirm your e-mail/);

  // Signing in before confirming: refused, a second confirmation mail, and a way to resend.
  const beforeSignIn = Date.now();
  await login(page, email, password);
  await expect(page.getByRole("alert")).toContainText(/verif/i);
  const signInMail = await waitForMail(email, /Confirm your e-mail/, { after: beforeSignIn });

  const beforeResend = Date.now();
  await page.getByRole("button", { name: "Resend confirmation e-mail" }).click();
  await expect(
    page.getByText(`We sent a new confirmation e-mail to ${email}.`, { exact: false }),
  ).toBeVisible();
  const resentMail = await waitForMail(email, /Confirm your e-mail/, { after: beforeResend });

  for (const mail of [signUpMail, signInMail, resentMail]) {
    const callback = new URL(firstLink(mail)).searchParams.get("callbackURL");
    expect(callback).toBe(`/login?verified=1&email=${encodeURIComponent(email)}`);
  }

  // The per-address limit: three confirmation e-mails an hour.
  await page.getByRole("button", { name: "Resend confirmation e-mail" }).click();
  await expect(page.getByText(/We sent a new confirmation e-mail/)).toBeVisible();
  await page.getByRole("button", { name: "Resend confirmation e-mail" }).click();
  await expect(page.getByText(/We sent a new confirmation e-mail/)).toBeVisible();
  await page.getByRole("button", { name: "Resend confirmation e-mail" }).click();
  await expect(page.getByRole("alert")).toContainText("Too many attempts");

  // The second mail's link (sent at sign-in) confirms and comes back to /login, address filled.
  await page.goto(firstLink(signInMail));
  await expect(page).toHaveURL(/\/login\?verified=1/);
  await expect(page.getByText("Your e-mail is confirmed. You can log in now.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("main").getByRole("button", { name: "Login", exact: true }).click();
  await expect(page.getByRole("button", { name: "Ada Lovelace" })).toBeVisible();
});
