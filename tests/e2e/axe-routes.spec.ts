import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import type { Page } from "@playwright/test";
import routeConfig from "#app/routes.ts";
import { expect, test } from "./support/fixtures.ts";
import {
  clientAddress,
  login,
  logout,
  signedInCustomer,
  signInAsAdmin,
} from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { checkoutWithTestCard, fillShipping } from "./support/checkout.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { confirmBookingFromMail, dateAhead } from "./support/repairs.ts";

// Every page of app/routes.ts, judged by axe at every impact, at 1280 px and on a 390 px phone,
// as the person who may see it (signed out, a customer, the shop's admin), with its parameters
// taken from real data, and the states a page reaches only when something is opened on it.

test.beforeEach(async ({ context, page }, testInfo) => {
  // A test judges 10–20 page states at two widths, each axe run taking seconds when the machine
  // is busy: room for that, rather than more tests that each sign in again.
  test.setTimeout(240_000);
  // Dialogs, menus and the footer fade in: axe judges what stays, not a colour halfway through.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };

/** Every route of app/routes.ts as its URL pattern (as server/admin-access.test.ts lists them). */
function routePatterns(entries: RouteEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const pattern = entry.index ? parent || "/" : `${parent}/${entry.path ?? ""}`;
    return [pattern, ...routePatterns(entry.children ?? [], pattern)];
  });
}

type Who = "visitor" | "customer" | "admin" | "two-factor sign-in" | "admin returning an order";
/** The address to visit; one with a parameter finds a real value first, on `page`. */
type Address = (page: Page) => string | Promise<string>;

/**
 * Each route: who sees it and at which address, or why it is no page (nothing for axe to judge).
 * A route of app/routes.ts without an entry here fails the first test.
 */
const PAGES: Record<
  string,
  { as: Who; url: Address } | { notAPage: string } | { judgedIn: string }
