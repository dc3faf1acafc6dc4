import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signInAsAdmin } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import { closeTheTill, takeTurnsAtTheTill } from "./support/counter.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";

// A repair's invoice, a deposit (on the ticket, or at intake with it) and the balance: at the
// counter in cash, or online through the pay link of the "ready for pickup" e-mail; and the
// deposit given back when the customer declines the estimate.
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

/** The intake form filled in for a walk-in (the deposit left blank). */
async function fillWalkIn(page: Page, email: string) {
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
}

/** The ticket just opened: its label ("R-1042"). */
async function openedTicket(page: Page) {
  const heading = page.getByRole("heading", { level: 1, name: /^Ticket R-\d+$/ });
  await expect(heading).toBeVisible();
  return (await heading.textContent())!.replace("Ticket ", "");
}

/** A walk-in checked in at the repair desk, with a deposit if one is given; its label. */
async function openWalkIn(
  page: Page,
  email: string,
  deposit?: { paidBy: "Cash" | "Card"; amount: string; handedOver?: string },
) {
  await fillWalkIn(page, email);
  if (deposit) await typeIntakeDeposit(page, deposit);
  await page.getByRole("button", { name: "Open ticket" }).click();
  return openedTicket(page);
}

/** The intake form's deposit. */
function intakeDeposit(page: Page) {
  return page.getByRole("group", { name: "Deposit (optional)" });
}

async function typeIntakeDeposit(
  page: Page,
  deposit: { paidBy: "Cash" | "Card"; amount: string; handedOver?: string },
) {
  const fields = intakeDeposit(page);
  await fields.getByLabel("Deposit paid by").selectOption(deposit.paidBy);
  await fields.getByLabel("Deposit ($)").fill(deposit.amount);
  if (deposit.handedOver) await fields.getByLabel("Cash handed over ($)").fill(deposit.handedOver);
}

/** The counter's till opened with a float of $100.00 (it was closed). */
async function openTheTill(page: Page) {
  await page.goto("/counter");
  await page.getByLabel("Float ($)").fill("100.00");
  await page.getByRole("button", { name: "Open the till" }).click();
  await expect(page.getByRole("link", { name: "Close the till" })).toBeVisible();
}

