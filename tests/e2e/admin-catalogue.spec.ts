import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { listRegularTitle, posterPng } from "./support/catalogue.ts";
import { checkCsvFile, csvFile, rejectedRowNumber } from "./support/csv-import.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  // Dialogs and menus fade in; axe must not judge their colours halfway through.
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** Signed in as a new admin, on the regular catalogue's table. */
async function signInToCatalogue(page: Page) {
  await signInAsAdmin(page);
  await page.getByRole("link", { name: "All Regular Items" }).click();
  await expect(page.getByRole("heading", { name: "All Regular Items" })).toBeVisible();
}

test("an admin adds a regular title, finds it in the shop, edits its price, and deletes it", async ({
  page,
}) => {
  await signInToCatalogue(page);
  expect(await seriousViolations(page)).toEqual([]);
  const title = `Zephyr Lantern ${Date.now()}`;

  await page.getByRole("button", { name: "Add New Titles" }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Regular" }).click();
  await expect(page.getByRole("heading", { name: "Add Regular Title" })).toBeVisible();
  await page.getByLabel("ProductID").fill("ZL-001");
  await page.getByLabel("QtyToList").fill("7");
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Release Year").fill("99");
  await page.getByLabel("Disc").selectOption("Blu-ray");
  await page.getByLabel("CurrentPrice").fill("12.99");
  await page.getByLabel("Director").fill("Ida Lupino");
  await page.getByRole("button", { name: "Add Title" }).click();
  await expect(page.getByText("Year must be in YYYY format")).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel("Release Year").fill("1999");
  await page.getByRole("button", { name: "Add Title" }).click();

  await expect(page).toHaveURL(/\/admin\/items\?q=\d+/);
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row).toBeVisible();
  const serial = (await row.getByRole("cell").first().textContent())!.trim();

  // On the storefront at once: its page, search, and the catalogue.
  await page.goto(`/movies/${serial}`);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.getByText("$12.99").first()).toBeVisible();
  await page.goto(`/search?query=${encodeURIComponent(title)}`);
  await expect(page.getByRole("link", { name: title })).toBeVisible();

  // Searching the admin table by director finds it too.
  await page.goto("/admin/items");
  await page.getByRole("searchbox", { name: "Search regular titles" }).fill("Ida Lupino");
  await expect(page).toHaveURL(/q=Ida\+Lupino/);
  await page
    .getByRole("row")
    .filter({ hasText: title })
    .getByRole("link", { name: `Edit ${title}` })
    .click();
  await expect(page.getByRole("heading", { name: new RegExp(`^Edit ${title}`) })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const price = page.getByRole("textbox", { name: "CurrentPrice" });
  await expect(price).toHaveValue("12.99");
  await price.fill("$14.50");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("row").filter({ hasText: title })).toContainText("$14.50");
  await page.goto(`/movies/${serial}`);
  await expect(page.getByText("$14.50").first()).toBeVisible();

  await page.goto(`/admin/items?q=${serial}`);
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  await expect(page.getByText(`Delete "${title}"? This cannot be undone.`)).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Title deleted")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(0);
  const gone = await page.goto(`/movies/${serial}`);
  expect(gone?.status()).toBe(404);
});

test("staff picks stop at five with the spec's dialog", async ({ page }) => {
  await signInToCatalogue(page);
  const dialog = page.getByRole("dialog", { name: "Staff Pick Limit Reached" });
  const count = page.getByText(/\d of 5 staff picks/);

  // Make room for exactly one: the list of picks, one switched off.
  await page.getByRole("link", { name: "Show staff picks" }).click();
  await expect(page).toHaveURL(/picks=1/);
  // The address changes before the new list is drawn: count switches only once it is.
  await expect(page.getByRole("link", { name: "Show all titles" })).toBeVisible();
  const picks = page.getByRole("switch", { checked: true });
  while ((await picks.count()) > 4) {
    const before = await picks.count();
    await picks.first().click();
    await expect(picks).toHaveCount(before - 1);
  }
  await expect(count).toHaveText(/4 of 5 staff picks/);

  // The fifth is accepted, the sixth refused with the dialog.
  await page.getByRole("link", { name: "Show all titles" }).click();
  await expect(page.getByRole("link", { name: "Show staff picks" })).toBeVisible();
  const off = page.getByRole("switch", { checked: false });
  await off.first().click();
  await expect(count).toHaveText(/5 of 5 staff picks/);
  await off.first().click();
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByText(
      "You can only have up to 5 staff picks. Please remove one before adding another.",
    ),
  ).toBeVisible();
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(count).toHaveText(/5 of 5 staff picks/);
});

