import { expect, type Page } from "@playwright/test";
import { waitForMail } from "./mailbox.ts";

/**
 * Confirms a visitor's booking the way its owner does: the link from the "confirm" e-mail, then
 * the button on its page. Returns that e-mail.
 */
export async function confirmBookingFromMail(page: Page, email: string) {
  const request = await waitForMail(email, /^Confirm your repair appointment$/);
  const link = request.text.match(/https?:\/\/\S+\/service-request\/confirm\/[A-Za-z0-9_-]+/)![0];
  await page.goto(new URL(link).pathname);
  await page.getByRole("button", { name: "Confirm appointment" }).click();
  await expect(page.getByText("Your appointment is confirmed.")).toBeVisible();
  return { request, link };
}

/**
 * A date some days after the one a form's date field (the booking form's, unless named) holds (never a Sunday, when the shop
 * is closed). Each test that books keeps to an offset of its own, so that none takes the places
 * of a slot another test counts on, whatever the time of day the suite runs at.
 */
export async function dateAhead(page: Page, days: number, field = "Preferred date") {
  const date = await page.getByLabel(field).inputValue();
  const later = new Date(`${date}T12:00:00Z`);
  later.setUTCDate(later.getUTCDate() + days);
  if (later.getUTCDay() === 0) later.setUTCDate(later.getUTCDate() + 1);
  return later.toISOString().slice(0, 10);
}
