import type { Locator, Route } from "@playwright/test";
import { expect, test, whenFeedbackReady } from "./support/fixtures.ts";
import { adminInOtherBrowser, clientAddress } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { aShippedOrder } from "./support/returns.ts";
import { slowPhone } from "./support/slow-phone.ts";

// A tap is answered on screen before the network answers it: the control that was tapped is
// drawn as pressed while its page is on its way (the progress bar comes later, for slow ones).

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** The control shows that it was pressed and is waiting: a spinner after it, the waiting pointer. */
async function expectPending(control: Locator) {
  await expect(control).toHaveAttribute("data-pending", "");
  await expect(control).toHaveCSS("cursor", "progress");
  const spinner = await control.evaluate((element) => {
    const after = getComputedStyle(element, "::after");
    return { content: after.content, width: after.width, animation: after.animationName };
  });
  expect(spinner).toEqual({
    content: '""',
    width: expect.stringMatching(/px$/),
    animation: "pending-spin",
  });
  expect(parseFloat(spinner.width)).toBeGreaterThan(8);
}

test("on a slow network, tapping 'Return items' shows it is on its way before the return form arrives", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const admin = await adminInOtherBrowser(browser, testInfo.testId, "tap-feedback");
  const { orderNumber, title } = await aShippedOrder(page, admin, { label: "tap-feedback" });
  await admin.context().close();

  await page.goto("/orders");
  await whenFeedbackReady(page);
  await slowPhone(page);
  // The return form's data, and then its answer, are held back until the test lets them through.
  let release = () => {};
  let asked = false;
  const hold = () => {
    asked = false;
    const held = new Promise<void>((resolve) => (release = resolve));
    return async (route: Route) => {
      asked = true;
      await held;
      await route.continue();
    };
  };
  await page.route(/\/orders\/\d+\/return\.data/, hold());

  const returnItems = page.getByRole("link", { name: `Return items of order #${orderNumber}` });
  const form = page.getByRole("heading", { name: `Return items of order #${orderNumber}` });
  await returnItems.tap();
  await expectPending(returnItems);
  // The form's data was asked for and has not come: the navigation is still under way.
  await expect.poll(() => asked).toBe(true);
  await expectPending(returnItems);
  await expect(page).toHaveURL(/\/orders$/);
  await expect(form).toHaveCount(0);
  expect(await allViolations(page)).toEqual([]);

  release();
  await expect(form).toBeVisible();
  await expect(page.locator("[data-pending]")).toHaveCount(0);

  // The form's button likewise, while its answer is on its way.
  await page.unrouteAll();
  await page.route(/\/orders\/\d+\/return\.data/, hold());
  await page.getByLabel(`How many of ${title}`).selectOption("1");
  await page.getByLabel("Reason").selectOption("Faulty disc");
  await page.getByLabel("Drop it off at the shop").check();
  const send = page.getByRole("button", { name: "Request return" });
  await send.tap();
  await expectPending(send);
  await expect.poll(() => asked).toBe(true);
  await expectPending(send);
  release();
  await expect(page.getByText(/^Your return RMA-\d+ is requested\./)).toBeVisible();
  await expect(page.locator("[data-pending]")).toHaveCount(0);
});
