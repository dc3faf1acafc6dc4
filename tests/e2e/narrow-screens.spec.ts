import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { adminInOtherBrowser, clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { uniqueEmail } from "./support/mailbox.ts";
import { aShippedOrder } from "./support/returns.ts";

// The back office on a tablet held upright (768 px) and at 400 % zoom (320 px): tables keep
// their important columns in view and scroll, if at all, within themselves; long addresses wrap.

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** How far the page scrolls sideways (0: it does not). */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/**
 * The whole of `target` is on screen once the page is scrolled down to it: not off the window's
 * sides, nor cut off by a box that scrolls sideways (which is left where it is).
 */
async function expectWhollyInView(target: Locator, what: string) {
  await target.evaluate((element) =>
    window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 120),
  );
  await expect(target, what).toBeInViewport({ ratio: 1 });
}

test("the repair board keeps each ticket's status in view on a tablet and a phone, and the page never scrolls sideways", async ({
  page,
}) => {
  test.slow();
  await signInAsAdmin(page, "board-tablet");
  await page.goto("/admin/repairs/new");
  await page.getByLabel("Name").fill("Maximiliana Wolfeschlegelsteinhausen");
  await page.getByLabel("Email").fill(uniqueEmail("board-tablet"));
  await page.getByLabel("Phone").fill("(817) 555-0190");
  await page.getByLabel("Service").selectOption("Mobile Phone Repair");
  await page.getByLabel("Kind of device").selectOption("Phone");
  await page.getByLabel("Brand").fill("Samsung");
  await page.getByLabel("Model").fill("Galaxy S24 Ultra Enterprise Edition");
  await page.getByLabel("Serial number or IMEI (optional)").fill(`IMEI${Date.now()}`);
  await page.getByLabel("Problem, as the customer tells it").fill("Does not charge");
  await page.getByLabel("Condition at intake").fill("Dented corner");
  await page.getByRole("button", { name: "Open ticket" }).click();
  const heading = page.getByRole("heading", { level: 1, name: /^Ticket R-\d+$/ });
  await expect(heading).toBeVisible();
  const label = (await heading.textContent())!.replace("Ticket ", "");

  for (const width of [1280, 820, 768, 390, 320]) {
    await page.setViewportSize({ width, height: 1024 });
    await page.goto("/admin/repairs");
    const row = page.getByRole("row").filter({ hasText: label });
    await expectWhollyInView(row.getByRole("link", { name: label }), `ticket at ${width}px`);
    await expectWhollyInView(row.getByText("Checked in", { exact: true }), `status at ${width}px`);
    expect(await sidewaysOverflow(page), `/admin/repairs at ${width}px`).toBe(0);
    if (width === 768 || width === 320) {
      expect(await allViolations(page), `/admin/repairs at ${width}px`).toEqual([]);
    }
  }
});

test("a return's page wraps a 48-character e-mail address at 320 px instead of scrolling sideways", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "return-wrap");
  // 48 characters with nowhere to break a line (no hyphen, no space), and unique.
  const local = `wraps${Date.now()}${Math.random().toString(36).slice(2)}`.replace(/\W/g, "");
  const longEmail = `${local.padEnd(35, "x").slice(0, 35)}@example.test`;
  expect(longEmail).toHaveLength(48);
  const { orderNumber, title } = await aShippedOrder(page, admin, {
    label: "wrap",
    shippingEmail: longEmail,
  });
  await page.goto(`/orders/${orderNumber}/return`);
  await page.getByLabel(`How many of ${title}`).selectOption("1");
  await page.getByLabel("Reason").selectOption("Faulty disc");
  await page.getByLabel("Drop it off at the shop").check();
  await page.getByRole("button", { name: "Request return" }).click();
  const rma = (await page.getByText(/^Your return RMA-\d+ is requested\./).textContent())!.match(
    /RMA-\d+/,
  )![0];

  await admin.goto("/admin/returns");
  await admin.getByRole("link", { name: rma }).click();
  await expect(admin.getByRole("heading", { level: 1, name: `Return ${rma}` })).toBeVisible();
  for (const width of [768, 390, 320]) {
    await admin.setViewportSize({ width, height: 800 });
    expect(await sidewaysOverflow(admin), `/admin/returns/… at ${width}px`).toBe(0);
    await expectWhollyInView(admin.getByText(longEmail, { exact: false }), `address at ${width}px`);
  }
  expect(await allViolations(admin)).toEqual([]);
  await admin.goto("/admin/returns");
  expect(await sidewaysOverflow(admin), "/admin/returns at 320px").toBe(0);
  await admin.context().close();
});
