import { expect, test } from "./support/fixtures.ts";
import { openStaffPickInStock } from "./support/catalogue.ts";

test("browse → filter → page → detail → back keeps the page", async ({ page }) => {
  await page.goto("/movies");
  await expect(page.getByRole("heading", { level: 1, name: "Regular Titles" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^More Details:/ })).toHaveCount(24);

  await page.getByLabel("Disc").selectOption("DVD");
  await expect(page).toHaveURL(/disc=DVD/);
  await expect(page.getByText(/page 1 of \d+/)).toBeVisible();

  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await pagination.getByRole("link", { name: "Page 2", exact: true }).click();
  await expect(page).toHaveURL(/disc=DVD.*page=2|page=2.*disc=DVD/);
  await expect(pagination.locator('[aria-current="page"]')).toHaveText(/2/);

  // Every title on this page is a DVD (the disc line under each title).
  const discs = await page
    .getByRole("main")
    .getByRole("listitem")
    .getByText(/^(DVD|Blu-ray|4K\/Blu-ray|Collections)$/)
    .allTextContents();
  expect(discs.length).toBe(24);
  expect(discs.every((text) => text.startsWith("DVD"))).toBe(true);

  const firstTitle = page.locator("main ul li h2").first();
  const name = (await firstTitle.textContent())!;
  await firstTitle.click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Disc:")).toBeVisible();

  await page.getByRole("link", { name: "← Back to Regular Titles" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).toHaveURL(/disc=DVD/);
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();

  // The browser's own back and forward keep the list state too.
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/page=2/);
});

test("a sort change resets to page 1 and orders titles", async ({ page }) => {
  await page.goto("/movies?page=3");
  await page.getByLabel("Sort").selectOption("za");
  await expect(page).toHaveURL(/sort=za/);
  await expect(page).not.toHaveURL(/page=3/);
  // The address changes as the new list is drawn: read the list once it is there.
  await expect(
    page.getByRole("navigation", { name: "Pagination" }).locator('[aria-current="page"]'),
  ).toHaveText("Page 1");
  await expect(async () => {
    const titles = await page.locator("main ul li h2").allTextContents();
    expect(titles).toHaveLength(24);
    expect([...titles].sort().reverse()).toEqual(titles);
  }).toPass({ timeout: 10_000 });
});

test("pagination offers first, previous, next and last with ellipses", async ({ page }) => {
  await page.goto("/movies?page=5");
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  for (const name of [
    "First page",
    "Previous page",
    "Next page",
    "Last page",
    "Page 3",
    "Page 7",
  ]) {
    await expect(pagination.getByRole("link", { name, exact: true })).toBeVisible();
  }
  await expect(pagination.getByRole("link", { name: "Page 8", exact: true })).toHaveCount(0);
  await pagination.getByRole("link", { name: "Last page" }).click();
  await expect(pagination.getByRole("link", { name: "Next page" })).toHaveCount(0);
  await expect(pagination.locator('[aria-current="page"]')).toBeVisible();
});

test("More Details opens a dialog with the title's facts", async ({ page }) => {
  await page.goto("/movies");
  const name = (await page.locator("main ul li h2").first().textContent())!;
  await page
    .getByRole("button", { name: /^More Details:/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Year")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("a missing title says 'Movie not found.' with a 404", async ({ page }) => {
  const response = await page.goto("/movies/99999999");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Movie not found." })).toBeVisible();
  await page.getByRole("link", { name: "← Back to Regular Titles" }).click();
  await expect(page).toHaveURL(/\/movies$/);
});

test("an unknown address shows the not-found page with status 404", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page).toHaveTitle(/Page not found/);
});

test("the side menu navigates and closes on choice", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  for (const name of ["Home", "Movies", "Adult Movies", "Account", "Orders", "Other Services"]) {
    await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
  }
  await menu.getByRole("link", { name: "Other Services" }).click();
  await expect(menu).toBeHidden();
  await expect(
    page.getByRole("heading", { level: 1, name: "Free Estimate & Expert Repairs" }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Request a Service Appointment" })).toHaveAttribute(
    "href",
    "/service-request-form",
  );
});

test("the home page shows its rows, and the staff pick dialog adds to the cart", async ({
  page,
}) => {
  await page.goto("/");
  await expect(
    page.getByRole("heading", { level: 1, name: "Movies, Games, and More" }),
  ).toBeVisible();
  await expect(page.getByText("Unleash Your Entertainment.").first()).toBeVisible();
  await expect(
    page
      .getByRole("region", { name: "New Arrivals posters" })
      .locator("ul:not([aria-hidden]) > li"),
  ).toHaveCount(12);
  await expect(
    page.getByRole("region", { name: "Coming Soon posters" }).locator("ul:not([aria-hidden]) > li"),
  ).toHaveCount(12);
  const picks = page
    .getByRole("region", { name: "Staff Picks posters" })
    .locator("ul:not([aria-hidden]) > li");
  await expect(picks).toHaveCount(5);
  await expect(page.locator('a[href="/other-services"]').filter({ hasText: "Repair" })).toHaveCount(
    4,
  );

  const pause = page.getByRole("button", { name: "Pause New Arrivals" });
  await pause.click();
  await expect(page.getByRole("button", { name: "Play New Arrivals" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  // Five picks fit a desktop row: it stands still and shows each poster once.
  await expect(page.getByRole("button", { name: "Pause Staff Picks" })).toHaveCount(0);
  await expect(
    page.getByRole("region", { name: "Staff Picks posters" }).locator("ul[aria-hidden]"),
  ).toBeHidden();
  const dialog = await openStaffPickInStock(page);
  await expect(dialog.getByText(/^\$\d+\.\d{2}$/)).toBeVisible();
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
});

test("the footer has the address and Contact Us", async ({ page }) => {
  await page.goto("/about");
  const footer = page.locator("footer");
  await expect(footer.getByText(/Arlington, TX/)).toBeVisible();
  await expect(footer.getByRole("link", { name: "Contact Us" })).toHaveAttribute(
    "href",
    "/contact",
  );
});

test("the footer fades in only near the bottom of a long page", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto("/movies");
  const footer = page.locator("footer");
  await expect(footer).toHaveAttribute("data-visible", "false");
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(footer).toHaveAttribute("data-visible", "true");
});

test("every page has its own title and description", async ({ page }) => {
  const seen = new Set<string>();
  for (const path of [
    "/",
    "/movies",
    "/new-arrivals",
    "/staff-picks",
    "/about",
    "/other-services",
    "/search?query=alien",
  ]) {
    await page.goto(path);
    const title = await page.title();
    expect(title).toMatch(/\| Reel & Repair$/);
    expect(seen.has(title)).toBe(false);
    seen.add(title);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{20,}/);
  }
});
