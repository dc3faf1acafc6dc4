import type { Locator, Page } from "@playwright/test";
import { animationRate, expect, frames, test, whenFeedbackReady } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { fillShipping } from "./support/checkout.ts";
import { firstLink, uniqueEmail, waitForMail } from "./support/mailbox.ts";

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

/** The page's title has been announced: the frame says it in a polite live region. */
async function expectTitleAnnounced(page: Page) {
  const title = await page.title();
  await expect(page.getByRole("status").filter({ hasText: title })).toHaveCount(1);
}

test("a new page puts focus on its heading and announces its title; the first load does not", async ({
  page,
}) => {
  await page.goto("/movies");
  expect(await focused(page)).toBe("body");

  const firstTitle = page.getByRole("main").getByRole("listitem").first().getByRole("link");
  const name = (await firstTitle.getByRole("heading").textContent())!.trim();
  await pressEnterOn(firstTitle);
  await expect(page).toHaveURL(/\/movies\/\d+$/);
  await expect.poll(() => focused(page)).toBe(`h1: ${name}`);
  await expectTitleAnnounced(page);
  // Reading on from the heading, not from the top of the page.
  await page.keyboard.press("Tab");
  expect(
    await page.evaluate(() => document.getElementById("main")!.contains(document.activeElement)),
  ).toBe(true);
});

test("'Skip to content' still takes focus to the page's content", async ({ page }) => {
  await page.goto("/movies");
  await page.keyboard.press("Tab");
  expect(await focused(page)).toBe("a: Skip to content");
  await page.keyboard.press("Enter");
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
  await page.keyboard.press("Tab");
  expect(await focused(page)).toMatch(/^select: /);
});

test("a list's next page and a page number put focus on the list's heading, in view, and announce the page", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/movies");
  const heading = page.getByRole("heading", { level: 1, name: "Regular Titles" });
  const pagination = page.getByRole("navigation", { name: "Pagination" });

  await pressEnterOn(pagination.getByRole("link", { name: "Next page" }));
  await expect(page).toHaveURL(/page=2/);
  await expect.poll(() => focused(page)).toBe("h1: Regular Titles");
  await expect(heading).toBeInViewport();
  await expect(page.getByRole("status").filter({ hasText: "Regular Titles, page 2" })).toHaveCount(
    1,
  );

  await pressEnterOn(pagination.getByRole("link", { name: "Page 3", exact: true }));
  await expect(page).toHaveURL(/page=3/);
  await expect.poll(() => focused(page)).toBe("h1: Regular Titles");
  await expect(heading).toBeInViewport();
  await expectTitleAnnounced(page);
});

test("typing in a search that updates the address as you type leaves focus in the box", async ({
  page,
}) => {
  await signInAsAdmin(page, "typist");
  await page.goto("/admin/items");
  const search = page.getByRole("searchbox", { name: "Search regular titles" });
  await search.focus();
  await search.evaluate((box) =>
    box.addEventListener("blur", () => (document.documentElement.dataset.searchLeft = "true")),
  );
  await page.keyboard.type("the");
  await expect(page).toHaveURL(/q=the/);
  await expect(page.getByRole("main")).not.toHaveAttribute("aria-busy", "true");
  await frames(page, 5);
  await expect(search).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.dataset.searchLeft)).toBeUndefined();
});

test("sign-up puts focus on its confirmation; sign-in, review, payment, success and orders on their heading; the Pay button shows its focus", async ({
  page,
}) => {
  test.slow();
  const email = uniqueEmail("keys");
  const password = "Keyboard-Journey-31";

  await page.goto("/register");
  await whenFeedbackReady(page);
  await page.getByLabel("First name").fill("Kay");
  await page.getByLabel("Last name").fill("Board");
  await page.getByLabel("Date of birth").fill("1990-12-10");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await pressEnterOn(page.getByRole("button", { name: "Create Account" }));
  await expect(page.getByText(/Registration successful!/)).toBeVisible();
  // The form gave way to its answer: reading starts there (decision 018).
  await expect
    .poll(() => focused(page))
    .toBe(
      "p: Registration successful! Check your email for a confirmation link before logging in.",
    );

  await page.goto(firstLink(await waitForMail(email, /Confirm your e-mail/)));
  await expect(page.getByText("Your e-mail is confirmed. You can log in now.")).toBeVisible();
  expect(await focused(page)).toBe("body");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await pressEnterOn(page.getByRole("main").getByRole("button", { name: "Login", exact: true }));
  await expect(page.getByRole("button", { name: "Kay Board" })).toBeVisible();
  await expect.poll(() => focused(page)).toBe("h1: Movies, Games, and More");
  await expectTitleAnnounced(page);

  await page.goto("/movies");
  await pressEnterOn(page.getByRole("button", { name: /^Add to Cart:/ }).first());
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  await page.goto("/cart");
  await fillShipping(page, email);
  await pressEnterOn(page.getByRole("button", { name: "Proceed to Checkout" }));
  await expect.poll(() => focused(page)).toBe("h1: Review your order");

  await page.keyboard.press("Tab");
  expect(await focused(page)).toMatch(/^button: Pay \$/);
  expect(await focusRing(page)).toEqual({ visible: true, contrastAtLeast3: true });

  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/checkout\/test-payment\//);
  await expect.poll(() => focused(page)).toMatch(/^h1: Pay for order #\d+$/);
  await expectTitleAnnounced(page);

  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/40");
  await pressEnterOn(page.getByRole("button", { name: /^Pay \$/ }));
  await expect.poll(() => focused(page)).toBe("h1: Thank you for your order!");
  await expectTitleAnnounced(page);

  await pressEnterOn(page.getByRole("link", { name: "View My Orders" }));
  await expect(page).toHaveURL(/\/orders$/);
  await expect.poll(() => focused(page)).toBe("h1: Your Orders");
  await expectTitleAnnounced(page);
});

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
  // The page's animation clock stands still: a ring that faded in (even over a hundredth of a
  // millisecond, as reduced motion once made every change) would be judged half drawn, as a
  // busy machine sometimes showed it, instead of passing only when the next frame came soon.
  await animationRate(page, 0);
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
