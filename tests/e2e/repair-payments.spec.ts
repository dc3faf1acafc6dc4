import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { holdTheTill } from "./support/shop-database.ts";

// A repair's invoice, a deposit at intake and the balance: at the counter in cash, or online
// through the pay link of the "ready for pickup" e-mail.
test.describe.configure({ mode: "default" });

test.beforeEach(async ({ context, page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  test.slow();
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": clientAddress(testInfo.testId) });
});

/** axe finds nothing, of any impact, at a desktop and a phone width (in `within`, if given). */
async function expectAxeClean(page: Page, within?: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await allViolations(page, within), `${page.url()} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** The ticket page's own sections, the states this file brings about (its menu is judged elsewhere). */
const TICKET_SECTIONS = "section[aria-labelledby^='ticket-']";

/** A walk-in checked in at the repair desk; its label ("R-1042"). */
async function openWalkIn(page: Page, email: string) {
  await page.goto("/admin/repairs/new");
  await page.getByLabel("Name").fill("Paula Payer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("(817) 555-0166");
  await page.getByLabel("Service").selectOption("Mobile Phone Repair");
  await page.getByLabel("Kind of device").selectOption("Phone");
  await page.getByLabel("Brand").fill("Apple");
  await page.getByLabel("Model").fill("iPhone 12");
  await page.getByLabel("Problem, as the customer tells it").fill("Battery drains");
  await page.getByLabel("Condition at intake").fill("Fine");
  await page.getByRole("button", { name: "Open ticket" }).click();
  const heading = page.getByRole("heading", { level: 1, name: /^Ticket R-\d+$/ });
  await expect(heading).toBeVisible();
  return (await heading.textContent())!.replace("Ticket ", "");
}

/**
 * Diagnosis, an estimate of $55.00 (a part) + $8.00 labour, at 8.25 % → $68.20, approved by the
 * customer from the e-mail in a browser of their own, repaired and ready for pickup.
 */
async function repairedAndReady(page: Page, browser: Browser, email: string, label: string) {
  await page.getByRole("button", { name: "Start diagnosing" }).click();
  const first = page.getByRole("group", { name: "Line 1", exact: true });
  await first.getByLabel("Kind").selectOption("Part");
  await first.getByLabel("Description").fill("Battery");
  await first.getByLabel("Unit price ($)").fill("55");
  const second = page.getByRole("group", { name: "Line 2", exact: true });
  await second.getByLabel("Kind").selectOption("Labour");
  await second.getByLabel("Description").fill("Fitting");
  await second.getByLabel("Unit price ($)").fill("8");
  await page.getByRole("button", { name: "Send estimate" }).click();
  await expect(page.getByText(/^Estimate 1 \(\$68\.20\) was sent to /)).toBeVisible();
  const mail = await waitForMail(email, /your estimate of \$/);
  const path = new URL(mail.text.match(/https?:\/\/\S+\/repairs\/R-\d+\/[\w-]+/)![0]).pathname;
  const context = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${test.info().testId}-customer`) },
  });
  const customer = await context.newPage();
  await customer.goto(path);
  await customer.getByRole("button", { name: "Approve the estimate" }).click();
  await expect(customer.getByText("Thank you: you approved the estimate of $68.20.")).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: "Start the repair" }).click();
  await expect(page.getByText(`Ticket ${label} is now "Repairing".`)).toBeVisible();
  await page.getByRole("button", { name: "Mark ready for pickup" }).click();
  await expect(page.getByText(`Ticket ${label} is now "Ready for pickup".`)).toBeVisible();
  return { customer, path };
}

