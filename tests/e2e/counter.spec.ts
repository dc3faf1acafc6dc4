import { expect, test } from "./support/fixtures.ts";
import { clientAddress, signedInCustomer } from "./support/accounts.ts";
import { allViolations } from "./support/axe.ts";
import {
  atTheCounter,
  closeTheTill,
  expectOnTheReceiptRoll,
  scanCode,
  takeTurnsAtTheTill,
} from "./support/counter.ts";
import { checkoutWithTestCard } from "./support/checkout.ts";
import { uniqueEmail, waitForMail } from "./support/mailbox.ts";
import { shelfBarcode, shelveProduct } from "./support/shop-database.ts";

// The shop has one till, so these tests take turns at it, in order, and with the counter's other
// spec files (holdTheTill).
takeTurnsAtTheTill();

test("a scanned cash sale: lines, a discount, change due, and an 80 mm receipt", async ({
  page,
}) => {
  const tag = String(Date.now()).slice(-6);
  const film = `Counter Film ${tag}`;
  const poster = `Counter Poster ${tag}`;
  const filmCode = shelfBarcode();
  const posterCode = shelfBarcode();
  await shelveProduct({
    type: "regular",
    name: film,
    priceCents: 1999,
    stock: 2,
    barcode: filmCode,
  });
  await shelveProduct({
    type: "item",
    name: poster,
    priceCents: 1000,
    stock: 5,
    barcode: posterCode,
  });
  await atTheCounter(page);

  // A scanner's burst: three codes typed one after the other, before the first is answered.
  await expect(page.getByLabel("Barcode, serial, SKU or name")).toBeFocused();
  for (const code of [filmCode, posterCode, filmCode]) {
    await page.keyboard.type(code);
    await page.keyboard.press("Enter");
  }
  const lines = page.getByRole("list", { name: "Lines of this sale" });
  await expect(lines.getByRole("listitem")).toHaveCount(2);
  await expect(lines.getByRole("listitem").filter({ hasText: film })).toContainText("2 × $19.99");
  // The shelf has no third copy: the clerk is told at once, next to the field.
  await scanCode(page, filmCode);
  await expect(page.getByText(`Only 2 of “${film}” left.`)).toBeVisible();
  expect(await allViolations(page)).toEqual([]);

  const filmLine = lines.getByRole("listitem").filter({ hasText: film });
  await filmLine.getByText("Change quantity or discount").click();
  await filmLine.getByLabel("Discount ($)").fill("5");
  await filmLine.getByRole("button", { name: /^Save/ }).click();
  await expect(filmLine.getByText("Say why the discount is given.")).toBeVisible();
  await filmLine.getByLabel("Reason for the discount").fill("Scratched case");
  await filmLine.getByRole("button", { name: /^Save/ }).click();
  await expect(filmLine).toContainText("discount $5.00 (Scratched case)");
  await expect(page.getByLabel("Barcode, serial, SKU or name")).toBeFocused();

  // 39.98 - 5.00 + 10.00 = 44.98; tax 8.25 % of it = 3.71; total 48.69.
  const payment = page.getByRole("region", { name: "Payment" });
  await expect(payment).toContainText("$48.69");
  await payment.getByLabel("Cash tendered ($)").fill("40");
  await payment.getByRole("button", { name: "Pay $48.69 in cash" }).click();
  await expect(payment.getByText("The cash handed over must cover the total.")).toBeVisible();
  await payment.getByLabel("Cash tendered ($)").fill("50");
  await payment.getByRole("button", { name: "Pay $48.69 in cash" }).click();
  await expect(page.getByText(/Sale S-\d+ paid: \$48\.69\. Change due: \$1\.31\./)).toBeVisible();
  expect(await allViolations(page)).toEqual([]);

  // Both copies are gone from the one stock.
  await scanCode(page, filmCode);
  await expect(page.getByText(`“${film}” is sold out.`)).toBeVisible();

  await page.getByRole("link", { name: /^Receipt S-\d+$/ }).click();
  const receipt = page.getByRole("article");
  await expect(page.getByRole("heading", { name: /^Receipt S-\d+$/ })).toBeVisible();
  await expect(receipt).toContainText("Discount: Scratched case");
  await expect(receipt).toContainText("Cash tendered$50.00");
  await expect(receipt).toContainText("Change$1.31");
  await expect(receipt.getByRole("img", { name: /QR code of sale S-\d+/ })).toBeVisible();
  // The customer asks for it by e-mail too.
  const email = uniqueEmail("counter-receipt");
  await page.getByLabel("Customer's e-mail").fill(email);
  await page.getByRole("button", { name: "E-mail the receipt" }).click();
  await expect(page.getByText(`Receipt sent to ${email}.`)).toBeVisible();
  const mail = await waitForMail(email, /^Your receipt S-\d+$/);
  expect(mail.text).toContain("Total: $48.69");
  expect(mail.text).toContain("Discount (Scratched case): -$5.00");
  expect(mail.text).toContain("Change: $1.31");
  expect(await allViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await allViolations(page)).toEqual([]);
  // Printed, the receipt is a page 80 mm wide (226.8 points).
  await expectOnTheReceiptRoll(page, "receipt.pdf");
});