/** The customer's estimate e-mail opened in a browser of their own: their page. */
async function customerWithEstimate(browser: Browser, email: string) {
  const mail = await waitForMail(email, /your estimate of \$/);
  const path = new URL(mail.text.match(/https?:\/\/\S+\/repairs\/R-\d+\/[\w-]+/)![0]).pathname;
  const context = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${test.info().testId}-customer`) },
  });
  const customer = await context.newPage();
  await customer.goto(path);
  return { customer, path };
}

/** Diagnosis, and an estimate of $55.00 (a part) + $8.00 labour, at 8.25 % → $68.20, sent. */
async function estimated(page: Page) {
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
}

/**
 * The estimate (`estimated`) approved by the customer from the e-mail in a browser of their own,
 * repaired and ready for pickup.
 */
async function repairedAndReady(page: Page, browser: Browser, email: string, label: string) {
  await estimated(page);
  const { customer, path } = await customerWithEstimate(browser, email);
  await customer.getByRole("button", { name: "Approve the estimate" }).click();
  await expect(customer.getByText("Thank you: you approved the estimate of $68.20.")).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: "Start the repair" }).click();
  await expect(page.getByText(`Ticket ${label} is now "Repairing".`)).toBeVisible();
  await page.getByRole("button", { name: "Mark ready for pickup" }).click();
  await expect(page.getByText(`Ticket ${label} is now "Ready for pickup".`)).toBeVisible();
  return { customer, path };
}

// Tests at the till take turns with the counter's other tests (the till is the shop's one).
test.describe("at the till", () => {
  takeTurnsAtTheTill();

  test("a deposit in cash on the ticket and the balance in cash at collection, both in the till", async ({
    page,
    browser,
  }) => {
    await signInAsAdmin(page, "repair-pay-counter");
    // The till starts afresh for this test: whatever it took before is counted and closed.
    await closeTheTill(page);

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
    await openTheTill(page);

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
  });

  test("a deposit taken at intake with the ticket: refused in cash while the till is closed, the form kept", async ({
    page,
  }) => {
    await signInAsAdmin(page, "repair-pay-intake");
    await closeTheTill(page);
    const email = uniqueEmail("repair-pay-intake");
    await fillWalkIn(page, email);
    await typeIntakeDeposit(page, { paidBy: "Cash", amount: "20", handedOver: "50" });
    await page.getByRole("button", { name: "Open ticket" }).click();
    const deposit = intakeDeposit(page);
    await expect(deposit.getByLabel("Deposit paid by")).toHaveAccessibleDescription(
      /The till is closed: open it at the counter to take cash/,
    );
    // Nothing was opened, and everything typed is still there.
    await expect(page.getByRole("heading", { level: 1, name: "New repair ticket" })).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("Paula Payer");
    await expect(page.getByLabel("Model")).toHaveValue("iPhone 12");
    await expect(page.getByLabel("Condition at intake")).toHaveValue("Fine");
    await expect(deposit.getByLabel("Deposit paid by")).toHaveValue("cash");
    await expect(deposit.getByLabel("Deposit ($)")).toHaveValue("20");
    await expect(deposit.getByLabel("Cash handed over ($)")).toHaveValue("50");
    await expectAxeClean(page, "main form[method='post']");

    // The till is opened at the counter meanwhile; the same form goes through.
    const counter = await page.context().newPage();
    await openTheTill(counter);
    await counter.close();
    await page.getByRole("button", { name: "Open ticket" }).click();
    const label = await openedTicket(page);
    await expect(
      page.getByText(
        `Ticket ${label} is open. ${email} was sent its number and status link. A deposit of $20.00 by cash is recorded on ticket ${label}. Give $30.00 in change.`,
      ),
    ).toBeVisible();
    const invoice = page.getByRole("region", { name: "Invoice" });
    await expect(invoice.getByRole("row", { name: /^Deposit \(cash\)/ })).toContainText("$20.00");
    await expect(page.getByRole("region", { name: "History" })).toContainText(
      "Checked in at the counter, with a deposit of $20.00 by cash",
    );
    const mail = await waitForMail(email, new RegExp(`^Repair ${label}: we have your `));
    expect(mail.text).toContain(
      "We received a deposit of $20.00 (in cash). It counts toward the repair, and we give it back if your device is not repaired.",
    );

    // The claim ticket says so too.
    await page.getByRole("link", { name: "Print claim ticket" }).click();
    await expect(page.getByRole("heading", { name: `Claim ticket ${label}` })).toBeVisible();
    await expect(page.getByRole("article")).toContainText("Deposit paid$20.00 (cash)");

    // The deposit is in the drawer.
    await page.goto("/counter");
    await page.getByRole("link", { name: "Close the till" }).click();
    const soFar = page.getByRole("region", { name: "The till so far" });
    await expect(soFar).toContainText("Repairs in cash$20.00");
    await expect(soFar).toContainText("Expected cash in the drawer$120.00");
  });

  test("a deposit refunded in cash from the till when the customer declines the estimate, once", async ({
    page,
    browser,
  }) => {
    await signInAsAdmin(page, "repair-pay-refund");
    await closeTheTill(page);
    await openTheTill(page);
    const email = uniqueEmail("repair-pay-refund");
    const label = await openWalkIn(page, email, { paidBy: "Cash", amount: "25" });
    const ticketPath = new URL(page.url()).pathname;
    // No refund while the repair is still ahead.
    await expect(page.getByRole("region", { name: "Refund the deposit" })).toHaveCount(0);
    await estimated(page);
    const { customer } = await customerWithEstimate(browser, email);
    await customer.getByRole("button", { name: "Decline", exact: true }).click();
    await expect(
      customer.getByText(
        "You declined the estimate. Your device is waiting for you, unrepaired and free of charge.",
      ),
    ).toBeVisible();
    await customer.close();

    await page.goto(ticketPath);
    const refund = page.getByRole("region", { name: "Refund the deposit" });
    await expect(refund.getByText("Left to refund: $25.00 in cash from the till.")).toBeVisible();
    const amount = refund.getByLabel("Amount to refund ($)");
    await expect(amount).toHaveValue("25.00");
    await amount.fill("30");
    await refund.getByRole("button", { name: "Refund the deposit" }).click();
    await expect(amount).toHaveAccessibleDescription(
      /At most \$25\.00 can be refunded: what was taken and not yet given back\./,
    );
    await expectAxeClean(page, TICKET_SECTIONS);
    await amount.fill("25");
    const formKey = await refund.locator("input[name='key']").inputValue();
    await refund.getByRole("button", { name: "Refund the deposit" }).click();
    const refunded = `Refunded $25.00 on ticket ${label}: $25.00 in cash from the till.`;
    await expect(refund.getByText(refunded)).toBeVisible();
    await expect(
      refund.getByText("Everything taken on this ticket has been given back."),
    ).toBeVisible();
    const invoice = page.getByRole("region", { name: "Invoice" });
    await expect(invoice.getByRole("row", { name: /^Refund \(cash\)/ })).toContainText("-$25.00");
    await expect(invoice.getByRole("row", { name: /^Paid / })).toContainText("$0.00");
    await expect(page.getByRole("region", { name: "History" })).toContainText(
      "Refunded $25.00: $25.00 in cash from the till",
    );
    await expectAxeClean(page, TICKET_SECTIONS);

    // The same form sent again gives nothing more back: it is answered as the first time.
    const again = await page.request.post(ticketPath, {
      form: { intent: "refund", key: formKey, amount: "25" },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(again.status()).toBe(200);
    expect(await again.text()).toContain(refunded);
    await page.reload();
    await expect(invoice.getByRole("row", { name: /^Refund \(cash\)/ })).toHaveCount(1);

    // The drawer gave the deposit back: the till closes even at its float.
    await page.goto("/counter");
    await page.getByRole("link", { name: "Close the till" }).click();
    const soFar = page.getByRole("region", { name: "The till so far" });
    await expect(soFar).toContainText("Repairs in cash$25.00");
    await expect(soFar).toContainText("Repair refunds in cash$25.00");
    await expect(soFar).toContainText("Expected cash in the drawer$100.00");
    await page.getByLabel("Counted cash ($)").fill("100.00");
    await page.getByRole("button", { name: "Close the till" }).click();
    const report = page.getByRole("article");
    await expect(report).toContainText("Repair refunds in cash$25.00");
    await expect(report).toContainText("Over$0.00");
  });
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
