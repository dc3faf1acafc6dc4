import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { slowPhone } from "./support/slow-phone.ts";

// A phone on slow 4G with a CPU four times slower: a tap on the header's Cart and menu buttons
// answers on screen at once, whatever the network, and the sheet fills in when its code has
// arrived.

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test.beforeEach(async ({ context }, testInfo) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

type TapTimes = {
  /** When the tap's click reached the page. */
  tap?: number;
  /** When a dialog was first on the page, and when the next frame (the one showing it) began. */
  dialog?: number;
  dialogFrame?: number;
  /** When the dialog first held the content looked for, and the frame showing it. */
  filled?: number;
  filledFrame?: number;
  /** Frames the browser began between the tap and the dialog: each one drawn without it. */
  framesWithout: number;
};

/**
 * Starts watching the page in its own clock (performance.now()), so that a busy machine running
 * the test adds no delays of its own to the numbers: the tap, the dialog on the page, `filled`
 * inside it, and every frame the browser begins in between.
 */
function watchTap(page: Page, filled: string) {
  return page.evaluate((filledSelector) => {
    const times: TapTimes = { framesWithout: 0 };
    (window as unknown as { tapTimes: TapTimes }).tapTimes = times;
    document.addEventListener("click", () => (times.tap ??= performance.now()), {
      capture: true,
      once: true,
    });
    const everyFrame = () => {
      if (times.tap !== undefined && times.dialog === undefined) times.framesWithout++;
      if (times.filledFrame === undefined) requestAnimationFrame(everyFrame);
    };
    requestAnimationFrame(everyFrame);
    const observer = new MutationObserver(() => {
      const dialog = document.querySelector('[role="dialog"], dialog[open]');
      if (!dialog || times.tap === undefined) return;
      const now = performance.now();
      const seen: ("dialog" | "filled")[] = [];
      if (times.dialog === undefined) seen.push("dialog");
      if (times.filled === undefined && dialog.querySelector(filledSelector)) seen.push("filled");
      for (const key of seen) times[key] = now;
      if (seen.length === 0) return;
      requestAnimationFrame(() => {
        const frame = performance.now();
        for (const key of seen) times[`${key}Frame`] = frame;
      });
      if (times.filled !== undefined) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  }, filled);
}

/** What was measured, once the filled dialog has been drawn: milliseconds from the tap. */
async function tapTimes(page: Page) {
  const handle = await page.waitForFunction(() => {
    const times = (window as unknown as { tapTimes: TapTimes }).tapTimes;
    return times.dialogFrame !== undefined && times.filledFrame !== undefined && times;
  });
  const times = (await handle.jsonValue()) as Required<TapTimes>;
  return {
    framesWithout: times.framesWithout,
    dialog: Math.round(times.dialogFrame - times.tap),
    filled: Math.round(times.filledFrame - times.tap),
  };
}

test("on slow 4G, tapping Cart opens the drawer at once and fills it when its code arrives", async ({
  page,
}) => {
  test.slow();
  await page.goto("/about");
  await slowPhone(page);
  await watchTap(page, "a[href='/movies']");

  await page.getByRole("button", { name: "Cart (0)" }).tap();
  const drawer = page.getByRole("dialog", { name: "Your Cart (0 items)" });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText("Your cart is empty.")).toBeVisible({ timeout: 20_000 });
  await expect(drawer.getByRole("link", { name: "Continue shopping" })).toBeVisible();

  const times = await tapTimes(page);
  console.log(
    `cart drawer: drawn ${times.dialog} ms after the tap, filled after ${times.filled} ms`,
  );
  // The first frame after the tap shows the drawer (no frame drawn without it, as one waiting on
  // the network would let pass); its content follows with its code. How many milliseconds that
  // is on a phone: npm run bench:tap.
  expect(times.framesWithout).toBe(0);
});

test("on slow 4G, tapping the menu button opens the menu at once, its pages already listed", async ({
  page,
}) => {
  test.slow();
  await page.goto("/about");
  await slowPhone(page);
  await watchTap(page, "a[href='/other-services']");

  await page.getByRole("button", { name: "Open menu" }).tap();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("link", { name: "Other Services" })).toBeVisible();

  const times = await tapTimes(page);
  console.log(
    `side menu: drawn ${times.dialog} ms after the tap, its pages after ${times.filled} ms`,
  );
  // The first frame after the tap shows the menu, with the shop's pages in it.
  expect(times.framesWithout).toBe(0);
  expect(times.filled).toBe(times.dialog);

  // The menu works as a menu whenever its code arrives: a choice goes there and closes it.
  await menu.getByRole("link", { name: "Other Services" }).tap();
  await expect(menu).toBeHidden();
  await expect(
    page.getByRole("heading", { level: 1, name: "Free Estimate & Expert Repairs" }),
  ).toBeVisible();
});

test("while the sheets' code is on its way, the drawer and menu are already dialogs that keep focus, close and give focus back", async ({
  page,
}) => {
  test.slow();
  // The sheets' code is held back until the end: whatever is on screen until then is all the
  // shopper has.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/(cart-drawer|side-menu-sheet)-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/about");

  const cartButton = page.getByRole("button", { name: "Cart (0)" });
  await cartButton.tap();
  const drawer = page.getByRole("dialog", { name: "Your Cart (0 items)" });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole("status")).toHaveText("Opening your cart…");
  await expect(drawer.getByRole("heading", { name: "Your Cart (0 items)" })).toBeFocused();
  expect(await allViolations(page)).toEqual([]);
  // The rest of the page is out of reach while it is open.
  await page.keyboard.press("Tab");
  await expect(drawer.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(cartButton).toBeFocused();

  const menuButton = page.getByRole("button", { name: "Open menu" });
  await menuButton.tap();
  const menu = page.getByRole("dialog", { name: "Menu" });
  // As on the menu's sheet: focus on its first control that is not a link.
  await expect(menu.getByRole("button", { name: "Close" })).toBeFocused();
  await expect(menuButton).toHaveAttribute("aria-expanded", "true");
  expect(await allViolations(page)).toEqual([]);
  await menu.getByRole("button", { name: "Close" }).tap();
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  await expect(menuButton).toHaveAttribute("aria-expanded", "false");

  // The code arrives while the drawer is open: the drawer takes the placeholder's place, focus
  // still on its heading.
  await cartButton.tap();
  await expect(drawer.getByRole("status")).toBeVisible();
  release();
  await expect(drawer.getByText("Your cart is empty.")).toBeVisible();
  await expect(drawer.getByRole("status")).toHaveCount(0);
  await expect(drawer.getByRole("heading", { name: "Your Cart (0 items)" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(cartButton).toBeFocused();
});
