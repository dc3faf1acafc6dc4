import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { listRegularTitle } from "./support/catalogue.ts";

test("search suggestions open a title, and See More leads to the full results", async ({
  page,
}) => {
  await page.goto("/");
  const box = page.getByRole("combobox", { name: "Search films" });
  await expect(box).toHaveAttribute("placeholder", "Search");
  await box.click();
  await expect(box).toHaveAttribute("placeholder", "Search films...");

  await box.fill("the");
  const list = page.getByRole("listbox", { name: "Search suggestions" });
  await expect(list.getByRole("option")).toHaveCount(11);
  const titles = await list.getByRole("option").allTextContents();
  expect(titles.slice(0, 10).every((title) => title.toLowerCase().includes("the"))).toBe(true);
  await list.getByRole("option", { name: "See More Results" }).click();
  await expect(page).toHaveURL(/\/search\?query=the$/);
  await expect(
    page.getByRole("heading", { level: 1, name: 'Search results for "the"' }),
  ).toBeVisible();
  await expect(box).toHaveValue("");
  await expect(list).toBeHidden();

  await box.fill("godfather");
  await list
    .getByRole("option", { name: /The Godfather/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/movies\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: /Godfather/ })).toBeVisible();
  await expect(box).toHaveValue("");
});

test("search says 'No matches found.' and blank text makes no query", async ({ page }) => {
  const queries: (string | null)[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/search/suggestions") queries.push(url.searchParams.get("query"));
  });
  // The page's clock is moved on by hand: the blank text is given all the time the debounce
  // needs, however busy the machine, before the next text goes in.
  await page.clock.install();
  await page.goto("/movies");
  await page.clock.pauseAt(new Date(Date.now() + 5_000));
  const box = page.getByRole("combobox", { name: "Search films" });
  await box.fill("   ");
  await page.clock.runFor(1_000);
  await box.fill("qqqzzzxxx");
  await page.clock.resume();
  await expect(page.getByText("No matches found.")).toBeVisible();
  // Asked for the text only: a query for the blank would have gone before it.
  expect(queries).toEqual(["qqqzzzxxx"]);
  await page.getByRole("heading", { level: 1 }).click();
  await expect(page.getByText("No matches found.")).toBeHidden();
  await expect(box).toHaveValue("");
});

test("typing fast sends one suggestions request, not one per key", async ({ page }) => {
  const queries: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/search/suggestions")) queries.push(request.url());
  });
  // The page's clock stands still while the keys go in, so a busy machine cannot stretch the
  // gaps between keys past the debounce: what is measured is the debounce, not the machine.
  await page.clock.install();
  await page.goto("/");
  await page.clock.pauseAt(new Date(Date.now() + 5_000));
  await page.getByRole("combobox", { name: "Search films" }).pressSequentially("casablanca");
  expect(queries).toEqual([]);
  await page.clock.runFor(1_000);
  await expect(page.getByRole("option", { name: "Casablanca" }).first()).toBeVisible();
  expect(queries).toHaveLength(1);
  expect(queries.at(-1)).toContain("query=casablanca");
});

test("the suggestions endpoint answers JSON", async ({ request }) => {
  const response = await request.get("/api/search/suggestions?query=alien");
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { suggestions: { regSerialNo: number; title: string }[] };
  expect(body.suggestions.length).toBeGreaterThan(0);
  expect(body.suggestions.length).toBeLessThanOrEqual(10);
  expect(body.suggestions.every((s) => s.title.toLowerCase().includes("alien"))).toBe(true);
});

test("the suggestions work from the keyboard", async ({ page }) => {
  await page.goto("/about");
  const box = page.getByRole("combobox", { name: "Search films" });
  await box.fill("casablanca");
  await expect(page.getByRole("option", { name: "Casablanca" })).toBeVisible();
  await box.press("ArrowDown");
  await expect(page.getByRole("option", { name: "Casablanca" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await box.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Casablanca" })).toBeVisible();

  await box.fill("alien");
  await expect(page.getByRole("listbox")).toBeVisible();
  await box.press("Escape");
  await expect(page.getByRole("listbox")).toBeHidden();
  await box.fill("alien");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/search\?query=alien$/);
  await expect(
    page.getByRole("heading", { level: 1, name: 'Search results for "alien"' }),
  ).toBeVisible();
});

test("a sold-out title's suggestion says Out of stock and leads to its page's alert signup", async ({
  page,
  context,
}, testInfo) => {
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
  await signInAsAdmin(page, "stock");
  const name = `Quillon Ferry ${Date.now()}`;
  await listRegularTitle(page, { title: `${name} Sold`, productId: "QF-0", qty: 0 });
  await listRegularTitle(page, { title: `${name} Stocked`, productId: "QF-3", qty: 3 });

  // The server says which titles are in stock; the box does not guess.
  const response = await page.request.get(
    `/api/search/suggestions?query=${encodeURIComponent(name)}`,
  );
  const body = (await response.json()) as { suggestions: { title: string; inStock: boolean }[] };
  expect(body.suggestions.map(({ title, inStock }) => ({ title, inStock }))).toEqual([
    { title: `${name} Sold`, inStock: false },
    { title: `${name} Stocked`, inStock: true },
  ]);

  await page.goto("/");
  await page.getByRole("combobox", { name: "Search films" }).fill(name);
  const list = page.getByRole("listbox", { name: "Search suggestions" });
  await expect(list.getByRole("option")).toHaveCount(2);
  const soldOut = list.getByRole("option", { name: /Out of stock/ });
  await expect(soldOut).toHaveCount(1);
  await expect(soldOut).toContainText(`${name} Sold`);
  await expect(
    soldOut.getByText("Out of stock: email me when it's back", { exact: true }),
  ).toBeVisible();
  await soldOut.click();
  await expect(page.getByRole("heading", { level: 1, name: `${name} Sold` })).toBeVisible();
  await expect(page).toHaveURL(/#back-in-stock$/);
  await expect(page.getByText("Out of stock", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Email me when it's back" })).toBeVisible();
});
