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
