import { expect, test } from "./support/fixtures.ts";

const PRICE = /\$\d+\.\d{2}/;

test("a director's name suggests their films with disc and price, and See More stays in view", async ({
  page,
}) => {
  // A short phone screen: ten suggestions do not fit, the See More entry must still show.
  await page.setViewportSize({ width: 390, height: 560 });
  await page.goto("/");
  const box = page.getByRole("combobox", { name: "Search films" });
  await box.fill("spielberg");
  const list = page.getByRole("listbox", { name: "Search suggestions" });
  await expect(list.getByRole("option")).toHaveCount(11);
  // Jaws is on DVD and on Blu-ray: the two editions are told apart by disc and price.
  const jaws = list.getByRole("option").filter({ hasText: "Jaws" });
  await expect(jaws).toHaveCount(2);
  await expect(jaws.nth(0)).toContainText("DVD · ");
  await expect(jaws.nth(1)).toContainText("Blu-ray · ");
  for (const edition of await jaws.all()) await expect(edition).toContainText(PRICE);

  const seeMore = list.getByRole("option", { name: "See More Results" });
  await expect(seeMore).toBeInViewport({ ratio: 1 });
  await seeMore.click();
  await expect(page).toHaveURL(/\/search\?query=spielberg$/);
  await expect(
    page.getByRole("main").getByRole("searchbox", { name: "Title, director or cast" }),
  ).toHaveValue("spielberg");
  await expect(page.getByRole("heading", { level: 2, name: "Schindler's List" })).toBeVisible();
});

test("a misspelt title on /search still finds the film, and the query can be refined", async ({
  page,
}) => {
  await page.goto("/search?query=godfathr");
  await expect(
    page.getByRole("heading", { level: 1, name: 'Search results for "godfathr"' }),
  ).toBeVisible();
  const main = page.getByRole("main");
  await expect(
    main.getByRole("heading", { level: 2, name: "The Godfather", exact: true }),
  ).toBeVisible();
  await expect(main.getByText("Did you mean")).toContainText("Did you mean The Godfather?");

  const field = main.getByRole("searchbox", { name: "Title, director or cast" });
  await expect(field).toHaveValue("godfathr");
  await field.fill("godfather part");
  await main.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/search\?query=godfather\+part$/);
  await expect(
    main.getByRole("heading", { level: 2, name: "The Godfather Part II" }),
  ).toBeVisible();
  await expect(field).toHaveValue("godfather part");
  await expect(main.getByText("Did you mean")).toHaveCount(0);
});

test("no results offer the catalogue, New Arrivals and a spelling hint", async ({ page }) => {
  await page.goto("/search?query=godfxxhr");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 2, name: "No matches found." })).toBeVisible();
  await expect(main.getByRole("link", { name: "Browse all Regular Titles" })).toHaveAttribute(
    "href",
    "/movies",
  );
  await expect(main.getByRole("link", { name: "See New Arrivals" })).toHaveAttribute(
    "href",
    "/new-arrivals",
  );
  await main.getByRole("link", { name: "The Godfather" }).click();
  await expect(page).toHaveURL(/\/search\?query=The%20Godfather$/);
  await expect(
    main.getByRole("heading", { level: 2, name: "The Godfather", exact: true }),
  ).toBeVisible();

  await page.goto("/search?query=qqqzzzxxx");
  await expect(main.getByRole("heading", { level: 2, name: "No matches found." })).toBeVisible();
  await expect(main.getByText("Did you mean")).toHaveCount(0);
  await main.getByRole("link", { name: "Browse all Regular Titles" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Regular Titles" })).toBeVisible();
});

test("the catalogue filters by genre and sorts by price, all kept in the URL", async ({ page }) => {
  await page.goto("/movies?page=2");
  await page.getByLabel("Genre").selectOption("Western");
  await expect(page).toHaveURL(/genre=Western/);
  await expect(page).not.toHaveURL(/page=2/);
  await page.getByLabel("Sort").selectOption({ label: "Price: high to low" });
  await expect(page).toHaveURL(/genre=Western.*sort=price-desc|sort=price-desc.*genre=Western/);

  await page.reload();
  await expect(page.getByLabel("Genre")).toHaveValue("Western");
  await expect(page.getByLabel("Sort")).toHaveValue("price-desc");
  const cards = page.locator("main ul li");
  await expect(cards.first()).toBeVisible();
  const prices = (await cards.locator("p", { hasText: PRICE }).allTextContents()).map((text) =>
    Number(text.replace(/[$,]/g, "")),
  );
  expect(prices.length).toBeGreaterThan(1);
  expect(prices).toEqual([...prices].sort((a, b) => b - a));

  await page.getByLabel("Sort").selectOption({ label: "Price: low to high" });
  await expect(page).toHaveURL(/sort=price-asc/);
  await expect(page).toHaveURL(/genre=Western/);
  await expect(page.getByLabel("Genre")).toHaveValue("Western");
});

test("a title page lists the film's other edition and links to it", async ({ page, request }) => {
  const response = await request.get("/api/search/suggestions?query=jaws");
  const { suggestions } = (await response.json()) as {
    suggestions: { regSerialNo: number; title: string; disc: string }[];
  };
  const [dvd, bluRay] = suggestions.filter((entry) => entry.title === "Jaws");
  expect([dvd?.disc, bluRay?.disc]).toEqual(["DVD", "Blu-ray"]);

  await page.goto(`/movies/${dvd!.regSerialNo}`);
  const editions = page.getByRole("region", { name: "Other editions" });
  const other = editions.getByRole("link", { name: /^Blu-ray · \$\d+\.\d{2}$/ });
  await expect(other).toBeVisible();
  await other.click();
  await expect(page).toHaveURL(new RegExp(`/movies/${bluRay!.regSerialNo}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Jaws" })).toBeVisible();
  await expect(editions.getByRole("link", { name: /^DVD · \$\d+\.\d{2}$/ })).toBeVisible();
});
