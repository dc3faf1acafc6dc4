import { test as plainTest, type Browser, type Page } from "@playwright/test";
import sharp from "sharp";
import { expect, frames, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer, signInAsAdmin } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { confirmBookingFromMail, dateAhead } from "./support/repairs.ts";
import { backdatePromise } from "./support/shop-database.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** axe finds nothing, of any impact, at a desktop and a phone width. */
/**
 * Holds the page's next reading of its data after a form is sent (React Router's revalidation):
 * `reading` settles once the router has asked for it, and `release` lets it go on.
 */
async function holdReadingAgain(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const reading = new Promise<void>((resolve) => (asked = resolve));
  let held = false;
  await page.route(/\.data\?/, async (route) => {
    if (held || route.request().method() !== "GET") return route.continue();
    held = true;
    asked();
    await released;
    return route.continue();
  });
  return { reading, release };
}

async function expectAxeClean(page: Page) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await allViolations(page), `${page.url()} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** The ticket's label ("R-1042") from its page's heading. */
async function ticketOnPage(page: Page) {
  const heading = page.getByRole("heading", { level: 1, name: /^Ticket R-\d+$/ });
  await expect(heading).toBeVisible();
  return (await heading.textContent())!.replace("Ticket ", "");
}

/** A walk-in checked in at the counter; returns its label. */
async function openWalkIn(page: Page, email: string, serial: string) {
  await page.goto("/admin/repairs/new");
  await fillWalkIn(page, email, serial);
  await page.getByRole("button", { name: "Open ticket" }).click();
  return ticketOnPage(page);
}

/** The intake form filled in for a walk-in, not yet sent. */
async function fillWalkIn(page: Page, email: string, serial: string) {
  await page.getByLabel("Name").fill("Walter Inn");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("(817) 555-0177");
  await page.getByLabel("Service").selectOption("Mobile Phone Repair");
  await page.getByLabel("Kind of device").selectOption("Phone");
  await page.getByLabel("Brand").fill("Apple");
  await page.getByLabel("Model").fill("iPhone 13");
  await page.getByLabel("Serial number or IMEI (optional)").fill(serial);
  await page.getByLabel("Problem, as the customer tells it").fill("Cracked screen");
  await page.getByLabel("Condition at intake").fill("Screen cracked top left");
}

/** A photo as a phone would take it: a JPEG, larger than the shop keeps. */
async function devicePhoto() {
  const buffer = await sharp({
    create: { width: 2000, height: 1500, channels: 3, background: "#4a6fa5" },
  })
    .jpeg()
    .toBuffer();
  return { name: "IMG_0042.jpg", mimeType: "image/jpeg", buffer };
}

async function sendEstimate(page: Page, lines: { kind?: string; what: string; price: string }[]) {
  for (const [index, line] of lines.entries()) {
    const row = page.getByRole("group", { name: `Line ${index + 1}`, exact: true });
    if (line.kind) await row.getByLabel("Kind").selectOption(line.kind);
    await row.getByLabel("Description").fill(line.what);
    await row.getByLabel("Unit price ($)").fill(line.price);
  }
  await page.getByRole("button", { name: "Send estimate" }).click();
}

/** The customer, in a browser of their own, opens the status link from the estimate e-mail. */
async function customerOpensEstimate(browser: Browser, email: string, version: number) {
  const mail = await waitForMail(email, /your estimate of \$/, {
    containing: version > 1 ? "replaces the one we sent before" : "Here is what the repair costs",
  });
  const path = new URL(mail.text.match(/https?:\/\/\S+\/repairs\/R-\d+\/[\w-]+/)![0]).pathname;
  // A connection of the customer's own: their decisions are counted apart from the shop's.
  const context = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${test.info().testId}-customer`) },
  });
  const customer = await context.newPage();
  await customer.emulateMedia({ reducedMotion: "reduce" });
  await customer.goto(path);
  return { customer, path };
}

