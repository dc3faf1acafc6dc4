import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer } from "./support/accounts.ts";
import { uniqueEmail } from "./support/mailbox.ts";

const PAGES = [
  "/",
  "/movies",
  "/movies?disc=Blu-ray&sort=az&page=2",
  "/movies/1",
  "/movies/99999999",
  "/new-arrivals",
  "/staff-picks",
  "/search?query=the",
  "/about",
  "/other-services",
  "/age-check",
  "/cart",
  "/login",
  "/register",
  "/reset-password",
  "/update-password?token=example",
  "/no-such-page",
];

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
}

for (const path of PAGES) {
  test(`no serious accessibility violations on ${path}`, async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(path);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("no serious accessibility violations on the adult catalogue and its title page", async ({
  page,
}) => {
  // Dialogs and menus fade in; without this, axe could sample their colours half-way through.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/age-check?returnTo=/adult-movies");
  await page.getByRole("button", { name: "I am 18 or older" }).click();
  await expect(page.getByRole("heading", { name: "Adult Titles" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto("/adult-movies/1");
  expect(await seriousViolations(page)).toEqual([]);
});

test("no serious accessibility violations with the drawer, menu and search open", async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/movies");
  await page
    .getByRole("button", { name: /^Add to Cart:/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Cart (1)" }).click();
  await expect(page.getByRole("dialog", { name: /Your Cart/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await page.getByRole("combobox", { name: "Search films" }).fill("the");
  await expect(page.getByRole("listbox")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

/** Waits for the browser to draw `count` frames: time in which a moving row would move. */
async function frames(page: Page, count: number) {
  await page.evaluate(
    (total) =>
      new Promise<void>((resolve) => {
        let drawn = 0;
        const next = () => (++drawn >= total ? resolve() : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
    count,
  );
}

test("poster rows stand still for people who prefer reduced motion", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  const row = page.getByRole("region", { name: "New Arrivals posters" });
  const scrolled = () => row.evaluate((element) => element.scrollLeft);
  await frames(page, 40);
  expect(await scrolled()).toBe(0);
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await expect.poll(scrolled).toBeGreaterThan(5);
  // Hovering pauses the row.
  await row.hover();
  const at = await scrolled();
  await frames(page, 40);
  expect(await scrolled()).toBeLessThan(at + 3);
});

test("a poster row can be scrolled by hand and with its buttons", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByRole("button", { name: "Pause New Arrivals" }).click();
  const row = page.getByRole("region", { name: "New Arrivals posters" });
  const scrolled = () => row.evaluate((element) => element.scrollLeft);
  const start = await scrolled();
  await page.getByRole("button", { name: "Scroll New Arrivals forward" }).click();
  await expect.poll(scrolled).toBeGreaterThan(start + 100);
  const forward = await scrolled();
  await page.getByRole("button", { name: "Scroll New Arrivals back" }).click();
  await expect.poll(scrolled).toBeLessThan(forward - 100);
  // A swipe (here: the wheel a trackpad sends) moves it too.
  await row.hover();
  const before = await scrolled();
  await page.mouse.wheel(300, 0);
  await expect.poll(scrolled).toBeGreaterThan(before + 100);
});

test("no serious accessibility violations on the signed-in pages", async ({ page }, testInfo) => {
  test.slow();
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signedInCustomer(page, uniqueEmail("a11y"), "Accessible-Pages-1", "Alex", "Able");
  for (const path of [
    "/account",
    "/account?section=personalInfo",
    "/account?section=password",
    "/account?section=payment",
    "/account?section=security",
    "/orders",
  ]) {
    await page.goto(path);
    expect(await seriousViolations(page), path).toEqual([]);
  }
  await page.getByRole("button", { name: "Alex Able" }).click();
  await expect(page.getByRole("menuitem", { name: "My Account" })).toBeVisible();
  expect(await seriousViolations(page), "user menu").toEqual([]);
});
