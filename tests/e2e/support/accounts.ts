import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { whenInteractive } from "./fixtures.ts";
import { firstLink, uniqueEmail, waitForMail } from "./mailbox.ts";
import { makeStaff } from "./shop-database.ts";

const run = promisify(execFile);

export async function register(
  page: Page,
  email: string,
  password: string,
  first = "Ada",
  last = "Lovelace",
) {
  await page.goto("/register");
  await page.getByLabel("First name").fill(first);
  await page.getByLabel("Last name").fill(last);
  await page.getByLabel("Date of birth").fill("1990-12-10");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

export async function login(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("main").getByRole("button", { name: "Login", exact: true }).click();
}

/** A form post from the shop's own pages, through the page's cookies; redirects not followed. */
function post(page: Page, url: string, form: Record<string, string>) {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  return page.request.post(url, { form, headers: { Origin: origin }, maxRedirects: 0 });
}

/** The login form's post: the page's context is signed in after it. */
async function postLogin(page: Page, email: string, password: string) {
  const signedIn = await post(page, "/login", { intent: "login", email, password });
  expect(signedIn.status(), await signedIn.text()).toBe(302);
}

/**
 * A confirmed account: the registration form's post and the link in the confirmation e-mail,
 * through the page's own cookies but without drawing those pages (accounts.spec.ts tests them on
 * screen).
 */
async function registerConfirmed(
  page: Page,
  email: string,
  password: string,
  first: string,
  last: string,
) {
  const registered = await post(page, "/register", {
    firstName: first,
    lastName: last,
    dateOfBirth: "1990-12-10",
    email,
    password,
    confirmPassword: password,
  });
  expect(registered.status(), await registered.text()).toBe(200);
  const confirmed = await page.request.get(
    firstLink(await waitForMail(email, /Confirm your e-mail/)),
  );
  expect(confirmed.ok()).toBe(true);
}

/**
 * A confirmed customer, signed in, for tests about what comes after: registered and confirmed,
 * then the login form's post; then it opens the home page, signed in.
 */
export async function signedInCustomer(
  page: Page,
  email: string,
  password: string,
  first = "Ada",
  last = "Lovelace",
) {
  await registerConfirmed(page, email, password, first, last);
  await postLogin(page, email, password);
  await page.goto("/");
  await expect(page.getByRole("button", { name: `${first} ${last}` })).toBeVisible();
}

/**
 * Logs out from the user menu and waits until the shop shows the signed-out menu. The page may
 * have been reached through a redirect (a sign-in with Google) rather than `goto`, so this waits
 * for the menu to respond first.
 */
export async function logout(page: Page, displayName: string) {
  await whenInteractive(page);
  await page.getByRole("button", { name: displayName }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
}

/** Runs the operator's command against the test shop's data directory. */
export async function createAdmin(email: string, password: string) {
  const root = path.resolve(import.meta.dirname, "../../..");
  await run(
    process.execPath,
    ["scripts/admin-create.ts", "--email", email, "--password", password, "--name", "Shop Owner"],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: path.join(root, ".tmp/e2e-data"), LOG_LEVEL: "warn" },
    },
  );
}

/** Each test its own client address, so sign-in rate limits never spill between tests. */
export function clientAddress(testId: string) {
  let hash = 0;
  for (const char of testId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `198.51.${(hash >>> 8) % 250}.${(hash % 250) + 1}`;
}

const ADMIN_PASSWORD = "Back-Office-Keeper-7";

/**
 * A new admin signs in and opens the dashboard. The account is registered as anyone's would be,
 * then given the admin role in the database, as the operator's `admin:create` promotes an existing
 * account: starting that command for every test cost more CPU than the test's pages. The command
 * itself is tested in scripts/admin-create.test.ts and, on screen, in account-area.spec.ts; the
 * login page, and where it sends an admin, there too.
 */
export async function signInAsAdmin(page: Page, label = "owner") {
  await signInAsStaff(page, "admin", label);
}

/** The same for a clerk (decision 023): the desk's part of the back office. */
export async function signInAsClerk(page: Page, label = "clerk") {
  await signInAsStaff(page, "clerk", label);
}

async function signInAsStaff(page: Page, role: "admin" | "clerk", label: string) {
  const email = uniqueEmail(label);
  await registerConfirmed(
    page,
    email,
    ADMIN_PASSWORD,
    "Shop",
    role === "admin" ? "Owner" : "Clerk",
  );
  await makeStaff(email, role);
  await postLogin(page, email, ADMIN_PASSWORD);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
}

/** A second person at another browser: an admin, signed in, on the dashboard. */
export async function adminInOtherBrowser(browser: Browser, testId: string, label: string) {
  const context = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${testId}-admin`) },
  });
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signInAsAdmin(page, label);
  return page;
}