test("a split payment: a declined card gives the copy back, then the card pays part and cash the rest", async ({
  page,
  context,
}) => {
  const tag = String(Date.now()).slice(-6);
  const film = `Counter Split ${tag}`;
  const code = shelfBarcode();
  await shelveProduct({ type: "regular", name: film, priceCents: 2000, stock: 1, barcode: code });
  await atTheCounter(page);
  await scanCode(page, code);
  // $20.00 + 8.25 % tax = $21.65, all of it on the card.
  const payment = page.getByRole("region", { name: "Payment" });
  await payment.getByRole("button", { name: "Charge the card" }).click();
  await expect(payment.getByRole("status")).toHaveText(
    "Waiting for the card reader: $21.65 on the card.",
  );
  for (const size of [
    { width: 1024, height: 768 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    expect(await allViolations(page)).toEqual([]);
  }
  await page.setViewportSize({ width: 1024, height: 768 });

  // The test reader stands in for the card reader beside the till: the customer's card is declined.
  const reader = await context.newPage();
  await reader.goto("/counter/test-reader");
  await expect(reader.getByRole("heading", { name: "Test card reader" })).toBeVisible();
  await expect(reader.getByText(/^Charge \$21\.65 for sale S-\d+$/)).toBeVisible();
  expect(await allViolations(reader)).toEqual([]);
  await reader.getByLabel("Card number").fill("4000 0000 0000 0002");
  await reader.getByRole("button", { name: "Present the card" }).click();
  await expect(reader.getByRole("alert")).toHaveText("The card was declined.");
  // The till hears it by itself: the sale is open again, with the reason.
  await expect(payment.getByRole("alert")).toHaveText("The card was declined.");
  await expect(payment.getByRole("button", { name: "Charge the card" })).toBeVisible();

  // Split: $15.00 on the card, a $10 note for the rest ($6.65), $3.35 change.
  await payment.getByLabel("Card amount ($)").fill("15");
  await payment.getByLabel("Cash tendered ($)").fill("10");
  await payment.getByRole("button", { name: "Charge the card" }).click();
  await expect(payment.getByRole("status")).toHaveText(
    "Waiting for the card reader: $15.00 on the card, $10.00 cash tendered.",
  );
  await reader.reload();
  await expect(reader.getByText(/^Charge \$15\.00 for sale S-\d+$/)).toBeVisible();
  await reader.getByLabel("Card number").fill("4242 4242 4242 4242");
  await reader.getByRole("button", { name: "Present the card" }).click();
  await expect(reader.getByText(/^Approved: \$15\.00 for sale S-\d+\.$/)).toBeVisible();
  await expect(page.getByText(/Sale S-\d+ paid: \$21\.65\. Change due: \$3\.35\./)).toBeVisible();
  await expect(page.getByLabel("Barcode, serial, SKU or name")).toBeVisible();
  // The copy was sold once.
  await page.getByLabel("Barcode, serial, SKU or name").focus();
  await scanCode(page, code);
  await expect(page.getByText(`“${film}” is sold out.`)).toBeVisible();

  await page.getByRole("link", { name: /^Receipt S-\d+$/ }).click();
  const receipt = page.getByRole("article");
  await expect(receipt).toContainText("Card$15.00");
  await expect(receipt).toContainText("Cash tendered$10.00");
  await expect(receipt).toContainText("Change$3.35");
});

test("an adult title is sold only after an ID check shows the customer is 18 or older", async ({
  page,
}) => {
  const tag = String(Date.now()).slice(-6);
  const title = `Counter Adult ${tag}`;
  const code = shelfBarcode();
  await shelveProduct({ type: "adult", name: title, priceCents: 2500, stock: 1, barcode: code });
  await atTheCounter(page);
  await scanCode(page, code);
  const payment = page.getByRole("region", { name: "Payment" });
  const birthDate = payment.getByLabel("Birth date on the customer's ID");
  await expect(birthDate).toBeVisible();
  // Seventeen: refused, next to the field, and nothing is taken.
  const seventeen = new Date();
  seventeen.setFullYear(seventeen.getFullYear() - 17);
  await birthDate.fill(seventeen.toISOString().slice(0, 10));
  await payment.getByLabel("Cash tendered ($)").fill("30");
  await payment.getByRole("button", { name: /^Pay / }).click();
  await expect(
    payment.getByText("The customer is under 18: adult titles cannot be sold."),
  ).toBeVisible();
  await expect(birthDate).toBeFocused();
  expect(await allViolations(page)).toEqual([]);
  // A sale in progress fits a tablet and a phone without scrolling sideways, and passes axe there.
  for (const size of [
    { width: 1024, height: 768 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(size.width);
    expect(await allViolations(page)).toEqual([]);
  }

  await birthDate.fill("1990-04-12");
  await payment.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText(/Sale S-\d+ paid: \$27\.06\. Change due: \$2\.94\./)).toBeVisible();
  await page.getByRole("link", { name: /^Receipt S-\d+$/ }).click();
  await expect(page.getByRole("article")).toContainText("Photo ID checked: 18 or older.");
});

test("the counter and the web shop sell from one stock: the last copy goes once", async ({
  page,
  browser,
}, testInfo) => {
  const tag = String(Date.now()).slice(-6);
  const title = `Counter Last Copy ${tag}`;
  const code = shelfBarcode();
  const serial = await shelveProduct({
    type: "regular",
    name: title,
    priceCents: 1500,
    stock: 1,
    barcode: code,
  });
  // The clerk rings it up while a shopper has it in their cart.
  await atTheCounter(page);
  await scanCode(page, code);
  await expect(page.getByRole("list", { name: "Lines of this sale" })).toContainText(title);

  const shopper = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": clientAddress(`${testInfo.testId}-web`) },
  });
  const web = await shopper.newPage();
  const email = uniqueEmail("last-copy");
  await signedInCustomer(web, email, "Last-Copy-Buyer-4");
  await web.goto(`/movies/${serial}`);
  await web.getByRole("main").getByRole("button", { name: "Add to Cart" }).click();
  await checkoutWithTestCard(web, email);
  await shopper.close();

  // The web order took the copy first: the counter is told, and its sale waits to be changed.
  const payment = page.getByRole("region", { name: "Payment" });
  await payment.getByLabel("Cash tendered ($)").fill("20");
  await payment.getByRole("button", { name: /^Pay / }).click();
  await expect(payment.getByText(`“${title}” is sold out.`)).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Sale S-\d+$/ })).toBeVisible();
  await page.getByRole("button", { name: `Remove “${title}”` }).click();
  await expect(page.getByText("Nothing scanned yet.")).toBeVisible();
  await expect(page.getByLabel("Barcode, serial, SKU or name")).toBeFocused();
});