test("an empty poster file is refused next to the field, nothing is saved, the typed input stays", async ({
  page,
}) => {
  await signInToCatalogue(page);
  await page.goto("/admin/items/new");
  const title = `Hollow Reel ${Date.now()}`;
  await page.getByLabel("ProductID").fill("HR-0");
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Disc").selectOption("DVD");
  await page.getByLabel("CurrentPrice").fill("9.99");
  await page
    .getByLabel("Poster")
    .setInputFiles({ name: "empty.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(0) });
  await page.getByRole("button", { name: "Add Title" }).click();
  await expect(page.getByLabel("Poster")).toHaveAccessibleDescription(/The poster file is empty\./);
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
  await expect(page.getByLabel("CurrentPrice")).toHaveValue("9.99");
  await page.goto(`/admin/items?q=${encodeURIComponent(title)}`);
  await expect(page.getByText("No titles match")).toBeVisible();
});

test("an admin adds an adult title with the adult form's rules", async ({ page }) => {
  await signInToCatalogue(page);
  await page.getByRole("link", { name: "All Adult Items" }).click();
  await expect(page.getByRole("heading", { name: "All Adult Items" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("link", { name: "Add Title" }).click();
  const title = `Velvet Hours ${Date.now()}`;
  await page.getByLabel("ProductID").fill("A-1");
  await page.getByLabel("Price").fill("19.99");
  await page.getByLabel("Quantity").fill("2");
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Release Date").fill("2024/01/02");
  await page.getByRole("button", { name: "Add Title" }).click();
  await expect(page.getByText("ProductID must be a number.")).toBeVisible();
  await expect(page.getByText("Date must be in YYYY-MM-DD format")).toBeVisible();
  await page.getByLabel("ProductID").fill("4411");
  await page.getByLabel("Release Date").fill("2024-01-02");
  await page.getByRole("button", { name: "Add Title" }).click();
  await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
});

test("a Coming Soon entry with an uploaded poster shows on the home page", async ({ page }) => {
  await signInToCatalogue(page);
  await page.getByRole("link", { name: "Manage Coming Soon" }).click();
  await expect(page.getByRole("heading", { name: "Manage Coming Soon" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const title = `Orchid Protocol ${Date.now()}`;
  const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);

  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByLabel("Release date").fill(soon);
  await page.getByRole("button", { name: "Add Coming Soon Title" }).click();
  await expect(page.getByText("Poster is required")).toBeVisible();

  // A real image, and first a fake one: HTML named like a JPEG is refused.
  await page.getByLabel("Poster").setInputFiles({
    name: "poster.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("<html><script>alert(1)</script></html>"),
  });
  await page.getByRole("button", { name: "Add Coming Soon Title" }).click();
  await expect(page.getByText("The poster must be a JPEG, PNG, WebP or AVIF image.")).toBeVisible();

  await page
    .getByLabel("Poster")
    .setInputFiles({ name: "orchid.png", mimeType: "image/png", buffer: await posterPng() });
  await page.getByRole("button", { name: "Add Coming Soon Title" }).click();
  await expect(page.getByText("Added coming soon title")).toBeVisible();
  await expect(page.getByRole("list", { name: "Coming Soon entries" })).toContainText(title);

  await page.goto("/");
  // Each entry of the row leads to its own page (where shoppers ask to be told on release).
  const entry = page
    .getByRole("region", { name: "Coming Soon posters" })
    .getByRole("link", { name: new RegExp(title) })
    .first();
  await expect(entry).toBeAttached();
  expect(await entry.getAttribute("href")).toMatch(/^\/coming-soon\/\d+$/);
  const src = await entry.locator("img").getAttribute("src");
  expect(src).toMatch(/^\/uploads\/posters\/[0-9a-f]{32}-\d+\.webp$/);
  const image = await page.request.get(src!);
  expect(image.headers()["content-type"]).toBe("image/webp");

  await page.goto("/admin/coming-soon");
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  // Permanent after a confirmation, as the catalogue tables' deletions are.
  const confirm = page.getByRole("dialog", { name: "Delete Coming Soon entry" });
  await expect(confirm).toContainText(`Delete "${title}"? This cannot be undone.`);
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByText("Entry deleted")).toBeVisible();
  await expect(page.getByRole("list", { name: "Coming Soon entries" })).not.toContainText(title);
});

test("a CSV import is checked first, refused whole with one bad row, then written; export downloads", async ({
  page,
}) => {
  await signInToCatalogue(page);
  await page.getByRole("link", { name: "Import CSV" }).click();
  await expect(page.getByRole("heading", { name: "Import regular titles" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const marker = `Marigold ${Date.now()}`;
  const header =
    "RegSerialNo,ProductID,QtyToList,Title,Release Year,Disc,Type,CurrentPrice,Description,Genres,Director,Cast,PosterURL";
  // Spreadsheet rows: the header is row 1, and a cell with a line break stays in one row.
  const good = [
    `,CSV-1,4,"${marker}, Part One",1984,DVD,Movie,$9.99,"Two lines,\nof description",Drama,Ann Hui,,`,
    `,CSV-2,2,${marker} Part Two,1986,Blu-ray,Movie,14.50,,Drama,Ann Hui,,`,
  ];
  const bad = `,CSV-3,1,${marker} Part Three,86,DVD,Movie,9.99,,,,,`;

  const report = await checkCsvFile(page, csvFile("titles.csv", header, [...good, bad]));
  await expect(report).toContainText("Nothing was written: 1 of 3 rows need fixing.");
  await expect(rejectedRowNumber(report, "Year must be in YYYY format")).toHaveText("4");
  await expect(page.getByRole("button", { name: "Import" })).toBeDisabled();

  await checkCsvFile(page, csvFile("titles.csv", header, good));
  await expect(report).toContainText("Dry run: 2 would be added, 0 updated, 0 rejected.");
  await page.getByRole("button", { name: "Import" }).click();
  await expect(report).toContainText("Imported: 2 added, 0 updated.");

  await page.goto(`/admin/items?q=${encodeURIComponent(marker)}`);
  await expect(page.getByRole("row").filter({ hasText: `${marker}, Part One` })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: `${marker} Part Two` })).toContainText(
    "$14.50",
  );

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = await (
    await download
  )
    .path()
    .then((path) => import("node:fs").then((fs) => fs.readFileSync(path, "utf8")));
  expect(csv.split("\n")[0]).toBe(`\uFEFF${header},Barcode`);
  expect(csv).toContain(`"${marker}, Part One"`);
});

test("the back office is usable at phone width: nothing sticks out sideways, the table scrolls in place", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToCatalogue(page);
  // The shop's header at phone width (a long signed-in name) is the storefront issue's; here
  // the back office itself must fit.
  for (const path of ["/admin", "/admin/items", "/admin/items/new", "/admin/coming-soon"]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => {
      const main = document.querySelector("main")!;
      return Math.max(
        main.scrollWidth - main.clientWidth,
        document.documentElement.scrollWidth - document.body.scrollWidth,
      );
    });
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  const table = page.locator("table").locator("..");
  await page.goto("/admin/items");
  expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(page.getByRole("link", { name: "All Adult Items" })).toBeVisible();
});

test("each row's Edit and Delete show whole, at 1280 px and on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInToCatalogue(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(page.getByRole("button", { name: /^Delete / }).first()).toBeVisible();
    // Whole: inside the part of the table one sees without scrolling it, and not cut short.
    const cut = await page.getByRole("table").evaluate((table) => {
      const frame = table.parentElement!.getBoundingClientRect();
      const right = frame.left + table.parentElement!.clientWidth;
      return [...table.querySelectorAll("tbody a, tbody button")]
        .filter((control) => /^(Edit|Delete) /.test(control.getAttribute("aria-label") ?? ""))
        .filter((control) => {
          const box = control.getBoundingClientRect();
          return (
            box.left < frame.left || box.right > right || control.scrollWidth > control.clientWidth
          );
        })
        .map((control) => control.getAttribute("aria-label"));
    });
    expect(cut, `at ${width}px`).toEqual([]);
  }
});

test("Release Year is a number field from 1900 to 2100", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/items/new");
  const year = page.getByRole("spinbutton", { name: "Release Year" });
  await expect(year).toHaveAttribute("min", "1900");
  await expect(year).toHaveAttribute("max", "2100");
});

test("a count of one title is singular", async ({ page }) => {
  await signInToCatalogue(page);
  const title = `Solitary Reel ${Date.now()}`;
  await listRegularTitle(page, { title, productId: "SR-1", qty: 2 });
  await page.goto(`/admin/items?q=${encodeURIComponent(title)}`);
  await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
  await expect(page.getByText(/^1 title · /)).toBeVisible();
  await page.goto(`/search?query=${encodeURIComponent(title)}`);
  await expect(page.getByText("1 title found")).toBeVisible();
});
