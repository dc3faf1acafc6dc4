import { test as plainTest, type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer } from "./support/accounts.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { confirmBookingFromMail, dateAhead } from "./support/repairs.ts";
import { seriousViolations } from "./support/axe.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  test.slow();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** Books the given (or first offered) time on the page's date; returns the time booked. */
async function book(page: Page, email: string, time?: string) {
  await page.getByLabel("Name").fill("Rhea Pair");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("(817) 555-0199");
  await page.getByLabel("Service").selectOption("Game Console Repair");
  await page.getByLabel("Device and problem").fill("PS5: HDMI port loose, no picture");
  const select = page.getByLabel("Preferred time");
  const chosen = time ?? (await select.locator("option").nth(1).getAttribute("value"))!;
  await select.selectOption(chosen);
  await page.getByRole("button", { name: "Book Appointment" }).click();
  return chosen;
}

test("book a repair as a visitor: check your e-mail, the link confirms it, both e-mails with the calendar invitation, and the cancel link frees the place", async ({
  page,
}) => {
  await page.goto("/other-services");
  await page.getByRole("link", { name: "Request a Service Appointment" }).click();
  await expect(page.getByRole("heading", { name: "Book an Appointment" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // A mistake first: what was typed stays.
  await page.getByLabel("Name").fill("Rhea Pair");
  await page.getByRole("button", { name: "Book Appointment" }).click();
  await expect(page.getByText("Please enter your email.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Rhea Pair");

  // Move to a date a week or more away so the two places of a slot are ours to fill.
  const day = await dateAhead(page, 8);
  await page.getByLabel("Preferred date").fill(day);
  await expect(page.getByLabel("Preferred time").locator("option")).not.toHaveCount(1);

  const first = uniqueEmail("repair-a");
  const time = await book(page, first);
  await expect(page.getByRole("heading", { name: "Request Submitted!" })).toBeVisible();
  await expect(page.getByText("Check your e-mail to confirm the booking.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Book Another Service" })).toBeVisible();

  // The address is not proven yet: its mail carries a link and nothing that was typed.
  const { request, link: confirmLink } = await confirmBookingFromMail(page, first);
  for (const typed of ["Rhea", "PS5", "HDMI", "555-0199"]) {
    expect(request.text).not.toContain(typed);
    expect(request.html).not.toContain(typed);
  }
  expect(request.attachments ?? []).toEqual([]);
  // The link works once.
  await page.goto(new URL(confirmLink).pathname);
  await expect(
    page.getByText("This confirmation link is not valid or was already used."),
  ).toBeVisible();

  const confirmation = await waitForMail(first, /^Your repair appointment/);
  const invitation = confirmation.attachments?.find((file) => file.filename.endsWith(".ics"));
  expect(invitation?.content).toMatch(/BEGIN:VEVENT[\s\S]*UID:[^\r\n]+/);
  expect(invitation?.content).toContain("LOCATION:1201 W Division St");
  // Opening hours are daytime in Chicago, so the UTC start falls on the same date.
  const [hour] = time.split(":");
  expect(invitation?.content).toMatch(
    new RegExp(`DTSTART:${day.replaceAll("-", "")}T(${Number(hour) + 5}|${Number(hour) + 6})0000Z`),
  );
  const uid = invitation!.content.match(/UID:([^\r\n]+)/)![1]!;
  const shopCopy = await waitForMail("hello@reelandrepair.example", /Rhea Pair/, {
    containing: first,
  });
  expect(shopCopy.text).toContain("PS5: HDMI port loose");
  expect(shopCopy.text).toContain(first);

  // The second place of the same slot, held while its link waits, then the slot is full.
  await page.goto(`/service-request-form?date=${day}`);
  await book(page, uniqueEmail("repair-b"), time);
  await expect(page.getByRole("heading", { name: "Request Submitted!" })).toBeVisible();
  await expect(page.getByText("Check your e-mail to confirm the booking.")).toBeVisible();
  await page.goto(`/service-request-form?date=${day}`);
  await expect(page.getByLabel("Preferred time").locator(`option[value="${time}"]`)).toHaveCount(0);

  // Cancelling from the e-mail frees the place, and says so in the calendar.
  const link = confirmation.text.match(/https?:\/\/\S+\/service-request\/cancel\/\S+/)![0];
  await page.goto(new URL(link).pathname);
  await page.getByRole("button", { name: "Cancel appointment" }).click();
  await expect(page.getByText("Your appointment is cancelled.")).toBeVisible();
  const cancellation = await waitForMail(first, /cancel/i);
  const cancelled = cancellation.attachments?.find((file) => file.filename.endsWith(".ics"));
  expect(cancelled?.content).toContain("METHOD:CANCEL");
  expect(cancelled?.content).toContain(`UID:${uid}`);
  await page.goto(`/service-request-form?date=${day}`);
  await expect(page.getByLabel("Preferred time").locator(`option[value="${time}"]`)).toHaveCount(1);
});

// Without JavaScript the page never hydrates, so the plain Playwright test is used here.
plainTest.describe("without JavaScript", () => {
  plainTest.use({ javaScriptEnabled: false });

  plainTest(
    "a date is chosen with 'Show times', and the booking goes through",
    async ({ page }) => {
      const email = uniqueEmail("repair-nojs");
      await page.goto("/service-request-form");
      await page.getByLabel("Name").fill("Noel Script");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Phone").fill("817-555-0123");
      await page.getByLabel("Service").selectOption("PC & Laptop Repair");
      await page.getByLabel("Device and problem").fill("Laptop fan grinds");
      await page.getByLabel("Preferred date").fill(await dateAhead(page, 15));
      await page.getByRole("button", { name: "Show times for this date" }).click();
      // What was typed came back with the times of the new date.
      await expect(page.getByLabel("Name")).toHaveValue("Noel Script");
      await expect(page.getByLabel("Device and problem")).toHaveValue("Laptop fan grinds");
      const first = await page
        .getByLabel("Preferred time")
        .locator("option")
        .nth(1)
        .getAttribute("value");
      await page.getByLabel("Preferred time").selectOption(first!);
      await page.getByRole("button", { name: "Book Appointment" }).click();
      await expect(page.getByRole("heading", { name: "Request Submitted!" })).toBeVisible();
      await expect(page.getByText("Check your e-mail to confirm the booking.")).toBeVisible();
      // The confirmation page's button is a plain form too.
      await confirmBookingFromMail(page, email);
    },
  );

  plainTest("a link that is not one the shop sent says so plainly", async ({ page }) => {
    const response = await page.goto(`/service-request/confirm/${"A".repeat(43)}`);
    expect(response?.status()).toBe(404);
    await expect(
      page.getByText("This confirmation link is not valid or was already used."),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Confirm appointment" })).toHaveCount(0);
  });
});

test("a signed-in customer with a confirmed address is booked at once and finds the appointment on My Account", async ({
  page,
}) => {
  const email = uniqueEmail("repair-customer");
  await signedInCustomer(page, email, "Repair-Customer-Pass-3", "Cora", "Customer");
  await page.goto("/service-request-form?service=TV%20%26%20Home%20Electronics");
  await page.getByLabel("Preferred date").fill(await dateAhead(page, 43));
  await expect(page.getByLabel("Preferred time").locator("option")).not.toHaveCount(1);
  await expect(page.getByLabel("Name")).toHaveValue("Cora Customer");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Service")).toHaveValue("TV & Home Electronics");
  await page.getByLabel("Phone").fill("(817) 555-0177");
  await page.getByLabel("Device and problem").fill("Soundbar hums");
  const select = page.getByLabel("Preferred time");
  await select.selectOption((await select.locator("option").nth(1).getAttribute("value"))!);
  await page.getByRole("button", { name: "Book Appointment" }).click();
  await expect(page.getByRole("heading", { name: "Request Submitted!" })).toBeVisible();
  await expect(page.getByText("Your appointment is booked.")).toBeVisible();
  await waitForMail(email, /^Your repair appointment/);

  await page.goto("/account");
  const appointments = page.getByRole("region", { name: "Upcoming repair appointments" });
  await expect(appointments).toContainText("TV & Home Electronics");
  await appointments.getByRole("link", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Cancel appointment" }).click();
  await expect(page.getByText("Your appointment is cancelled.")).toBeVisible();
  await page.goto("/account");
  await expect(page.getByRole("region", { name: "Upcoming repair appointments" })).toHaveCount(0);
});