test("a deposit in cash at intake and the balance in cash at collection, both in the till", async ({
  page,
  browser,
}) => {
  const leaveTheTill = await holdTheTill();
  try {
    await signInAsAdmin(page, "repair-pay-counter");
    // The till starts afresh for this test: whatever it took before is counted and closed.
    await page.goto("/counter");
    if (await page.getByRole("link", { name: "Close the till" }).isVisible()) {
      await page.getByRole("link", { name: "Close the till" }).click();
      const expected = await page
        .getByText(/^Count the drawer, float included\. Expected: \$/)
        .textContent();
      await page
        .getByLabel("Counted cash ($)")
        .fill(expected!.match(/\$([\d,]+\.\d\d)/)![1]!.replace(",", ""));
      await page.getByRole("button", { name: "Close the till" }).click();
      await expect(page.getByRole("heading", { name: /^Z report, till \d+$/ })).toBeVisible();
      await page.goto("/counter");
    }

    // With the till closed, cash is refused next to the field; nothing is recorded.
    const email = uniqueEmail("repair-pay-counter");
    const label = await openWalkIn(page, email);
    const deposit = page.getByRole("region", { name: "Deposit" });
    await deposit.getByLabel("Deposit paid by").selectOption("Cash");
    await deposit.getByLabel("Deposit ($)").fill("20");
    await deposit.getByRole("button", { name: "Take the deposit" }).click();
    await expect(deposit.getByLabel("Deposit paid by")).toHaveAccessibleDescription(
      /The till is closed: open it at the counter to take cash/,
    );
    await expect(page.getByRole("region", { name: "Invoice" })).toHaveCount(0);

    const ticketPath = new URL(page.url()).pathname;
    await page.goto("/counter");
    await page.getByLabel("Float ($)").fill("100.00");
    await page.getByRole("button", { name: "Open the till" }).click();
    await expect(page.getByRole("link", { name: "Close the till" })).toBeVisible();

    await page.goto(ticketPath);
    await deposit.getByLabel("Deposit paid by").selectOption("Cash");
    await deposit.getByLabel("Deposit ($)").fill("20");
    await deposit.getByLabel("Cash handed over ($)").fill("50");
    await deposit.getByRole("button", { name: "Take the deposit" }).click();
    await expect(
      page.getByText(
        `A deposit of $20.00 by cash is recorded on ticket ${label}. Give $30.00 in change.`,
      ),
    ).toBeVisible();
    const invoice = page.getByRole("region", { name: "Invoice" });
    await expect(invoice.getByRole("row", { name: /^Deposit \(cash\)/ })).toContainText("$20.00");
    await expectAxeClean(page, TICKET_SECTIONS);

    const { customer } = await repairedAndReady(page, browser, email, label);
    await customer.close();
    await expect(invoice.getByRole("row", { name: "Labour" })).toContainText("$8.00");
    await expect(invoice.getByRole("row", { name: "Parts" })).toContainText("$55.00");
    await expect(invoice.getByRole("row", { name: "Sales tax (8.25%)" })).toContainText("$5.20");
    await expect(invoice.getByRole("row", { name: "Balance due" })).toContainText("$48.20");

    // Collection: the balance is what the form starts with; too little needs a reason.
    const collect = page.getByRole("region", { name: "Collected by the customer" });
    await expect(
      collect.getByText("$20.00 was paid before; the balance due is $48.20."),
    ).toBeVisible();
    await expect(collect.getByLabel("Amount paid ($)")).toHaveValue("48.20");
    await collect.getByLabel("Paid by").selectOption("Cash");
    await collect.getByLabel("Amount paid ($)").fill("40");
    await collect.getByRole("button", { name: "Mark collected" }).click();
    await expect(collect.getByLabel("Reason for another amount")).toHaveAccessibleDescription(
      /The balance due is \$48\.20 \(\$20\.00 paid before\): say why \$40\.00 was taken\./,
    );
    await expectAxeClean(page, TICKET_SECTIONS);
    await collect.getByLabel("Amount paid ($)").fill("48.20");
    await collect.getByLabel("Cash handed over ($)").fill("50");
    await collect.getByRole("button", { name: "Mark collected" }).click();
    await expect(
      page.getByText(`Ticket ${label} is collected and closed. Give $1.80 in change.`),
    ).toBeVisible();
    await expect(invoice.getByRole("row", { name: "Balance due" })).toContainText("$0.00");
    await expect(
      page.getByRole("region", { name: "Customer and device" }).getByText("Cash, $68.20"),
    ).toBeVisible();

    // The till holds the float and both repair payments; it closes even.
    await page.goto("/counter");
    await page.getByRole("link", { name: "Close the till" }).click();
    const soFar = page.getByRole("region", { name: "The till so far" });
    await expect(soFar).toContainText("Repairs in cash$68.20");
    await expect(soFar).toContainText("Expected cash in the drawer$168.20");
    await page.getByLabel("Counted cash ($)").fill("168.20");
    await page.getByRole("button", { name: "Close the till" }).click();
    const report = page.getByRole("article");
    await expect(report).toContainText("Repairs in cash$68.20");
    await expect(report).toContainText("Over$0.00");
  } finally {
    await leaveTheTill();
  }
});

test("the balance paid online through the pay link of the ready-for-pickup e-mail", async ({
  page,
  browser,
}) => {
  await signInAsAdmin(page, "repair-pay-online");
  const email = uniqueEmail("repair-pay-online");
  const label = await openWalkIn(page, email);
  const { customer, path } = await repairedAndReady(page, browser, email, label);

  const ready = await waitForMail(email, new RegExp(`^Repair ${label}: .* is ready for pickup$`));
  expect(ready.text).toContain("The balance due is $68.20.");
  const payLink = ready.text.match(/Pay \$68\.20 online: (https?:\/\/\S+\/pay)/)![1]!;
  await customer.goto(new URL(payLink).pathname);
  await expect(
    customer.getByRole("heading", { level: 1, name: `Pay for repair ${label}` }),
  ).toBeVisible();
  await customer.getByLabel("Card number").fill("4242 4242 4242 4242");
  await customer.getByLabel("Expiry (MM/YY)").fill("12/39");
  await customer.getByRole("button", { name: "Pay $68.20" }).click();
  await expect(customer.getByText("Thank you: your repair is paid.")).toBeVisible();
  const invoice = customer.getByRole("region", { name: "Invoice" });
  await expect(invoice.getByRole("row", { name: /^Balance \(online\)/ })).toContainText("$68.20");
  await expect(invoice.getByRole("row", { name: "Balance due" })).toContainText("$0.00");
  await expect(customer.getByRole("link", { name: /^Pay .* online$/ })).toHaveCount(0);
  await expectAxeClean(customer);

  // The link again: nothing left to pay, and the page says so.
  await customer.goto(new URL(payLink).pathname);
  await expect(
    customer.getByText("There is nothing to pay online for this repair now."),
  ).toBeVisible();
  await customer.close();

  // At the counter nothing more is taken; the ticket is collected without a reason.
  await page.reload();
  const collect = page.getByRole("region", { name: "Collected by the customer" });
  await expect(collect.getByLabel("Amount paid ($)")).toHaveValue("0.00");
  await collect.getByLabel("Paid by").selectOption("Nothing more (no charge)");
  await collect.getByRole("button", { name: "Mark collected" }).click();
  await expect(page.getByText(`Ticket ${label} is collected and closed.`)).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Customer and device" }).getByText("Online, $68.20"),
  ).toBeVisible();
  expect(path).toContain(`/repairs/${label}/`);
});