test("the till closes with a Z report that reconciles to its sales and the cash counted", async ({
  page,
}) => {
  const tag = String(Date.now()).slice(-6);
  const code = shelfBarcode();
  const name = `Counter Pin ${tag}`;
  await shelveProduct({ type: "item", name, priceCents: 1000, stock: 3, barcode: code });
  await atTheCounter(page);
  // Whatever the till took before is counted and closed; this test's day starts afresh.
  await closeTheTill(page);
  await page.getByLabel("Float ($)").fill("150.00");
  await page.getByRole("button", { name: "Open the till" }).click();

  // Two sales: one paid exactly, one with change; then a sale started and voided.
  for (const tendered of ["10.83", "20"]) {
    await scanCode(page, code);
    await page
      .getByRole("region", { name: "Payment" })
      .getByLabel("Cash tendered ($)")
      .fill(tendered);
    await page.getByRole("button", { name: "Pay $10.83 in cash" }).click();
    await expect(page.getByText(/Sale S-\d+ paid: \$10\.83\./)).toBeVisible();
  }
  await scanCode(page, code);
  await page.getByRole("button", { name: "Void sale" }).click();
  await expect(page.getByText("Nothing scanned yet.")).toBeVisible();

  await page.getByRole("link", { name: "Close the till" }).click();
  const soFar = page.getByRole("region", { name: "The till so far" });
  await expect(soFar).toContainText("Expected cash in the drawer$171.66");
  expect(await allViolations(page)).toEqual([]);
  // The drawer is 50 cents short.
  await page.getByLabel("Counted cash ($)").fill("171.16");
  await page.getByRole("button", { name: "Close the till" }).click();
  const report = page.getByRole("article");
  await expect(page.getByRole("heading", { name: /^Z report, till \d+$/ })).toBeVisible();
  for (const line of [
    "Sales2",
    "Voided sales1",
    "Subtotal$20.00",
    "Tax collected$1.66",
    "Counter total$21.66",
    "Cash$21.66",
    "Card$0.00",
    "Float$150.00",
    "Expected cash in the drawer$171.66",
    "Counted cash$171.16",
    "Short$0.50",
  ]) {
    await expect(report).toContainText(line);
  }
  await expect(report).toContainText(/Pickup \(\d+ orders, paid online\)/);
  expect(await allViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await allViolations(page)).toEqual([]);

  // The accountant's CSV has the till's row as the report shows it.
  const till = (await page.getByRole("heading", { level: 1 }).textContent())!.match(/\d+$/)![0];
  const csv = await (await page.request.get("/counter/till/export.csv")).text();
  const row = csv.split(/\r?\n/).find((line) => line.startsWith(`${till},`));
  // Web orders paid while the till was open (other tests' too) stand between the card and the
  // float; after the report's first columns, its returns (none here), its pickups, then its
  // repairs (none at the till here; paid online meanwhile, other tests') and the repair
  // deposits it gave back (none).
  expect(row).toMatch(
    /,2,1,20,0,1\.66,21\.66,21\.66,0,\d+,[\d.]+,150,171\.66,171\.16,-0\.5,0,0,0,0,0,\d+,[\d.]+,0,0,[\d.]+,0,0$/,
  );
});
