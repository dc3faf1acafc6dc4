import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress } from "./support/accounts.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** What has focus, the way a screen reader names it: "body" when nothing does. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return "body";
    const name = element.getAttribute("aria-label") ?? element.textContent ?? "";
    return `${element.tagName.toLowerCase()}: ${name.replace(/\s+/g, " ").trim()}`;
  });
}

/** Presses Enter on a control, as a keyboard user who has reached it does. */
async function pressEnterOn(control: Locator) {
  await control.focus();
  await control.page().keyboard.press("Enter");
}

/** Where the focused element is hidden under the sticky header, if it is. */
function hiddenUnderHeader(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    const header = document.querySelector("header")!;
    if (!element || element === document.body || header.contains(element)) return null;
    // The skip link shows over the header on purpose, fixed at the window's top.
    if (getComputedStyle(element).position === "fixed") return null;
    const top = element.getBoundingClientRect().top;
    const headerBottom = header.getBoundingClientRect().bottom;
    if (top >= headerBottom - 0.5) return null;
    const name = (element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
    return `${element.tagName.toLowerCase()} "${name.slice(0, 40)}" at y=${Math.round(top)}`;
  });
}

test("tabbing through a long page, forwards and backwards, never hides focus under the sticky header", async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/movies");
  const hidden: string[] = [];
  let stops = 0;
  // Forwards to the pagination at the bottom of the list…
  for (; stops < 200; stops++) {
    await page.keyboard.press("Tab");
    const where = await hiddenUnderHeader(page);
    if (where) hidden.push(`forwards: ${where}`);
    if ((await focused(page)) === "a: Last page") break;
  }
  expect(stops).toBeLessThan(200);
  // …and back to the top.
  for (let back = 0; back < stops; back++) {
    await page.keyboard.press("Shift+Tab");
    const where = await hiddenUnderHeader(page);
    if (where) hidden.push(`backwards: ${where}`);
  }
  expect(hidden).toEqual([]);
});

test("the cart drawer opens with focus on its heading, and closing it gives focus back to the Cart button", async ({
  page,
}) => {
  await page.goto("/movies");
  await pressEnterOn(page.getByRole("button", { name: /^Add to Cart:/ }).first());
  const cartButton = page.getByRole("button", { name: "Cart (1)" });
  await pressEnterOn(cartButton);
  const drawer = page.getByRole("dialog", { name: "Your Cart (1 item)" });
  await expect(drawer).toBeVisible();
  await expect.poll(() => focused(page)).toBe("h2: Your Cart (1 item)");
  // One more Enter takes nothing out of the cart.
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(cartButton).toBeFocused();
});

/**
 * The focused element's outline: drawn, at least 2 px, and at least 3:1 against the background
 * it is drawn on (the nearest opaque one around the element, as the outline sits outside it).
 */
function focusRing(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement!;
    const style = getComputedStyle(element);
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d", { willReadFrequently: true })!;
    const rgba = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data] as [number, number, number, number];
    };
    const luminance = ([r, g, b]: number[]) => {
      const [lr, lg, lb] = [r!, g!, b!].map((value) => {
        const channel = value / 255;
        return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
    };
    let background = rgba("white");
    for (let node = element.parentElement; node; node = node.parentElement) {
      const color = rgba(getComputedStyle(node).backgroundColor);
      if (color[3] === 255) {
        background = color;
        break;
      }
    }
    const outline = rgba(style.outlineColor);
    const [light, dark] = [luminance(outline), luminance(background)].sort((a, b) => b - a);
    return {
      visible: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
      contrastAtLeast3: outline[3] === 255 && (light! + 0.05) / (dark! + 0.05) >= 3,
    };
  });
}

test("every control shows its keyboard focus: a button drawn as a link, and buttons on the dark header", async ({
  page,
}) => {
  await page.goto("/movies");
  await pressEnterOn(page.getByRole("button", { name: /^Add to Cart:/ }).first());
  await page.goto("/cart");
  const items = page.getByRole("list", { name: "Items in your cart" });
  await items.getByRole("button", { name: /^Increase quantity of/ }).focus();
  await page.keyboard.press("Tab");
  expect(await focused(page)).toMatch(/^button: Remove Item: /);
  expect(await focusRing(page)).toEqual({ visible: true, contrastAtLeast3: true });

  await page.getByRole("link", { name: "Reel & Repair", exact: true }).focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  expect(await focused(page)).toMatch(/^a: Reel & Repair/);
  expect(await focusRing(page)).toEqual({ visible: true, contrastAtLeast3: true });
  await page.getByRole("button", { name: "Cart (1)" }).focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  expect(await focused(page)).toBe("button: Cart (1)");
  expect(await focusRing(page)).toEqual({ visible: true, contrastAtLeast3: true });
});