test("a booking becomes a ticket: claim ticket with its QR code, an estimate the customer approves from the e-mail, repaired, ready and collected", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("ticket-booked");
  await page.goto("/service-request-form");
  await page.getByLabel("Preferred date").fill(await dateAhead(page, 29));
  await expect(page.getByLabel("Preferred time").locator("option")).not.toHaveCount(1);
  await page.getByLabel("Name").fill("Rhea Pair");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("(817) 555-0199");
  await page.getByLabel("Service").selectOption("Game Console Repair");
  await page.getByLabel("Device and problem").fill("PS5: HDMI port loose, no picture");
  const time = page.getByLabel("Preferred time");
  await time.selectOption((await time.locator("option").nth(1).getAttribute("value"))!);
  await page.getByRole("button", { name: "Book Appointment" }).click();
  await expect(page.getByRole("heading", { name: "Request Submitted!" })).toBeVisible();
  await confirmBookingFromMail(page, email);

  // From the inbox, one click carries the booking over.
  await signInAsAdmin(page, "ticket-desk");
  await page.goto("/admin/inbox?kind=repair&state=all");
  await page
    .getByRole("row")
    .filter({ hasText: email })
    .getByRole("link", { name: /^Game Console Repair · / })
    .click();
  await expect(page.getByRole("heading", { name: "Repair request from Rhea Pair" })).toBeVisible();
  const bookingUrl = page.url();
  await page.getByRole("link", { name: "Open a ticket" }).click();
  await expect(page.getByRole("heading", { name: "New repair ticket" })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Rhea Pair");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Kind of device")).toHaveValue("Game console");
  await expect(page.getByLabel("Problem, as the customer tells it")).toHaveValue(
    "PS5: HDMI port loose, no picture",
  );
  await page.getByLabel("Brand").fill("Sony");
  await page.getByLabel("Model").fill("PS5");
  await page.getByLabel("Condition at intake").fill("Scuffed corners");
  await page.getByLabel("Accessories left with the device (optional)").fill("Power cable");
  await page.getByRole("button", { name: "Open ticket" }).click();
  const label = await ticketOnPage(page);
  await expect(page.getByText(`Ticket ${label} is open. ${email} was sent`)).toBeVisible();
  await waitForMail(email, new RegExp(`^Repair ${label}: we have your Sony PS5 game console$`));

  // The booking now names its ticket instead of offering another.
  await page.goto(bookingUrl);
  await expect(page.getByRole("link", { name: label })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open a ticket" })).toHaveCount(0);

  // The claim ticket: the number, the device and a QR code of the customer's link.
  await page.getByRole("link", { name: label }).click();
  await page.getByRole("link", { name: "Print claim ticket" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: `Claim ticket ${label}` }),
  ).toBeVisible();
  await expect(page.getByText("Sony PS5 game console", { exact: true })).toBeVisible();
  const qr = page.getByRole("img", { name: `QR code of the status page for ticket ${label}` });
  await expect(qr.locator("svg")).toBeVisible();
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await expectAxeClean(page);
  // On paper the ticket is alone: no menus, no buttons.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Back office" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(qr.locator("svg")).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  await page.getByRole("link", { name: `Back to ticket ${label}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Ticket ${label}` })).toBeVisible();
  await expectAxeClean(page);
  await page.getByRole("button", { name: "Start diagnosing" }).click();
  await expect(page.getByText(`Ticket ${label} is now "Diagnosing".`)).toBeVisible();

  await sendEstimate(page, [
    { what: "Replace the HDMI port", price: "60" },
    { kind: "part", what: "HDMI port", price: "12.50" },
  ]);
  await expect(page.getByText(/^Estimate 1 \(\$78\.48\) was sent to /)).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "Estimate 1: Waiting for the customer" }),
  ).toBeVisible();

  // The customer approves from the e-mail's link, without signing in.
  const { customer, path } = await customerOpensEstimate(browser, email, 1);
  await expect(customer.getByRole("heading", { name: "Now: Estimate sent" })).toBeVisible();
  await expect(customer.getByText("Replace the HDMI port")).toBeVisible();
  await expect(customer.getByRole("row", { name: /Total/ })).toContainText("$78.48");
  await expect(customer.getByText("Shop Owner")).toHaveCount(0);
  await expectAxeClean(customer);
  const estimateId = await customer.locator('input[name="estimateId"]').inputValue();
  await customer.getByRole("button", { name: "Approve the estimate" }).click();
  await expect(customer.getByText("Thank you: you approved the estimate of $78.48.")).toBeVisible();
  await expect(customer.getByRole("heading", { name: "Now: Approved" })).toBeVisible();
  await expect(customer.getByRole("button", { name: "Approve the estimate" })).toHaveCount(0);
  // Approving again changes nothing.
  const again = await customer.request.post(path, {
    form: { estimateId, decision: "declined" },
    headers: { Origin: new URL(customer.url()).origin },
  });
  expect(again.status()).toBe(409);
  expect(await again.text()).toContain("You already approved this estimate.");
  // Posting on and on from one connection is slowed down, with a message saying so.
  let status = 409;
  let answer = "";
  for (let tries = 0; tries < 12 && status === 409; tries++) {
    const response = await customer.request.post(path, {
      form: { estimateId, decision: "declined" },
      headers: { Origin: new URL(customer.url()).origin },
    });
    status = response.status();
    answer = await response.text();
  }
  expect(status).toBe(429);
  expect(answer).toContain("Too many tries from your connection.");
  await customer.close();

  await page.reload();
  await expect(page.getByRole("heading", { name: "Estimate 1: Approved" })).toBeVisible();
  await expect(page.getByText("Estimate sent → Approved by the customer")).toBeVisible();
  await page.getByRole("button", { name: "Start the repair" }).click();
  await expect(page.getByText(`Ticket ${label} is now "Repairing".`)).toBeVisible();
  await page.getByRole("button", { name: "Mark ready for pickup" }).click();
  await expect(page.getByText(`Ticket ${label} is now "Ready for pickup".`)).toBeVisible();
  await waitForMail(email, new RegExp(`^Repair ${label}: your Sony PS5 game console is ready`));

  await expect(page.getByLabel("Amount paid ($)")).toHaveValue("78.48");
  await page.getByLabel("Paid by", { exact: true }).selectOption("Card");
  await page.getByRole("button", { name: "Mark collected" }).click();
  await expect(page.getByText(`Ticket ${label} is collected and closed.`)).toBeVisible();
  await expect(page.getByText("Card, $78.48")).toBeVisible();
  await expect(page.getByText("Nothing left to do for this ticket.")).toBeVisible();
});