> = {
  "/": { as: "visitor", url: () => "/" },
  "/movies": { as: "visitor", url: () => "/movies?page=2" },
  "/movies/:regSerialNo": { as: "visitor", url: (page) => firstTitle(page, "/movies") },
  "/adult-movies": { as: "customer", url: () => "/adult-movies" },
  "/adult-movies/:adultSerialNo": {
    as: "customer",
    url: (page) => firstTitle(page, "/adult-movies"),
  },
  "/age-check": { as: "visitor", url: () => "/age-check?returnTo=/adult-movies" },
  "/new-arrivals": { as: "visitor", url: () => "/new-arrivals" },
  "/coming-soon/:id": {
    as: "visitor",
    url: async (page) => (await alert(page)).entry,
  },
  "/alerts": { as: "visitor", url: () => "/alerts" },
  "/alerts/confirm/:id/:token": {
    as: "visitor",
    url: async (page) => (await alert(page)).confirm,
  },
  "/alerts/unsubscribe/:id/:token": {
    as: "visitor",
    url: async (page) => (await alert(page)).unsubscribe,
  },
  "/staff-picks": { as: "visitor", url: () => "/staff-picks" },
  "/search": { as: "visitor", url: () => "/search?query=the" },
  "/about": { as: "visitor", url: () => "/about" },
  "/returns": { as: "visitor", url: () => "/returns" },
  "/other-services": { as: "visitor", url: () => "/other-services" },
  "/contact": { as: "visitor", url: () => "/contact" },
  "/service-request-form": { as: "visitor", url: () => "/service-request-form" },
  "/service-request-success": { as: "visitor", url: () => "/service-request-success" },
  "/service-request/confirm/:token": {
    as: "visitor",
    url: async (page) => (await booking(page)).confirm,
  },
  "/service-request/cancel/:token": {
    as: "visitor",
    url: async (page) => (await booking(page)).cancel,
  },
  // The customer's status link needs no sign-in; the admin who opened the ticket follows it.
  "/repairs/:label/:token": { as: "admin", url: async (page) => (await ticket(page)).status },
  "/repairs/:label/:token/receipt": {
    as: "admin",
    url: async (page) => `${await collectedTicket(page)}/receipt`,
  },
  "/cart": { as: "customer", url: () => "/cart" },
  "/cart-success": { as: "customer", url: async (page) => (await orders(page)).paid },
  "/checkout/test-payment/:sessionId": {
    as: "customer",
    url: async (page) => (await orders(page)).paymentPage,
  },
  "/checkout/cancel": { notAPage: "returns to the cart" },
  "/api/webhooks/stripe": { notAPage: "the payment provider's webhook" },
  "/repairs/:label/:token/pay": { notAPage: "sends the customer to the payment provider" },
  "/login": { as: "visitor", url: () => "/login" },
  "/register": { as: "visitor", url: () => "/register" },
  "/reset-password": { as: "visitor", url: () => "/reset-password" },
  "/update-password": { as: "visitor", url: () => "/update-password?token=not-a-real-token" },
  "/logout": { notAPage: "signs out and returns home" },
  "/login/two-factor": { as: "two-factor sign-in", url: () => "/login/two-factor" },
  "/account": { as: "customer", url: () => "/account" },
  "/orders": { as: "customer", url: () => "/orders" },
  // An admin buys too: one account ships its own order and asks for one of its lines back.
  "/orders/:orderId/return": {
    as: "admin returning an order",
    url: async (page) => (await returned(page)).form,
  },
  "/admin": { as: "admin", url: () => "/admin" },
  // With an order of the admin's own in it, whatever the other tests have done yet.
  "/admin/orders": {
    as: "admin",
    url: async (page) => {
      await orders(page);
      return "/admin/orders";
    },
  },
  "/admin/orders/export.csv": { notAPage: "a CSV file" },
  "/admin/orders/:orderId": { as: "admin", url: async (page) => (await orders(page)).admin },
  "/admin/returns": {
    as: "admin returning an order",
    url: async (page) => {
      await returned(page);
      return "/admin/returns";
    },
  },
  "/admin/returns/:number": {
    as: "admin returning an order",
    url: async (page) => (await returned(page)).admin,
  },
  "/admin/customers": { as: "admin", url: () => "/admin/customers" },
  "/admin/customers/:customerId": {
    as: "admin",
    url: (page) => firstLink(page, "/admin/customers", /@/),
  },
  "/admin/inbox": { as: "admin", url: () => "/admin/inbox" },
  "/admin/repairs": {
    as: "admin",
    url: async (page) => {
      await ticket(page);
      return "/admin/repairs";
    },
  },
  "/admin/repairs/new": { as: "admin", url: () => "/admin/repairs/new" },
  "/admin/repairs/:number": { as: "admin", url: async (page) => (await ticket(page)).admin },
  "/admin/repairs/:number/claim": {
    as: "admin",
    url: async (page) => `${(await ticket(page)).admin}/claim`,
  },
  "/admin/repairs/:number/edit": {
    as: "admin",
    url: async (page) => `${(await ticket(page)).admin}/edit`,
  },
  "/admin/repairs/:number/photos/:id": { notAPage: "an intake photo, for staff only" },
  "/admin/inbox/:kind/:id": {
    as: "admin",
    url: async (page) => (await contactMessage(page)).admin,
  },
  "/admin/items": { as: "admin", url: () => "/admin/items" },
  "/admin/items/new": { as: "admin", url: () => "/admin/items/new" },
  "/admin/items/import": { as: "admin", url: () => "/admin/items/import" },
  "/admin/items/export.csv": { notAPage: "a CSV file" },
  "/admin/items/:regSerialNo/edit": {
    as: "admin",
    url: (page) => firstLink(page, "/admin/items", /^Edit /),
  },
  "/admin/adult/items": { as: "admin", url: () => "/admin/adult/items" },
  "/admin/adult/items/new": { as: "admin", url: () => "/admin/adult/items/new" },
  "/admin/adult/items/import": { as: "admin", url: () => "/admin/adult/items/import" },
  "/admin/adult/items/export.csv": { notAPage: "a CSV file" },
  "/admin/adult/items/:adultSerialNo/edit": {
    as: "admin",
    url: (page) => firstLink(page, "/admin/adult/items", /^Edit /),
  },
  "/admin/coming-soon": { as: "admin", url: () => "/admin/coming-soon" },
  "/admin/store-items": { as: "admin", url: () => "/admin/store-items" },
  "/admin/store-items/new": { as: "admin", url: () => "/admin/store-items/new" },
  "/admin/store-items/import": { as: "admin", url: () => "/admin/store-items/import" },
  "/admin/store-items/export.csv": { notAPage: "a CSV file" },
  "/counter": { as: "admin", url: () => "/counter" },
  "/counter/till": { as: "admin", url: () => "/counter/till" },
  // An unknown code's refusal here; a found order and its hand-over in pickup.spec.ts.
  "/counter/pickups": { as: "admin", url: () => "/counter/pickups?code=ZZZZ2222" },
  "/counter/till/export.csv": { notAPage: "a CSV file" },
  "/counter/test-reader": { as: "admin", url: () => "/counter/test-reader" },
  // The shop has one till: a sale is paid and a till closed only by the counter's own tests, one
  // at a time, and they judge these pages at both widths (counter.spec.ts).
  "/counter/sales/:number": { judgedIn: "counter.spec.ts" },
  "/counter/till/:id": { judgedIn: "counter.spec.ts" },
  "/counter/sales/:number/return": { judgedIn: "counter-returns.spec.ts" },
  "/counter/returns/:number": { judgedIn: "counter-returns.spec.ts" },
  "/admin/store-items/:id/edit": { as: "admin", url: (page) => storeItem(page) },
  "/auth/google": { notAPage: "a redirect to Google" },
  "/auth/continue": { notAPage: "a redirect after signing in with Google" },
  "/api/auth/*": { notAPage: "the auth library's JSON endpoints" },
  "/api/search/suggestions": { notAPage: "JSON" },
  "/api/cart/prices": { notAPage: "JSON" },
  "/posters/:kind/:file": { notAPage: "an image" },
  "/uploads/posters/:file": { notAPage: "an image" },
  "/dev/mailbox": { as: "visitor", url: () => "/dev/mailbox" },
  // The browser tests' mail goes through SMTP, so the development mailbox holds no message:
  // the address of one that does not exist answers the not-found page.
  "/dev/mailbox/:id": { as: "visitor", url: () => "/dev/mailbox/does-not-exist" },
  "/robots.txt": { notAPage: "text" },
  "/sitemap.xml": { notAPage: "XML" },
  "/sitemaps/titles/:file": { notAPage: "XML" },
  "/*": { as: "visitor", url: () => "/no-such-page" },
};

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

