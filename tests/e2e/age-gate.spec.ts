import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer } from "./support/accounts.ts";
import { uniqueEmail } from "./support/mailbox.ts";

test("the adult catalogue asks for age first, then lists 21 titles a page", async ({ page }) => {
  await page.goto("/adult-movies?page=2");
  await expect(page).toHaveURL(/\/age-check\?returnTo=/);
  await expect(page.getByRole("heading", { name: "Adults only" })).toBeVisible();
  await page.getByRole("button", { name: "I am 18 or older" }).click();

  await expect(page).toHaveURL(/\/adult-movies\?page=2$/);
  await expect(page.getByRole("heading", { level: 1, name: "Adult Titles" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^More Details:/ })).toHaveCount(21);

  const first = page.locator("main ul li h2").first();
  const unfiltered = (await first.textContent())!;
  await page.getByLabel("Production").fill("demo reel");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/production=demo\+reel/);
  // On a busy machine the address changes before the new list is drawn: read the new list only.
  await expect(first).not.toHaveText(unfiltered);
  const name = (await first.textContent())!;
  await first.click();
  await expect(page.getByText("Demo Reel Films")).toBeVisible();
  await page.getByRole("link", { name: "← Back to Adult Titles" }).click();
  await expect(page).toHaveURL(/production=demo\+reel/);
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();

  await page.getByRole("button", { name: `Add to Cart: ${name}` }).click();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
});

test("adult pages, posters and titles do not answer before the gate", async ({ page, request }) => {
  const detail = await request.get("/adult-movies/1", { maxRedirects: 0 });
  expect(detail.status()).toBe(302);
  expect(detail.headers()["location"]).toMatch(/^\/age-check\?returnTo=%2Fadult-movies%2F1/);
  for (const file of ["1.svg", "1-160.webp", "1-320.webp", "1-640.webp"]) {
    expect((await request.get(`/posters/adult/${file}`)).status(), file).toBe(403);
  }
  await page.goto("/");
  await page.getByRole("combobox", { name: "Search films" }).fill("Velvet");
  await expect(page.getByText("No matches found.")).toBeVisible();
});

test("the gate only sends people back to pages of this shop", async ({ page }) => {
  await page.goto("/age-check?returnTo=//evil.example/");
  await page.getByRole("button", { name: "I am 18 or older" }).click();
  await expect(page).toHaveURL(/\/adult-movies$/);
});

test("a signed-in customer whose date of birth says 18 or older is not asked again", async ({
  page,
  context,
}, testInfo) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
  // Born 1990-12-10 (the registration helper's date of birth).
  await signedInCustomer(page, uniqueEmail("adult"), "Grown-Up-Viewer-1990");
  await page.goto("/adult-movies");
  await expect(page).toHaveURL(/\/adult-movies$/);
  await expect(page.getByRole("heading", { level: 1, name: "Adult Titles" })).toBeVisible();
  await page.goto("/age-check?returnTo=%2Fadult-movies%3Fpage%3D2");
  await expect(page).toHaveURL(/\/adult-movies\?page=2$/);
});
