import { test as plainTest } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress } from "./support/accounts.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { seriousViolations } from "./support/axe.ts";

test.beforeEach(async ({ context, page }, testInfo) => {
  // Dialogs and menus fade in; axe must not judge their colours halfway through.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

test("a message reaches the shop's inbox; mistakes are explained and what was typed stays", async ({
  page,
}) => {
  const email = uniqueEmail("contact");
  await page.goto("/contact");
  await expect(page.getByRole("heading", { name: "Contact Us" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel("Name").fill("Rosa Reader");
  await page.getByLabel("Email").fill("not-an-address");
  await page.getByLabel("Message").fill("Do you repair\nPlayStation 2 consoles?");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue("Do you repair\nPlayStation 2 consoles?");

  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Thank you! Your message was sent.")).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue("");

  const mail = await waitForMail(
    "hello@reelandrepair.example",
    /Contact message from Rosa Reader/,
    {
      containing: email,
    },
  );
  expect(mail.text).toContain(email);
  expect(mail.text).toContain("PlayStation 2 consoles?");
});

// Without JavaScript the page never hydrates, so the plain Playwright test is used here.
plainTest.describe("without JavaScript", () => {
  plainTest.use({ javaScriptEnabled: false });

  plainTest("the contact form still works", async ({ page }) => {
    await page.goto("/contact");
    await page.getByLabel("Name").fill("Nora Script");
    await page.getByLabel("Email").fill(uniqueEmail("nojs"));
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Please enter a message.")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("Nora Script");
    await page.getByLabel("Message").fill("Sent from a browser without scripts.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Thank you! Your message was sent.")).toBeVisible();
  });
});