test("a walk-in at the counter, found on the board by its tab and by search", async ({ page }) => {
  await signInAsAdmin(page, "ticket-walkin");
  await page.goto("/admin/repairs");
  await expect(page.getByRole("link", { name: /^Open \d+$/ })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.getByRole("link", { name: "New ticket" }).click();
  await expect(page.getByRole("heading", { name: "New repair ticket" })).toBeVisible();
  await expectAxeClean(page);

  // A mistake first: messages next to the fields, and what was typed stays.
  await page.getByLabel("Name").fill("Walter Inn");
  await page.getByLabel("Promised date").fill("2020-01-01");
  await page.getByRole("button", { name: "Open ticket" }).click();
  await expect(page.getByText("Please enter the brand.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Walter Inn");
  // The form is about the customer, so its messages say so.
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription(
    "Enter the customer's e-mail address.",
  );
  await expect(page.getByLabel("Phone")).toHaveAccessibleDescription(
    "Enter the customer's phone number.",
  );
  await expect(page.getByText(/your (name|email)/i)).toHaveCount(0);

  const email = uniqueEmail("ticket-walkin");
  const serial = `IMEI${Date.now()}`;
  // A file that only claims to be a photo: the message is next to the field, the rest stays.
  await page.goto("/admin/repairs/new");
  await fillWalkIn(page, email, serial);
  const photos = page.getByLabel("Photos of the device (optional)");
  await photos.setInputFiles({
    name: "IMG_0041.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("<html><script>alert(1)</script></html>"),
  });
  await page.getByRole("button", { name: "Open ticket" }).click();
  await expect(photos).toHaveAccessibleDescription(
    /IMG_0041\.jpg: The photo must be a JPEG, PNG, WebP or AVIF image\./,
  );
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Serial number or IMEI (optional)")).toHaveValue(serial);

  await photos.setInputFiles(await devicePhoto());
  await page.getByRole("button", { name: "Open ticket" }).click();
  const label = await ticketOnPage(page);
  await expect(page.getByText("Checked in", { exact: true }).first()).toBeVisible();
  // Staff see the photo as a thumbnail, re-encoded and served privately.
  const thumbnail = page.getByRole("img", { name: `Intake photo 1 of ${label}` });
  await expect(thumbnail).toBeVisible();
  await expect
    .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(1600);
  const served = await page.request.get((await thumbnail.getAttribute("src"))!);
  expect(served.headers()["content-type"]).toBe("image/webp");
  expect(served.headers()["cache-control"]).toBe("private, no-store");
  await expectAxeClean(page);

  await page.getByRole("link", { name: "Repairs", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Repairs", level: 1 })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: label })).toContainText("Walter Inn");
  await expectAxeClean(page);

  await page.getByRole("link", { name: /^Checked in \d+$/ }).click();
  await expect(page.getByRole("link", { name: /^Checked in \d+$/ })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByRole("link", { name: label, exact: true })).toBeVisible();
  await page.getByRole("link", { name: /^Diagnosing \d+$/ }).click();
  await expect(page.getByRole("heading", { name: "Tickets: Diagnosing" })).toBeVisible();
  await expect(page.getByRole("link", { name: label, exact: true })).toHaveCount(0);

  // Search finds it by serial and by its number, whatever the tab.
  const search = page.getByRole("searchbox", {
    name: "Search by ticket number, name, phone or serial",
  });
  await search.fill(serial);
  await expect(page.getByRole("heading", { name: `Tickets matching “${serial}”` })).toBeVisible();
  await expect(page.getByRole("link", { name: label, exact: true })).toBeVisible();
  await search.fill(label);
  await expect(page.getByRole("heading", { name: `Tickets matching “${label}”` })).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2);
});

test("a declined estimate: the newer one replaces the first, the customer declines, the device goes back unrepaired; a stale move is refused", async ({
  page,
  browser,
}) => {
  await signInAsAdmin(page, "ticket-declined");
  const email = uniqueEmail("ticket-declined");
  const label = await openWalkIn(page, email, `SN${Date.now()}`);

  // Someone else moves the ticket while this page still shows "Checked in".
  await page.request.post(page.url().split("?")[0]!, {
    form: { intent: "move", from: "checked_in", to: "diagnosing", note: "" },
    headers: { Origin: new URL(page.url()).origin },
  });
  await page.getByRole("button", { name: "Start diagnosing" }).click();
  await expect(page.getByText(/someone else just changed it/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Start diagnosing" })).toHaveCount(0);

  // Five rows to begin with; "Add line" adds one at a time, up to 20, into the new row.
  await expect(page.getByRole("group", { name: /^Line \d+$/ })).toHaveCount(5);
  const addLine = page.getByRole("button", { name: "Add line" });
  await addLine.click();
  await expect(page.getByRole("combobox", { name: "Line 6 Kind" })).toBeFocused();
  await expect(page.getByRole("textbox", { name: "Line 6 Description" })).toBeVisible();
  for (let lines = 7; lines <= 20; lines++) await addLine.click();
  await expect(page.getByRole("combobox", { name: "Line 20 Kind" })).toBeFocused();
  await expect(page.getByRole("group", { name: /^Line \d+$/ })).toHaveCount(20);
  await expect(addLine).toHaveCount(0);
  await expect(page.getByText("An estimate has at most 20 lines.")).toBeVisible();
  await sendEstimate(page, [
    { what: "Replace the screen", price: "150" },
    ...Array.from({ length: 19 }, (_, line) => ({ what: `Screw ${line + 1}`, price: "0.10" })),
  ]);
  await expect(page.getByText(/^Estimate 1 \(/)).toBeVisible();
  const first = page.getByRole("listitem").filter({ hasText: "Estimate 1: Waiting" });
  await expect(first.getByText("Screw 19")).toBeVisible();
  // The form starts again with five rows.
  await expect(page.getByRole("group", { name: /^Line \d+$/ })).toHaveCount(5);
  // The most an estimate can total, tax included: $92,378.75 + $7,621.25 of tax.
  await sendEstimate(page, [{ what: "Replace the screen (refurbished)", price: "92378.75" }]);
  await expect(page.getByText(/^Estimate 2 \(\$100,000\.00\) was sent to /)).toBeVisible();

  const { customer } = await customerOpensEstimate(browser, email, 2);
  await expect(customer.getByText("Replace the screen (refurbished)")).toBeVisible();
  await expect(
    customer.getByRole("heading", { name: "Estimate 1: Replaced by a newer estimate" }),
  ).toBeVisible();
  // While the work is ahead, the page says when it should be done; once declined, it does not.
  await expect(customer.getByText(/^We aim to have it ready by /)).toBeVisible();
  await customer.getByRole("button", { name: "Decline" }).click();
  await expect(customer.getByText("You declined the estimate.").first()).toBeVisible();
  await expect(customer.getByRole("heading", { name: "Now: Declined" })).toBeVisible();
  await expect(customer.getByText(/We aim to have it ready/)).toHaveCount(0);
  await customer.close();

  await page.reload();
  await expect(page.getByRole("heading", { name: "Estimate 2: Declined" })).toBeVisible();
  await page.getByLabel("Note (optional)").fill("Handed back at the counter");
  await page.getByRole("button", { name: "Return unrepaired" }).click();
  await expect(page.getByText(`Ticket ${label} is now "Returned unrepaired".`)).toBeVisible();
  await expect(page.getByText("Handed back at the counter")).toBeVisible();

  // A forged link shows nothing.
  const forged = await page.goto(`/repairs/${label}/not-the-token`);
  expect(forged?.status()).toBe(404);
});

test("a customer with an account finds the repair on My Account; the dashboard counts tickets", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("ticket-account");
  const customer = await (await browser.newContext()).newPage();
  await signedInCustomer(customer, email, "Repair-Tracker-Pass-5", "Cora", "Counter");

  await signInAsAdmin(page, "ticket-account");
  const label = await openWalkIn(page, email, `AC${Date.now()}`);

  await customer.goto("/account");
  await expect(customer.getByRole("heading", { name: "Repairs" })).toBeVisible();
  await customer.getByRole("link", { name: `See repair ${label}` }).click();
  await expect(customer.getByRole("heading", { name: "Now: Checked in" })).toBeVisible();
  await expect(customer.getByText(`Repair ${label}`, { exact: true })).toBeVisible();
  await customer.close();

  await page.goto("/admin");
  const tickets = page.getByRole("region", { name: "Repair tickets" });
  await expect(tickets.getByRole("link", { name: /^Overdue \d+$/ })).toBeVisible();
  await tickets.getByRole("link", { name: /^Waiting for approval \d+$/ }).click();
  await expect(page.getByRole("link", { name: /^Estimate sent \d+$/ })).toHaveAttribute(
    "aria-current",
    "page",
  );
});

test("a new estimate while the customer's page is open: the refused tap brings it to the page, and the next tap decides it", async ({
  page,
  browser,
}) => {
  await signInAsAdmin(page, "ticket-replaced");
  const email = uniqueEmail("ticket-replaced");
  await openWalkIn(page, email, `RP${Date.now()}`);
  await page.getByRole("button", { name: "Start diagnosing" }).click();
  await sendEstimate(page, [{ what: "Replace the battery", price: "40" }]);
  await expect(page.getByText(/^Estimate 1 \(\$43\.30\) was sent to /)).toBeVisible();
  const { customer } = await customerOpensEstimate(browser, email, 1);
  await expect(customer.getByText(/^Estimate 1: Waiting for your decision/)).toBeVisible();

  // The shop replaces the estimate while the customer's page still shows the first one: the
  // refused tap brings the new estimate to the page, and the next tap decides it.
  await sendEstimate(page, [{ what: "Replace the battery and the port", price: "55" }]);
  await expect(page.getByText(/^Estimate 2 \(\$59\.54\) was sent to /)).toBeVisible();
  await customer.getByRole("button", { name: "Approve the estimate" }).click();
  await expect(
    customer.getByText(
      "This estimate was replaced by a newer one: please decide on the estimate shown now.",
    ),
  ).toBeVisible();
  await expect(customer.getByText("Replace the battery and the port")).toBeVisible();
  await expect(customer.getByText(/^Estimate 2: Waiting for your decision/)).toBeVisible();
  await customer.getByRole("button", { name: "Approve the estimate" }).click();
  await expect(customer.getByText("Thank you: you approved the estimate of $59.54.")).toBeVisible();
  await customer.close();
});

test("collected for another amount with a reason; the receipt by e-mail and on paper", async ({
  page,
  browser,
}) => {
  await signInAsAdmin(page, "ticket-receipt");
  const email = uniqueEmail("ticket-receipt");
  const label = await openWalkIn(page, email, `RC${Date.now()}`);
  await page.getByRole("button", { name: "Start diagnosing" }).click();
  await sendEstimate(page, [{ what: "Replace the battery and the port", price: "55" }]);
  await expect(page.getByText(/^Estimate 1 \(\$59\.54\) was sent to /)).toBeVisible();
  const { customer, path } = await customerOpensEstimate(browser, email, 1);
  await customer.getByRole("button", { name: "Approve the estimate" }).click();
  await expect(customer.getByText("Thank you: you approved the estimate of $59.54.")).toBeVisible();

  await page.reload();
  await page.getByRole("button", { name: "Start the repair" }).click();
  await expect(page.getByText(`Ticket ${label} is now "Repairing".`)).toBeVisible();
  // The answer comes with the page it describes: while the ticket is read again, the page
  // still shows the repair's forms, and no answer that would speak of another stage beside them.
  const { reading, release } = await holdReadingAgain(page);
  await page.getByRole("button", { name: "Mark ready for pickup" }).click();
  await reading;
  await frames(page, 3);
  await expect(page.getByLabel("Deposit paid by")).toBeVisible();
  await expect(page.getByText(`Ticket ${label} is now "Ready for pickup".`)).toHaveCount(0);
  release();
  await expect(page.getByText(`Ticket ${label} is now "Ready for pickup".`)).toBeVisible();
  await expect(page.getByRole("region", { name: "Collected by the customer" })).toBeVisible();
  await expect(page.getByLabel("Deposit paid by")).toHaveCount(0);
  await customer.reload();
  await expect(customer.getByRole("heading", { name: "Now: Ready for pickup" })).toBeVisible();
  await expect(customer.getByText(/We aim to have it ready/)).toHaveCount(0);

  // Less than the approved total: the counter is asked why, and what was typed stays.
  await expect(page.getByLabel("Amount paid ($)")).toHaveValue("59.54");
  // By card: cash would go into the till, which this test leaves to the counter's own.
  await page.getByLabel("Paid by", { exact: true }).selectOption("Card");
  await page.getByLabel("Amount paid ($)").fill("1.00");
  await page.getByRole("button", { name: "Mark collected" }).click();
  const reason = page.getByLabel("Reason for another amount");
  await expect(reason).toHaveAccessibleDescription(
    /The approved total is \$59\.54: say why \$1\.00 was taken\./,
  );
  await expect(page.getByLabel("Amount paid ($)")).toHaveValue("1.00");
  await reason.fill("Goodwill: the repair took a week longer than promised");
  await page.getByRole("button", { name: "Mark collected" }).click();
  await expect(page.getByText(`Ticket ${label} is collected and closed.`)).toBeVisible();
  const details = page.getByRole("region", { name: "Customer and device" });
  await expect(details.getByText("Card, $1.00")).toBeVisible();
  await expect(
    details.getByText(
      "$58.54 less than the approved $59.54: Goodwill: the repair took a week longer than promised",
    ),
  ).toBeVisible();

  // The receipt: e-mailed, shown on the status page, printable on a page of its own.
  const receipt = await waitForMail(email, new RegExp(`^Repair ${label}: your receipt$`));
  expect(receipt.text).toContain("Amount paid: $1.00");
  expect(receipt.text).toContain("Paid by: Card");
  expect(receipt.text).toContain("Approved estimate: $59.54");
  expect(receipt.text).not.toContain("Goodwill");
  await customer.goto(path);
  await expect(customer.getByRole("heading", { name: "Now: Collected" })).toBeVisible();
  await expect(customer.getByText(/^Paid \$1\.00 \(Card\) on /)).toBeVisible();
  await customer.getByRole("link", { name: "Print your receipt" }).click();
  await expect(
    customer.getByRole("heading", { level: 1, name: `Receipt for repair ${label}` }),
  ).toBeVisible();
  await expect(customer.getByRole("row", { name: /Amount paid/ })).toContainText("$1.00");
  await expect(customer.getByRole("row", { name: /Paid by/ })).toContainText("Card");
  await expectAxeClean(customer);
  await customer.emulateMedia({ media: "print" });
  await expect(customer.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(customer.getByRole("contentinfo")).toBeHidden();
  await expect(customer.getByRole("row", { name: /Amount paid/ })).toBeVisible();
  await customer.close();

  // Staff print the same receipt at the counter; the dashboard counts the other amount.
  await expect(page.getByRole("link", { name: "Print receipt" })).toHaveAttribute(
    "href",
    `${path}/receipt`,
  );
  await page.goto("/admin");
  await expect(
    page
      .getByRole("region", { name: "Repair tickets" })
      .getByRole("link", { name: /^Collected for another amount, last 7 days [1-9]\d*$/ }),
  ).toBeVisible();
});

test("staff correct a ticket's details, each change in its history; a returning customer is found at intake", async ({
  page,
}) => {
  await signInAsAdmin(page, "ticket-correct");
  const typo = uniqueEmail("ticket-typo");
  const email = uniqueEmail("ticket-correct");
  const label = await openWalkIn(page, typo, `CO${Date.now()}`);
  // Parts are late: the promised day has passed.
  await backdatePromise(Number(label.slice(2)), 2);
  await page.reload();
  await expect(page.getByText("Overdue", { exact: true })).toBeVisible();

  await page.getByRole("link", { name: "Correct details" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: `Correct ticket ${label}` }),
  ).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(typo);
  await expectAxeClean(page);
  // A mistake: the message is next to the field and what was typed stays.
  await page.getByLabel("Name").fill("");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Save corrections" }).click();
  await expect(page.getByLabel("Name")).toHaveAccessibleDescription("Enter the customer's name.");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await page.getByLabel("Name").fill("Walter Inn");
  await page.getByLabel("Phone").fill("(817) 555-0178");
  const promised = page.getByLabel("Promised date");
  const later = await dateAhead(page, 7, "Promised date");
  await promised.fill(later);
  await page.getByLabel("Why (optional)").fill("Parts are late");
  await page.getByRole("button", { name: "Save corrections" }).click();

  await expect(
    page.getByText(`Ticket ${label} is corrected: E-mail, Phone, Promised date.`),
  ).toBeVisible();
  await expect(page.getByText("Overdue", { exact: true })).toHaveCount(0);
  const details = page.getByRole("region", { name: "Customer and device" });
  await expect(details.getByRole("link", { name: email })).toBeVisible();
  const history = page.getByRole("region", { name: "History" });
  await expect(history.getByText(/Details corrected by Shop Owner · Parts are late/)).toBeVisible();
  await expect(history.getByText(`E-mail: ${typo} → ${email}`)).toBeVisible();
  await expect(history.getByText("Phone: (817) 555-0177 → (817) 555-0178")).toBeVisible();
  const laterInWords = new Intl.DateTimeFormat("en-US", {
    timeZone: "UTC",
    weekday: "short",
    month: "short",
    day: "numeric",
    year: "numeric",
  }).format(new Date(`${later}T12:00:00Z`));
  await expect(
    history.getByText(new RegExp(`^Promised date: .+ → ${laterInWords}$`)),
  ).toBeVisible();
  await expectAxeClean(page);
  // The customer hears from the shop at the corrected address, with the status link.
  const mail = await waitForMail(email, new RegExp(`^Repair ${label}: follow your repair$`));
  expect(mail.text).toMatch(/\/repairs\/R-\d+\/[\w-]+/);

  // The next visit: found by phone however it is typed, not typed again.
  await page.goto("/admin/repairs/new");
  await page.getByLabel("Find a returning customer").fill("817.555.0178");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByText(`Last ticket ${label}`)).toBeVisible();
  await expectAxeClean(page);
  await page.getByRole("link", { name: `Use Walter Inn, ${email}` }).click();
  await expect(page.getByLabel("Name")).toHaveValue("Walter Inn");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Phone")).toHaveValue("(817) 555-0178");
  await expect(page.getByLabel("Brand")).toHaveValue("");
  await page.getByLabel("Find a returning customer").fill("nobody-here@example.test");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(
    page.getByText("No earlier ticket or account has that phone number or e-mail address."),
  ).toBeVisible();
});

// Without JavaScript the page never hydrates, so the plain Playwright test is used here.
plainTest.describe("without JavaScript", () => {
  plainTest.use({ javaScriptEnabled: false });

  plainTest(
    "the counter's forms and the customer's decision are plain form posts",
    async ({ page, context }, testInfo) => {
      plainTest.slow();
      await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
      await signInAsAdmin(page, "ticket-nojs");
      const email = uniqueEmail("ticket-nojs");
      const label = await openWalkIn(page, email, `NJ${Date.now()}`);
      await page.getByRole("button", { name: "Start diagnosing" }).click();
      await expect(page.getByText(`Ticket ${label} is now "Diagnosing".`)).toBeVisible();
      // A price that is not one: the message is next to its field and the lines stay as typed.
      await sendEstimate(page, [{ what: "Replace the battery", price: "a lot" }]);
      const line = page.getByRole("group", { name: "Line 1", exact: true });
      await expect(line.getByText("Please enter a price, e.g. 49.99.")).toBeVisible();
      await expect(line.getByLabel("Description")).toHaveValue("Replace the battery");
      // At the form's own limits (999 × $100,000) and one cent over the most an estimate can
      // total: a message, the lines as typed, and nothing sent.
      await line.getByLabel("Qty").fill("999");
      await line.getByLabel("Unit price ($)").fill("100000");
      await page.getByRole("button", { name: "Send estimate" }).click();
      await expect(
        page.getByText(
          "An estimate can total at most $100,000.00 with tax; this one totals $108,141,750.00.",
        ),
      ).toBeVisible();
      await expect(line.getByLabel("Qty")).toHaveValue("999");
      await line.getByLabel("Qty").fill("1");
      await line.getByLabel("Unit price ($)").fill("92378.76");
      await page.getByRole("button", { name: "Send estimate" }).click();
      await expect(page.getByText(/this one totals \$100,000\.01\.$/)).toBeVisible();
      await expect(page.getByRole("heading", { name: /^Estimate 1:/ })).toHaveCount(0);
      await line.getByLabel("Unit price ($)").fill("40");
      await page.getByRole("button", { name: "Send estimate" }).click();
      await expect(page.getByText(/^Estimate 1 \(\$43\.30\) was sent to /)).toBeVisible();

      // A correction is a plain form post too, and the history says what changed.
      await page.getByRole("link", { name: "Correct details" }).click();
      await page.getByLabel("Model").fill("iPhone 13 mini");
      await page.getByRole("button", { name: "Save corrections" }).click();
      await expect(page.getByText(`Ticket ${label} is corrected: Model.`)).toBeVisible();
      await expect(page.getByText("Model: iPhone 13 → iPhone 13 mini")).toBeVisible();

      // The returning customer is found by e-mail without JavaScript.
      await page.goto("/admin/repairs/new");
      await page.getByLabel("Find a returning customer").fill(email);
      await page.getByRole("button", { name: "Find" }).click();
      await page.getByRole("link", { name: `Use Walter Inn, ${email}` }).click();
      await expect(page.getByLabel("Name")).toHaveValue("Walter Inn");
      await expect(page.getByLabel("Email")).toHaveValue(email);
      await expect(page.getByLabel("Phone")).toHaveValue("(817) 555-0177");

      const mail = await waitForMail(email, /your estimate of \$43\.30/);
      const link = mail.text.match(/https?:\/\/\S+\/repairs\/R-\d+\/[\w-]+/)![0];
      await page.goto(new URL(link).pathname);
      await page.getByRole("button", { name: "Approve the estimate" }).click();
      await expect(page.getByText("Thank you: you approved the estimate of $43.30.")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Now: Approved" })).toBeVisible();
    },
  );
});
