import { expect, test } from "./support/fixtures.ts";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { clientAddress, logout, createAdmin, login, signedInCustomer } from "./support/accounts.ts";
import { checkoutWithTestCard } from "./support/checkout.ts";
import { uniqueEmail } from "./support/mailbox.ts";

test.beforeEach(async ({ context }, testInfo) => {
  // Whole journeys through e-mail and sign-in: give them room on a busy machine.
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

test("guards: visitors are sent to log in and come back; customers never see the back office", async ({
  page,
}) => {
  for (const path of ["/account", "/orders", "/admin"]) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=${encodeURIComponent(path)}`));
  }

  const email = uniqueEmail("guard");
  await signedInCustomer(page, email, "Guarded-Customer-42", "Gus", "Guard");
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/orders");
  await expect(page.getByRole("heading", { name: "Your Orders" })).toBeVisible();
  await expect(page.getByText("You have no orders yet.")).toBeVisible();

  // Sign out, then the guard sends to /login and back to /orders afterwards.
  await logout(page, "Gus Guard");
  await page.goto("/orders");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("Guarded-Customer-42");
  await page.getByRole("main").getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(/\/orders$/);
});

test("an admin created from the command line lands in the back office", async ({ page }) => {
  const email = uniqueEmail("owner");
  await createAdmin(email, "Owner-Of-The-Shop-1");
  await login(page, email, "Owner-Of-The-Shop-1");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
});

test("My Account: edit personal information, change the password, sign in with the new one", async ({
  page,
}) => {
  const email = uniqueEmail("profile");
  await signedInCustomer(page, email, "Profile-Owner-2024", "Paula", "Profile");
  await page.goto("/account");
  for (const name of [
    "Update Personal Information",
    "Change Password",
    "Manage Payment Methods",
    "View Order History",
  ]) {
    await expect(page.getByRole("link", { name: new RegExp(name) })).toBeVisible();
  }

  await page.getByRole("link", { name: /Update Personal Information/ }).click();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Email")).toHaveAttribute("readonly", "");
  // Given at registration, the date of birth decides adult purchases: shown, fixed, explained.
  const birthDate = page.getByLabel("Date of birth");
  await expect(birthDate).toHaveAttribute("type", "date");
  await expect(birthDate).toHaveValue("1990-12-10");
  await expect(birthDate).toHaveAttribute("readonly", "");
  await expect(birthDate).toHaveAccessibleDescription(/To correct it, contact the shop\./);
  await page.getByLabel("First name").fill("Paulina");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/account\?saved=personalInfo$/);
  await expect(page.getByRole("button", { name: "Paulina Profile" })).toBeVisible();
  await page.getByRole("link", { name: /Update Personal Information/ }).click();
  await expect(page.getByLabel("Date of birth")).toHaveValue("1990-12-10");
  await page.getByRole("link", { name: "Back" }).click();

  await page.getByRole("link", { name: /Manage Payment Methods/ }).click();
  await expect(page.getByText(/never sees or stores it/)).toBeVisible();
  await page.getByRole("link", { name: "Back" }).click();

  await page.getByRole("link", { name: /Change Password/ }).click();
  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("Profile-Owner-2025");
  await page.getByLabel("Confirm new password").fill("Profile-Owner-2025");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Your current password is not right.")).toBeVisible();
  await page.getByLabel("Current password").fill("Profile-Owner-2024");
  await page.getByLabel("New password", { exact: true }).fill("Profile-Owner-2025");
  await page.getByLabel("Confirm new password").fill("Profile-Owner-2025");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page).toHaveURL(/saved=password/);

  await logout(page, "Paulina Profile");
  await login(page, email, "Profile-Owner-2024");
  await expect(page.getByRole("alert")).toContainText(/invalid/i);
  await login(page, email, "Profile-Owner-2025");
  await expect(page.getByRole("button", { name: "Paulina Profile" })).toBeVisible();
});

test("two-factor: turn it on, then sign-in asks for the code", async ({ page }) => {
  const email = uniqueEmail("totp");
  await signedInCustomer(page, email, "Second-Factor-Fan-9", "Tom", "Totp");
  await page.goto("/account?section=security");
  await page.getByLabel("Password").fill("Second-Factor-Fan-9");
  await page.getByRole("button", { name: "Set Up Two-Factor" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const uri = (await page.getByTestId("totp-uri").textContent())!;
  // The app sees the secret base32-encoded in the URI; the server keeps the raw text.
  const secret = new TextDecoder().decode(base32.decode(new URL(uri).searchParams.get("secret")!));
  const backupCodes = await page
    .getByRole("list", { name: "Backup codes" })
    .getByRole("listitem")
    .allTextContents();
  expect(backupCodes.length).toBeGreaterThan(5);

  await page.getByLabel("Code from your app").fill("000000");
  await page.getByRole("button", { name: "Turn On" }).click();
  await expect(page.getByText("That code is not right. Try the newest one.")).toBeVisible();
  await page.getByLabel("Code from your app").fill(await createOTP(secret).totp());
  await page.getByRole("button", { name: "Turn On" }).click();
  await expect(page).toHaveURL(/saved=security/);

  await logout(page, "Tom Totp");

  await login(page, email, "Second-Factor-Fan-9");
  await expect(page).toHaveURL(/\/login\/two-factor/);
  // The code that turned it on cannot be used again; the app's next code is already accepted.
  const step = Math.floor(Date.now() / 30_000);
  await page.getByLabel("Code").fill(await createOTP(secret).hotp(step + 1));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("button", { name: "Tom Totp" })).toBeVisible();

  // A backup code works once.
  await logout(page, "Tom Totp");
  await login(page, email, "Second-Factor-Fan-9");
  await page.getByRole("link", { name: "Use a backup code instead" }).click();
  await page.getByLabel("Backup code").fill(backupCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("button", { name: "Tom Totp" })).toBeVisible();
});

test("My Account: View Order History opens the orders inside the account, 'Loading orders…' first", async ({
  page,
}) => {
  const email = uniqueEmail("history");
  await signedInCustomer(page, email, "Order-History-Owner-5", "Hilda", "History");
  await page.goto("/movies");
  await page
    .getByRole("button", { name: /^Add to Cart:/ })
    .first()
    .click();
  const orderNumber = await checkoutWithTestCard(page, email);

  await page.goto("/account");
  // Hold the orders' data request until the loading text has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/account\.data\?.*section=orders/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("link", { name: /View Order History/ }).click();
  await expect(page.getByText("Loading orders…")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back" })).toBeVisible();
  release();

  await expect(page).toHaveURL(/\/account\?section=orders$/);
  await expect(page.getByRole("heading", { name: "Your Orders" })).toBeVisible();
  await expect(page.getByText("Loading orders…")).toHaveCount(0);
  await expect(page.getByText(`Order #${orderNumber}`, { exact: true })).toBeVisible();
  await expect(page.getByText(/^Placed /)).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Unit Price" })).toBeVisible();

  await page.getByRole("link", { name: "Back" }).click();
  await expect(page.getByRole("link", { name: /View Order History/ })).toBeVisible();

  // /orders shows the same card; reached from another page through the menu, the old page says
  // 'Loading orders…' while they load.
  let releaseOrders!: () => void;
  const ordersHeld = new Promise<void>((resolve) => (releaseOrders = resolve));
  await page.route(/\/orders\.data/, async (route) => {
    await ordersHeld;
    await route.continue();
  });
  await page.goto("/movies");
  await page.getByRole("button", { name: "Hilda History" }).click();
  await page.getByRole("menuitem", { name: "My Orders" }).click();
  await expect(page.getByText("Loading orders…")).toBeVisible();
  releaseOrders();
  await expect(page.getByRole("heading", { name: "Your Orders" })).toBeVisible();
  await expect(page.getByText(`Order #${orderNumber}`, { exact: true })).toBeVisible();
  await expect(page.getByText("Loading orders…")).toHaveCount(0);
});
