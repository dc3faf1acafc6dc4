import { test as plainTest, type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { confirmBookingFromMail, dateAhead } from "./support/repairs.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  // Dialogs and menus fade in; axe must not judge their colours halfway through.
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

async function sendContactMessage(page: Page, email: string, message: string) {
  await page.goto("/contact");
  await page.getByLabel("Name").fill("Rosa Reader");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Message").fill(message);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Thank you! Your message was sent.")).toBeVisible();
}

/** The inbox filtered the way a person does it: the two selects and the Show button. */
async function showInbox(
  page: Page,
  kind: "all" | "contact" | "repair",
  state: "open" | "handled" | "all",
) {
  await page.getByLabel("Kind").selectOption(kind);
  await page.getByLabel("State").selectOption(state);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`kind=${kind}&state=${state}`));
}

test("a contact message: the admin finds it unread, replies by e-mail and marks it handled", async ({
  page,
}) => {
  const email = uniqueEmail("inbox-visitor");
  const question = `Do you repair PlayStation 2 consoles? ${email}`;
  await sendContactMessage(page, email, question);

  await signInAsAdmin(page, "inbox-owner");
  const inboxLink = page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: /^Inbox\s*\d+ open$/ });
  await expect(inboxLink).toBeVisible();
  await inboxLink.click();
  await expect(page.getByRole("heading", { name: "Inbox", exact: true })).toBeVisible();
  await showInbox(page, "contact", "open");
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Message");
  await expect(row).toContainText("Rosa Reader");
  await expect(row).toContainText("Open");
  await expect(row.getByText("New", { exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await row.getByRole("link", { name: /Do you repair PlayStation 2 consoles\?/ }).click();
  await expect(page.getByRole("heading", { name: "Message from Rosa Reader" })).toBeVisible();
  await expect(page.getByText(question)).toBeVisible();
  await expect(page.getByText("No replies yet.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // A reply without text is refused next to the field; the choice made stays.
  const markHandled = page.getByRole("checkbox", { name: "Mark as handled" });
  await expect(markHandled).toBeChecked();
  await markHandled.uncheck();
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByText("Please write a reply.")).toBeVisible();
  await expect(page.getByLabel("Your reply")).toHaveAttribute("aria-invalid", "true");
  await expect(markHandled).not.toBeChecked();

  const answer = `Yes, we repair them. Bring it in any weekday. (${Date.now()})`;
  await page.getByLabel("Your reply").fill(answer);
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByText(`Your reply was sent to ${email}.`)).toBeVisible();
  await expect(page.getByLabel("Your reply")).toHaveValue("");
  const replies = page.getByRole("region", { name: "Replies" });
  await expect(replies.getByRole("listitem")).toHaveCount(1);
  await expect(replies).toContainText(answer);
  await expect(replies).toContainText("Shop Owner");
  const mail = await waitForMail(email, /^Re: your message to Reel & Repair$/);
  expect(mail.text).toContain(answer);
  // The sender's address is unproven: the reply quotes none of their words, not even their name.
  expect(mail.text).toContain("Hello,");
  expect(mail.text).not.toContain("Rosa");
  expect(mail.text).not.toContain("PlayStation");
  await expect(page.getByText("Open: not handled yet.")).toBeVisible();

  await page.getByRole("button", { name: "Mark as handled" }).click();
  await expect(page.getByText("Marked as handled.")).toBeVisible();
  await expect(page.getByText(/^Handled by Shop Owner on /)).toBeVisible();
  await expect(page.getByRole("button", { name: "Reopen" })).toBeVisible();

  // It has left the open list, and waits, read, among the handled ones.
  await page.getByRole("link", { name: "Back to Inbox" }).click();
  await showInbox(page, "contact", "open");
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(0);
  await showInbox(page, "contact", "handled");
  const handled = page.getByRole("row").filter({ hasText: email });
  await expect(handled).toContainText("Handled");
  await expect(handled.getByText("New", { exact: true })).toHaveCount(0);

  // Posts the page never makes: an unknown intent is a 400 with a JSON error, a bad id a 404.
  const itemPath = (await handled.getByRole("link").getAttribute("href"))!;
  const post = (path: string, intent: string) =>
    page.request.post(path, {
      form: { intent },
      headers: { Origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
  const unknown = await post(itemPath, "archive");
  expect(unknown.status()).toBe(400);
  expect(await unknown.text()).toContain("Unknown action.");
  expect((await post("/admin/inbox/order/1", "handled")).status()).toBe(404);
  expect((await post("/admin/inbox/contact/99999999", "handled")).status()).toBe(404);
});

test("a repair request: the admin opens it and cancels the booking after confirming", async ({
  page,
}) => {
  const email = uniqueEmail("inbox-repair");
  await page.goto("/service-request-form");
  await page.getByLabel("Preferred date").fill(await dateAhead(page, 22));
  await expect(page.getByLabel("Preferred time").locator("option")).not.toHaveCount(1);
  await page.getByLabel("Name").fill("Rhea Pair");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("(817) 555-0199");
  await page.getByLabel("Service").selectOption("Game Console Repair");
  await page.getByLabel("Device and problem").fill(`PS5: HDMI port loose (${email})`);
  const time = page.getByLabel("Preferred time");
  await time.selectOption((await time.locator("option").nth(1).getAttribute("value"))!);
  await page.getByRole("button", { name: "Book Appointment" }).click();
  await expect(page.getByRole("heading", { name: "Request Submitted!" })).toBeVisible();

  // Staff see a visitor's booking only once its address confirmed it.
  await signInAsAdmin(page, "inbox-owner");
  await page.goto("/admin/inbox?kind=repair&state=all");
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(0);
  await confirmBookingFromMail(page, email);
  await waitForMail(email, /^Your repair appointment/);

  await page.goto("/admin/inbox");
  await showInbox(page, "repair", "open");
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Repair request");
  await row.getByRole("link", { name: /^Game Console Repair · / }).click();

  await expect(page.getByRole("heading", { name: "Repair request from Rhea Pair" })).toBeVisible();
  await expect(page.getByText(`PS5: HDMI port loose (${email})`)).toBeVisible();
  await expect(page.getByText("(817) 555-0199")).toBeVisible();
  await expect(page.getByText("Booked", { exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Keeping the booking from the dialog changes nothing.
  await page.getByRole("button", { name: "Cancel booking…" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this booking?" });
  await expect(dialog).toContainText("Rhea Pair's Game Console Repair appointment");
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Keep the booking" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Booked", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Cancel booking…" }).click();
  await dialog.getByRole("button", { name: "Cancel booking", exact: true }).click();
  await expect(page.getByText(`The booking is cancelled; ${email} was sent`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Cancelled by the shop on /)).toBeVisible();
  await expect(page.getByText(/^Handled by Shop Owner on /)).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel booking…" })).toHaveCount(0);

  const cancellation = await waitForMail(email, /^Cancelled: your repair appointment/);
  const ics = cancellation.attachments?.find((file) => file.filename.endsWith(".ics"));
  expect(ics?.content).toMatch(/^METHOD:CANCEL\r?$/m);
  expect(ics?.content).toContain("STATUS:CANCELLED");

  // In the list it is handled and shows that it was cancelled.
  await page.getByRole("link", { name: "Back to Inbox" }).click();
  await showInbox(page, "repair", "all");
  const cancelled = page.getByRole("row").filter({ hasText: email });
  await expect(cancelled).toContainText("Handled");
  await expect(cancelled).toContainText("Cancelled");

  // An item that does not exist is a 404 page, never an error.
  const missing = await page.goto("/admin/inbox/repair/99999999");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

// Without JavaScript the page never hydrates, so the plain Playwright test is used here.
plainTest.describe("without JavaScript", () => {
  plainTest.use({ javaScriptEnabled: false });

  plainTest(
    "the filter, the reply and the cancel confirmation work as plain forms",
    async ({ page, context }, testInfo) => {
      plainTest.slow();
      await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
      const email = uniqueEmail("inbox-nojs");
      await sendContactMessage(page, email, `Sent without scripts from ${email}`);

      await page.goto("/service-request-form");
      await page.getByLabel("Name").fill("Noel Script");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Phone").fill("817-555-0123");
      await page.getByLabel("Service").selectOption("PC & Laptop Repair");
      await page.getByLabel("Device and problem").fill("Laptop fan grinds");
      await page.getByLabel("Preferred date").fill(await dateAhead(page, 27));
      await page.getByRole("button", { name: "Show times for this date" }).click();
      const time = page.getByLabel("Preferred time");
      await time.selectOption((await time.locator("option").nth(1).getAttribute("value"))!);
      await page.getByRole("button", { name: "Book Appointment" }).click();
      await expect(page.getByRole("heading", { name: "Request Submitted!" })).toBeVisible();
      await confirmBookingFromMail(page, email);

      await signInAsAdmin(page, "inbox-owner");
      await page.goto("/admin/inbox");
      await showInbox(page, "contact", "all");
      await page
        .getByRole("row")
        .filter({ hasText: email })
        .getByRole("link", { name: /^Sent without scripts/ })
        .click();
      await expect(page.getByRole("heading", { name: "Message from Rosa Reader" })).toBeVisible();
      await page.getByRole("button", { name: "Send reply" }).click();
      await expect(page.getByText("Please write a reply.")).toBeVisible();
      await page.getByLabel("Your reply").fill("Thanks, noted.");
      await page.getByRole("button", { name: "Send reply" }).click();
      await expect(
        page.getByText(`Your reply was sent to ${email} and this is marked handled.`),
      ).toBeVisible();
      expect((await waitForMail(email, /^Re: your message/)).text).toContain("Thanks, noted.");

      await page.goto("/admin/inbox?kind=repair&state=open");
      await page
        .getByRole("row")
        .filter({ hasText: email })
        .getByRole("link", { name: /^PC & Laptop Repair · / })
        .click();
      await page.getByRole("button", { name: "Cancel booking…" }).click();
      await expect(page).toHaveURL(/confirm=cancel/);
      await expect(page.getByText("Noel Script's PC & Laptop Repair appointment")).toBeVisible();
      await page.getByRole("button", { name: "Cancel booking", exact: true }).click();
      await expect(page.getByText(`The booking is cancelled; ${email} was sent`)).toBeVisible();
      await expect(page.getByText(/^Cancelled by the shop on /)).toBeVisible();
      const cancellation = await waitForMail(email, /^Cancelled: your repair appointment/);
      expect(cancellation.attachments?.some((file) => file.content.includes("METHOD:CANCEL"))).toBe(
        true,
      );
    },
  );
});