type Found = Record<string, string[]>;

/**
 * axe at both widths on what the page shows: violations per state and width ([] is the goal).
 * `open` puts the page in the state to judge again after the window is resized.
 */
async function judge(page: Page, what: string, found: Found, open?: () => Promise<void>) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await redrawn(page);
    if (open) await open();
    found[`${what} at ${size.width}px`] = await allViolations(page);
  }
}

/**
 * Until the page has drawn two frames at its new size: what reacts to a size (a table that now
 * scrolls sideways becomes a focusable region, app/components/ui/sideways-scroll.tsx) is told
 * in the first frame's layout and shows by the second. Judged sooner, a busy machine's page could
 * be caught halfway.
 */
function redrawn(page: Page) {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))),
      ),
  );
}

const none = (found: Found) => Object.fromEntries(Object.keys(found).map((key) => [key, []]));

/** The pages `who` sees, in `parts` nearly equal shares (a test each): share `part`. */
function pagesOf(who: Who, part = 0, parts = 1) {
  const pages = Object.entries(PAGES).flatMap(([pattern, entry]) =>
    !("as" in entry) || entry.as !== who ? [] : [{ pattern, url: entry.url }],
  );
  return pages.filter((_, index) => index % parts === part);
}

/** Visits each page in turn at both widths. */
async function judgePages(page: Page, pages: ReturnType<typeof pagesOf>, found: Found) {
  for (const { pattern, url } of pages) {
    const address = await url(page);
    await page.setViewportSize(WIDTHS[0]!);
    await page.goto(address);
    await judge(page, pattern, found);
  }
}

/** The address of the first link on `path` whose name matches. */
async function firstLink(page: Page, path: string, name: RegExp) {
  await page.goto(path);
  return (await page.getByRole("main").getByRole("link", { name }).first().getAttribute("href"))!;
}

