import { expect, test } from "./support/fixtures.ts";
import { clientAddress, register, signInAsAdmin } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { uniqueEmail } from "./support/mailbox.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  // Dialogs and menus fade in; axe must not judge their colours halfway through.
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

test("the dashboard shows the shop at a glance, its chart as a table too, and titles low on stock", async ({
  page,
}) => {
  // The charting library belongs to the back office: the shop's pages never load it.
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto("/");
  await page.goto("/movies");
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /uplot/i.test(url))).toEqual([]);

  await signInAsAdmin(page);

  // A title sold out, named to come first among the sold-out ones.
  const title = `000 Dashboard Probe ${Date.now()}`;
  await page.getByRole("button", { name: "Add New Titles" }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Regular" }).click();
  await page.getByLabel("ProductID").fill("DP-000");
  await page.getByLabel("QtyToList").fill("0");
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Release Year").fill("2001");
  await page.getByLabel("Disc").selectOption("DVD");
  await page.getByLabel("CurrentPrice").fill("9.99");
  await page.getByRole("button", { name: "Add Title" }).click();
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row).toBeVisible();
  const serial = (await row.getByRole("cell").first().textContent())!.trim();

  await page.getByRole("link", { name: "Dashboard", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();

  await expect(page.getByRole("region", { name: /^Revenue in [A-Z][a-z]+$/ })).toContainText(
    /\$[\d,]+\.\d\d/,
  );
  await expect(
    page
      .getByRole("region", { name: "Orders waiting to ship" })
      .getByRole("link", { name: "Show paid orders" }),
  ).toHaveAttribute("href", "/admin/orders?status=paid");
  await expect(
    page.getByRole("region", { name: "Unread messages" }).getByRole("link", {
      name: "Open the inbox",
    }),
  ).toHaveAttribute("href", "/admin/inbox");
  const repairs = page.getByRole("region", { name: "Repair appointments" });
  await expect(repairs.getByRole("heading", { name: /^Today, / })).toBeVisible();
  await expect(repairs.getByRole("heading", { name: /^Tomorrow, / })).toBeVisible();

  // The chart is drawn into a box of fixed height, and says what it shows.
  const chart = page.getByRole("img", { name: /^Sales chart/ });
  await expect(chart.locator("canvas")).toBeVisible();
  expect((await chart.boundingBox())?.height).toBe(288);
  expect(scripts.filter((url) => /uplot/i.test(url))).toHaveLength(1);

  // The same figures as a table: one row per day.
  await page.getByText("Sales by day as a table").click();
  const table = page.getByRole("table", { name: "Sales by day, last 30 days" });
  await expect(table).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(31);
  expect(await seriousViolations(page)).toEqual([]);

  const lowStock = page.getByRole("region", { name: "Low on stock" });
  const probe = lowStock.getByRole("link", { name: title });
  await expect(probe).toHaveAttribute("href", `/admin/items/${serial}/edit`);
  await expect(lowStock.getByRole("listitem").filter({ hasText: title })).toContainText("0 left");
  await probe.click();
  await expect(page.getByRole("heading", { name: new RegExp(`^Edit ${title}`) })).toBeVisible();

  await page.goto(`/admin/items?q=${serial}`);
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Title deleted")).toBeVisible();
});

test("a customer who just registered is in the customer list, found by search, with a page of their own", async ({
  page,
}) => {
  const customer = uniqueEmail("marguerite");
  await register(page, customer, "Ledger-Of-Films-42", "Marguerite", "Quillon");
  await expect(page.getByText(/Registration successful!/)).toBeVisible();

  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Customers", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Customers", level: 1 })).toBeVisible();
  await expect(page.getByText(/^\d[\d,]* customers?$/)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: customer });
  await expect(row).toBeVisible();
  await expect(row).toContainText("Marguerite");
  await expect(row).toContainText("Quillon");
  await expect(row).toContainText("1990-12-10");
  expect(await seriousViolations(page)).toEqual([]);

  const search = page.getByRole("searchbox", { name: "Search customers by e-mail or name" });
  await search.fill("mArGuErItE qUiLlOn");
  await expect(page).toHaveURL(/q=mArGuErItE\+qUiLlOn/);
  await expect(row).toBeVisible();
  await search.fill(customer.toUpperCase());
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(customer.toUpperCase())}`));
  await expect(page.getByText("1 customer", { exact: true })).toBeVisible();
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);
  await search.fill(`${customer}-nobody`);
  await expect(page.getByText("No customers match.")).toBeVisible();
  await search.fill(customer);
  // Wait for the search to be done, so it cannot overtake the click.
  await expect(row).toBeVisible();
  await row.getByRole("link", { name: customer, exact: true }).click();

  await expect(page.getByRole("heading", { name: "Marguerite Quillon", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: customer })).toHaveAttribute(
    "href",
    `mailto:${customer}`,
  );
  await expect(page.getByText("1990-12-10", { exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Date of birth history" })).toContainText(
    "none → 1990-12-10, by the customer",
  );
  await expect(page.getByText("No orders yet.")).toBeVisible();
  await expect(page.getByText("No repair appointments.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("link", { name: "Back to customers" }).click();
  await expect(page.getByRole("heading", { name: "Customers", level: 1 })).toBeVisible();

  const missing = await page.goto("/admin/customers/no-such-customer");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