/** The first title of a storefront list. */
async function firstTitle(page: Page, path: string) {
  await page.goto(path);
  const card = page.getByRole("main").getByRole("listitem").first();
  return (await card.getByRole("link").first().getAttribute("href"))!;
}

const once = <T>(make: (page: Page) => Promise<T>) => {
  const made = new WeakMap<Page, Promise<T>>();
  return (page: Page) => {
    if (!made.has(page)) made.set(page, make(page));
    return made.get(page)!;
  };
};

/** A repair booked for real: its e-mail's confirm link and, once confirmed, its cancel link. */
const booking = once(async (page) => {
  const email = uniqueEmail("axe-booking");
  await page.goto("/service-request-form");
  await page.getByLabel("Preferred date").fill(await dateAhead(page, 36));
  await expect(page.getByLabel("Preferred time").locator("option")).not.toHaveCount(1);
  await page.getByLabel("Name").fill("Axel Checker");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("(817) 555-0123");
  await page.getByLabel("Service").selectOption("Game Console Repair");
  await page.getByLabel("Device and problem").fill("Disc tray stuck");
  const time = page.getByLabel("Preferred time");
  await time.selectOption((await time.locator("option").nth(1).getAttribute("value"))!);
  await page.getByRole("button", { name: "Book Appointment" }).click();
  await expect(page.getByRole("heading", { name: "Request Submitted!" })).toBeVisible();
  const confirm = new URL((await confirmBookingFromMail(page, email)).link).pathname;
  const confirmation = await waitForMail(email, /^Your repair appointment/);
  const cancel = new URL(
    confirmation.text.match(/https?:\/\/\S+\/service-request\/cancel\/\S+/)![0],
  ).pathname;
  return { confirm, cancel };
});

/** A store item added through its form: its edit page (with a stock history of one row). */
const storeItem = once(async (page) => {
  const tag = uniqueEmail("axe-item").replace(/\W/g, "").slice(0, 30);
  await page.goto("/admin/store-items/new");
  await page.getByLabel("SKU").fill(`AXE-${tag}`);
  await page.getByLabel("Name").fill(`Axe board game ${tag}`);
  await page.getByLabel("Price").fill("39.99");
  await page.getByLabel("Stock").fill("2");
  await page.getByRole("button", { name: "Add Item" }).click();
  await expect(page).toHaveURL(/\/admin\/store-items\?q=/);
  return firstLink(page, `/admin/store-items?q=AXE-${tag}`, /^Edit /);
});

/** The titles each page has put in its cart, so that it adds a new one each time. */
const inCart = new WeakMap<Page, Set<string>>();

/**
 * Puts a title in the cart from the list: from its third page, so the orders made here never
 * sell out the first titles and staff picks that other tests put in their carts. The `index`-th
 * title not yet added by this page: other tests buy from that page too, so a title sold out
 * meanwhile moves the others up, and the one at `index` may be one already in this cart.
 */
async function addToCart(page: Page, index = 0) {
  await page.goto("/movies?page=3");
  const added = inCart.get(page) ?? new Set<string>();
  inCart.set(page, added);
  const buttons = page.getByRole("button", { name: /^Add to Cart:/ });
  const names = await buttons.evaluateAll((elements) =>
    elements.map((element) => element.getAttribute("aria-label")!),
  );
  const name = names.filter((candidate) => !added.has(candidate))[index]!;
  const before = await page.getByRole("button", { name: /^Cart \(/ }).getAttribute("aria-label");
  await page.getByRole("button", { name, exact: true }).click();
  await expect(page.getByRole("button", { name: /^Cart \(/ })).not.toHaveAttribute(
    "aria-label",
    before!,
  );
  added.add(name);
}

/**
 * Orders of the signed-in person: one paid (its success page), one left on its payment page;
 * the admin's address of that one.
 */
const orders = once(async (page) => {
  const pages = { paid: "", paymentPage: "", admin: "" };
  for (const pay of [true, false]) {
    await addToCart(page);
    await page.goto("/cart");
    await fillShipping(page, "axe-buyer@example.test");
    await page.getByRole("button", { name: "Proceed to Checkout" }).click();
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test-payment\//);
    if (!pay) {
      pages.paymentPage = new URL(page.url()).pathname;
      pages.admin = `/admin/orders/${/test_(\d+)_/.exec(page.url())![1]}`;
      break;
    }
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM/YY)").fill("12/40");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();
    pages.paid = new URL(page.url()).pathname + new URL(page.url()).search;
  }
  return pages;
});

/**
 * An order of the signed-in admin's own with two lines, shipped from the back office, and one
 * line asked back: the return form (the other line can still go) and the return's staff page.
 */
const returned = once(async (page) => {
  await addToCart(page, 2);
  await addToCart(page, 3);
  const number = await checkoutWithTestCard(page, "axe-returner@example.test");
  await page.goto(`/admin/orders/${number}`);
  await page.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(page.getByText(`Order #${number} is marked shipped.`)).toBeVisible();
  await page.goto(`/orders/${number}/return`);
  await page
    .getByLabel(/^How many of /)
    .first()
    .selectOption("1");
  await page.getByLabel("Reason").selectOption("Changed my mind");
  await page.getByLabel("Send it by mail").check();
  await page.getByRole("button", { name: "Request return" }).click();
  const asked = await page.getByText(/^Your return RMA-\d+ is requested\./).textContent();
  return {
    form: `/orders/${number}/return`,
    admin: `/admin/returns/${/RMA-(\d+)/.exec(asked!)![1]}`,
  };
});

/**
 * A visitor asks to be told when the first Coming Soon title is out: its page, and the links of
 * the e-mail asking to confirm (the stop link carries the same signature).
 */
const alert = once(async (page) => {
  await page.goto("/");
  const entry = (await page
    .getByRole("region", { name: "Coming Soon posters" })
    .getByRole("link")
    .first()
    .getAttribute("href"))!;
  const email = uniqueEmail("axe-alert");
  await page.goto(entry);
  await page.getByLabel("Your email").fill(email);
  await page.getByRole("button", { name: "Notify me on release" }).click();
  await expect(page.getByText("Check your e-mail")).toBeVisible();
  const mail = await waitForMail(email, /^Confirm your Reel & Repair alert$/);
  const confirm = new URL(mail.text.match(/https?:\/\/\S+\/alerts\/confirm\/\S+/)![0]).pathname;
  return { entry, confirm, unsubscribe: confirm.replace("/confirm/", "/unsubscribe/") };
});

/** A walk-in repair ticket opened at the counter: its page, and the customer's status link. */
const ticket = once(async (page) => {
  const email = uniqueEmail("axe-ticket");
  await page.goto("/admin/repairs/new");
  await page.getByLabel("Name").fill("Axel Fixer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("(817) 555-0166");
  await page.getByLabel("Service").selectOption("PC & Laptop Repair");
  await page.getByLabel("Kind of device").selectOption("Laptop");
  await page.getByLabel("Brand").fill("Lenovo");
  await page.getByLabel("Model").fill("ThinkPad T14");
  await page.getByLabel("Problem, as the customer tells it").fill("Keyboard missing keys");
  await page.getByLabel("Condition at intake").fill("Worn palm rest");
  await page.getByRole("button", { name: "Open ticket" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Ticket R-\d+$/ })).toBeVisible();
  const admin = new URL(page.url()).pathname;
  const mail = await waitForMail(email, /^Repair R-\d+: we have your/);
  const status = new URL(mail.text.match(/https?:\/\/\S+\/repairs\/R-\d+\/[\w-]+/)![0]).pathname;
  return { admin, status };
});

/**
 * The walk-in ticket taken all the way: estimated, approved on its status page, repaired and
 * collected. Returns its status link, under which its receipt is.
 */
const collectedTicket = once(async (page) => {
  const { admin, status } = await ticket(page);
  await page.goto(admin);
  await page.getByRole("button", { name: "Start diagnosing" }).click();
  const line = page.getByRole("group", { name: "Line 1", exact: true });
  await line.getByLabel("Description").fill("Replace the keyboard");
  await line.getByLabel("Unit price ($)").fill("45");
  await page.getByRole("button", { name: "Send estimate" }).click();
  await expect(page.getByText(/^Estimate 1 \(/)).toBeVisible();
  await page.goto(status);
  await page.getByRole("button", { name: "Approve the estimate" }).click();
  await expect(page.getByRole("heading", { name: "Now: Approved" })).toBeVisible();
  await page.goto(admin);
  await page.getByRole("button", { name: "Start the repair" }).click();
  await expect(page.getByText(/is now "Repairing"/)).toBeVisible();
  await page.getByRole("button", { name: "Mark ready for pickup" }).click();
  await expect(page.getByText(/is now "Ready for pickup"/)).toBeVisible();
  await page.getByLabel("Paid by", { exact: true }).selectOption("Card");
  await page.getByRole("button", { name: "Mark collected" }).click();
  await expect(page.getByText(/is collected and closed/)).toBeVisible();
  return status;
});

/** A message sent from the contact page, and its address in the admin's inbox. */
const contactMessage = once(async (page) => {
  const text = `Do you buy old laserdiscs? ${uniqueEmail("ask")}`;
  const visitor = await page.context().browser()!.newPage();
  await visitor.goto(new URL("/contact", page.url()).href);
  await visitor.getByLabel("Name").fill("Axel Writer");
  await visitor.getByLabel("Email").fill(uniqueEmail("axe-contact"));
  await visitor.getByLabel("Message").fill(text);
  await visitor.getByRole("button", { name: "Send Message" }).click();
  await expect(visitor.getByLabel("Message")).toHaveValue("");
  await visitor.close();
  return { admin: await firstLink(page, "/admin/inbox", /laserdiscs/) };
});

test("every route of app/routes.ts has an entry, and every entry is a route", () => {
  const patterns = routePatterns(routeConfig as RouteEntry[]);
  expect(patterns.filter((pattern) => !(pattern in PAGES))).toEqual([]);
  expect(Object.keys(PAGES).filter((pattern) => !patterns.includes(pattern))).toEqual([]);
});

for (const part of [0, 1]) {
  test(`a visitor's pages, share ${part + 1} of 2`, async ({ page }) => {
    const found: Found = {};
    await judgePages(page, pagesOf("visitor", part, 2), found);
    expect(found).toEqual(none(found));
  });
}

test("what opens on a visitor's page: the menu, the title dialog, the cart drawer, search", async ({
  page,
}) => {
  const found: Found = {};
  await page.goto("/movies");
  await judge(page, "side menu", found, async () => {
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(
      page.getByRole("dialog", { name: "Menu" }).getByRole("link").first(),
    ).toBeVisible();
  });
  await page.keyboard.press("Escape");
  await judge(page, "title details", found, async () => {
    await page.keyboard.press("Escape");
    await page
      .getByRole("button", { name: /^More Details:/ })
      .first()
      .click();
    await expect(page.getByRole("dialog")).toBeVisible();
  });
  await page.keyboard.press("Escape");
  await addToCart(page);
  await judge(page, "cart drawer with a line", found, async () => {
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Cart (1)" }).click();
    await expect(page.getByRole("dialog").getByText(/^Item Total:/)).toBeVisible();
  });
  await page.keyboard.press("Escape");
  const search = page.getByRole("combobox", { name: "Search films" });
  await judge(page, "search suggestions", found, async () => {
    await search.fill("");
    await search.fill("the");
    await expect(page.getByRole("listbox", { name: "Search suggestions" })).toBeVisible();
  });
  await judge(page, "search with no match", found, async () => {
    await search.fill("");
    await search.fill("qqqzzzxxx");
    await expect(page.getByText("No matches found.")).toBeVisible();
  });
  await page.goto("/search?query=qqqzzzxxx");
  await judge(page, "/search with no match", found);
  await page.goto("/movies?disc=Blu-ray&sort=az&page=2");
  await judge(page, "/movies filtered, sorted and paged", found);
  await page.goto("/movies/99999999");
  await judge(page, "a title page that does not exist", found);
  await page.goto("/cart");
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await judge(page, "/cart with the shipping form's messages", found);
  expect(found).toEqual(none(found));
});

test("a customer's pages: cart, success, payment, orders, adult titles", async ({ page }) => {
  const found: Found = {};
  await signedInCustomer(page, uniqueEmail("axe-customer"), "Axe-Customer-Pass-4", "Cora", "Axe");
  await orders(page);
  await addToCart(page, 1);
  await judgePages(page, pagesOf("customer"), found);
  expect(found).toEqual(none(found));
});

test("a customer's account screens and the open user menu", async ({ page }) => {
  const found: Found = {};
  await signedInCustomer(page, uniqueEmail("axe-account"), "Axe-Account-Pass-4", "Ana", "Axe");
  for (const section of ["personalInfo", "password", "payment", "orders", "alerts", "security"]) {
    await page.goto(`/account?section=${section}`);
    await judge(page, `/account?section=${section}`, found);
  }
  await page.goto("/about");
  await judge(page, "user menu", found, async () => {
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Ana Axe" }).click();
    await expect(page.getByRole("menuitem", { name: "My Account" })).toBeVisible();
  });
  expect(found).toEqual(none(found));
});

test("signing in with two-factor on: its set-up and the code's page", async ({ page }) => {
  const found: Found = {};
  const email = uniqueEmail("axe-totp");
  const password = "Axe-Second-Factor-8";
  await signedInCustomer(page, email, password, "Tess", "Axe");
  await page.goto("/account?section=security");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Set Up Two-Factor" }).click();
  const uri = (await page.getByTestId("totp-uri").textContent())!;
  const secret = new TextDecoder().decode(base32.decode(new URL(uri).searchParams.get("secret")!));
  await judge(page, "two-factor set-up", found);
  await page.getByLabel("Code from your app").fill(await createOTP(secret).totp());
  await page.getByRole("button", { name: "Turn On" }).click();
  await expect(page).toHaveURL(/saved=security/);
  await logout(page, "Tess Axe");
  await login(page, email, password);
  await expect(page).toHaveURL(/\/login\/two-factor/);
  const [codePage] = pagesOf("two-factor sign-in");
  await judge(page, codePage!.pattern, found);
  await page.getByRole("link", { name: "Use a backup code instead" }).click();
  await judge(page, `${codePage!.pattern} with a backup code`, found);
  expect(found).toEqual(none(found));
});

for (const part of [0, 1, 2]) {
  test(`the admin's pages, share ${part + 1} of 3`, async ({ page }) => {
    const found: Found = {};
    await signInAsAdmin(page, `axe-owner-${part}`);
    await judgePages(page, pagesOf("admin", part, 3), found);
    expect(found).toEqual(none(found));
  });
}

test("returns: the customer's form and its messages, the back office's list and page", async ({
  page,
}) => {
  const found: Found = {};
  await signInAsAdmin(page, "axe-returns");
  await judgePages(page, pagesOf("admin returning an order"), found);
  await page.goto((await returned(page)).form);
  await page.getByRole("button", { name: "Request return" }).click();
  await expect(page.getByText("Please choose at least one item to return.")).toBeVisible();
  await judge(page, "the return form's messages", found);
  await page.goto((await returned(page)).admin);
  await page.getByRole("button", { name: "Mark as received" }).click();
  await expect(page.getByText("Please say whether it goes back to stock.")).toBeVisible();
  await judge(page, "the receipt form's messages", found);
  expect(found).toEqual(none(found));
});

test("the admin's confirm dialogs and the title form's messages", async ({ page }) => {
  const found: Found = {};
  await signInAsAdmin(page, "axe-confirming");
  await page.goto("/admin/items");
  await judge(page, "delete title dialog", found, async () => {
    await page.keyboard.press("Escape");
    await page
      .getByRole("button", { name: /^Delete / })
      .first()
      .click();
    await expect(page.getByRole("dialog")).toBeVisible();
  });
  await page.keyboard.press("Escape");
  await page.goto("/admin/items/new");
  await page.getByRole("button", { name: "Add Title" }).click();
  await expect(page.getByLabel("Title", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await judge(page, "the title form's messages", found);
  await page.goto((await orders(page)).admin);
  await judge(page, "cancel order dialog", found, async () => {
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Cancel order" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
  });
  expect(found).toEqual(none(found));
});
