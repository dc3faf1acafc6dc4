import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { eq, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import { repairEstimates, repairTickets, returns } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { placeOrder } from "#app/domain/orders/place-order.server.ts";
import { shipOrder } from "#app/domain/orders/staff-actions.server.ts";
import type { ProviderLookup } from "#app/domain/payments/provider.server.ts";
import {
  createCustomer,
  createRegularTitle,
  orderInput,
  payPlacedOrder,
  TEXAS_PRICING,
} from "#tests/support/order-fixtures.ts";
import { receiveReturn, refundReturn, requestReturn } from "#app/domain/returns/returns.server.ts";
import type { FakeStripe } from "#tests/support/fake-stripe.ts";
import { RETURNS_CONFIG, startProviders } from "#tests/support/providers.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { createStaff } from "#tests/support/staff.ts";
import { productNow } from "#app/domain/counter/lookup.server.ts";
import { cardOutcome, chargeCard } from "#app/domain/counter/card-payments.server.ts";
import { addToSale, paySale } from "#app/domain/counter/sales.server.ts";
import { createStripeTerminalReader } from "#app/domain/payments/stripe-terminal.server.ts";
import { closeTillSession, openTillSession } from "#app/domain/counter/till.server.ts";
import { storeItemSchema } from "#app/domain/store-items/item-input.ts";
import { addStoreItem } from "#app/domain/store-items/items.server.ts";
import { reconcileMoney } from "./reconcile.server.ts";

// Every paid order of a database against the provider's records: a database of its own, so the
// orders other test files pay through their own fake Stripe are not in it.
const scratch = scratchDatabase();
let db: Database;
let boss: PgBoss;
let stripe: FakeStripe;
let providers: ProviderLookup;
let staff: Staff;
const ORDERS_URL = "http://shop.test/orders";
const pricing = TEXAS_PRICING;
const config = RETURNS_CONFIG;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

beforeAll(async () => {
  db = scratch.db();
  boss = await startOutbox(scratch.url(), { onError() {} });
  ({ stripe, providers } = await startProviders());
  staff = await createStaff(db, "Monty Money");
});
afterAll(async () => {
  await stopOutbox(boss);
  await stripe.close();
});

/** A shipped order of two copies, paid through `provider`, with one copy returned and refunded. */
async function anOrderWithARefund(provider: "test" | "stripe") {
  const customer = await createCustomer(db);
  const title = await createRegularTitle(db, { qty: 5, priceCents: 1999 });
  const placed = await placeOrder(
    db,
    orderInput(customer, [{ productType: "regular", serialNo: title.serialNo, quantity: 2 }]),
    pricing,
  );
  if (!placed.ok) throw new Error(placed.reason);
  const { paymentReference } = await payPlacedOrder(db, {
    order: placed.order,
    email: "money@example.test",
    lines: [{ title: title.title, quantity: 2, unitPriceCents: 1999 }],
    provider,
    stripe,
    ordersUrl: ORDERS_URL,
  });
  await shipOrder(
    db,
    { orderId: placed.order.id, carrier: null, trackingNumber: null },
    { staff, ordersUrl: ORDERS_URL },
  );
  const requested = await requestReturn(
    db,
    {
      userId: customer,
      orderId: placed.order.id,
      lines: [{ productType: "regular", serialNo: title.serialNo, quantity: 1 }],
      reason: "Changed my mind",
      note: "",
      method: "mail",
    },
    { config, ordersUrl: ORDERS_URL },
  );
  if (!requested.ok) throw new Error(requested.message);
  await receiveReturn(
    db,
    {
      number: requested.number,
      conditions: [{ productType: "regular", serialNo: title.serialNo, condition: "restock" }],
    },
    { staff },
  );
  const refunded = await refundReturn(
    db,
    { number: requested.number },
    { staff, ordersUrl: ORDERS_URL, providers, config },
  );
  if (!refunded.ok) throw new Error(refunded.message);
  return { order: placed.order, paymentReference, returnNumber: requested.number };
}

/** A repair ticket collected at the counter, its estimate approved (rows as the desk leaves them). */
async function aCollectedRepair(input: {
  approvedCents: number;
  paidCents: number;
  reason: string | null;
}) {
  const [ticket] = await db
    .insert(repairTickets)
    .values({
      customerName: "Reggie Repair",
      customerEmail: "reggie@example.test",
      customerPhone: "(817) 555-0100",
      serviceType: "TV & Home Electronics",
      deviceKind: "Amplifier",
      deviceBrand: "Acme",
      deviceModel: "A-1",
      problem: "Hums.",
      conditionAtIntake: "Scuffed.",
      promisedDate: "2026-12-01",
      status: "collected",
      paymentMethod: "cash",
      paidCents: input.paidCents,
      paidDifferenceReason: input.reason,
      closedAt: new Date(),
    })
    .returning({ number: repairTickets.number });
  await db.insert(repairEstimates).values({
    ticketNumber: ticket!.number,
    version: 1,
    status: "approved",
    subtotalCents: input.approvedCents,
    taxRate: "0",
    taxCents: 0,
    totalCents: input.approvedCents,
    decidedAt: new Date(),
  });
  return ticket!.number;
}

async function checkMoneyScript() {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["scripts/check-money.ts"],
      {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: scratch.url(),
          APP_ENV: "local",
          STRIPE_SECRET_KEY: "sk_test_fake",
          STRIPE_WEBHOOK_SECRET: "whsec_fake",
          STRIPE_API_BASE: stripe.apiBase,
        },
      },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const READER = "tmr_MoneyCounterReader";

/** The open sale's card part handed to the (fake Stripe's) Terminal reader, the card paying there. */
async function aCardSale(tillId: number, itemId: number) {
  const product = (await productNow(db, "item", itemId))!;
  const added = await addToSale(db, tillId, product, 1, staff);
  if (!added.ok) throw new Error(added.message);
  const reader = createStripeTerminalReader({
    secretKey: "sk_test_fake",
    readerId: READER,
    apiBase: stripe.apiBase,
  });
  const input = {
    saleId: added.saleId,
    cardCents: null,
    cashTenderedCents: 0,
    idCheckBirthDate: null,
  };
  const charged = await chargeCard(db, reader, input, COUNTER_CONFIG, staff);
  if (!charged.ok) throw new Error(charged.message);
  const event = stripe.presentCard(READER, "pays");
  return { saleId: added.saleId, attempt: charged.attempt, intent: event.data.object };
}

const COUNTER_CONFIG = { taxRate: 82_500, timeZone: "America/Chicago" };

/**
 * A till opened, two store-item sales paid in cash and one by card through Stripe Terminal
 * ($10.83 each), and the till closed.
 */
async function aCounterDay() {
  const opened = await openTillSession(db, 5000, staff);
  if (!opened.ok) throw new Error(opened.message);
  const item = await addStoreItem(
    db,
    storeItemSchema.parse({
      sku: "MONEY-PIN",
      name: "Money pin",
      priceCents: "10.00",
      stock: "5",
      taxable: "yes",
      barcode: "",
    }),
    staff,
  );
  if (!item.ok) throw new Error(item.message);
  const saleIds: number[] = [];
  for (let n = 0; n < 2; n++) {
    const product = (await productNow(db, "item", item.id))!;
    const added = await addToSale(db, opened.tillId, product, 1, staff);
    if (!added.ok) throw new Error(added.message);
    const paid = await paySale(
      db,
      {
        saleId: added.saleId,
        cashTenderedCents: 2000,
        idCheckBirthDate: null,
      },
      COUNTER_CONFIG,
      staff,
    );
    if (!paid.ok) throw new Error(paid.message);
    saleIds.push(paid.saleId);
  }
  const card = await aCardSale(opened.tillId, item.id);
  const outcome = await cardOutcome(db, {
    saleId: card.saleId,
    attempt: card.attempt,
    reference: card.intent.id,
    paid: true,
    amountCents: card.intent.amount_received,
  });
  if (outcome !== "paid") throw new Error(`The card sale came out ${outcome}.`);
  const closed = await closeTillSession(db, opened.tillId, 7166, staff);
  if (!closed.ok) throw new Error(closed.message);
  return { tillId: opened.tillId, saleIds, itemId: item.id };
}

describe("check:money", () => {
  it("finds nothing to say when the shop's records and the provider's agree, and each difference when not", async () => {
    const viaStripe = await anOrderWithARefund("stripe");
    const viaTest = await anOrderWithARefund("test");
    // A repair collected for its approved estimate, and one for less with the reason recorded.
    await aCollectedRepair({ approvedCents: 7578, paidCents: 7578, reason: null });
    await aCollectedRepair({ approvedCents: 7578, paidCents: 5000, reason: "Part was on hand." });
    // A day at the counter: two sales paid, the till closed.
    const counter = await aCounterDay();
    expect(await reconcileMoney(db, { providers })).toEqual({
      orders: 2,
      repairs: 2,
      counterSales: 3,
      counterReturns: 0,
      tills: 1,
      againstProvider: 1,
      differences: [],
    });
    const clean = await checkMoneyScript();
    expect(clean.output).toContain(
      "Checked 2 paid orders, 1 of them against the payment provider's records, 2 collected repairs, 3 counter sales and 1 closed till: no differences.",
    );
    expect(clean.code).toBe(0);

    // Someone refunds a dollar in Stripe's dashboard.
    const client = new Stripe("sk_test_fake", {
      host: new URL(stripe.apiBase).hostname,
      port: Number(new URL(stripe.apiBase).port),
      protocol: "http",
      maxNetworkRetries: 0,
    });
    const outside = await client.refunds.create({
      payment_intent: viaStripe.paymentReference!,
      amount: 100,
    });
    // A return's recorded refund is changed in the database.
    await db
      .update(returns)
      .set({
        refundGoodsCents: sql`${returns.refundGoodsCents} + 1`,
        refundCents: sql`${returns.refundCents} + 1`,
      })
      .where(eq(returns.number, viaStripe.returnNumber));
    // A return of the test provider's order says it refunded more than was paid.
    await db
      .update(returns)
      .set({
        refundGoodsCents: sql`${returns.refundGoodsCents} + 100000`,
        refundCents: sql`${returns.refundCents} + 100000`,
      })
      .where(eq(returns.number, viaTest.returnNumber));
    // A repair collected for $1.00 against an approved $75.78, with no word why.
    const shortPaid = await aCollectedRepair({ approvedCents: 7578, paidCents: 100, reason: null });
    // A counter sale's cash is changed in the database, which the till's kept report disagrees with.
    await db.execute(
      sql`update counter_payments set amount_cents = amount_cents - 500 where sale_id = ${counter.saleIds[0]!}`,
    );
    // The reader took a card for a sale whose confirmation never reached the shop.
    const nextDay = await openTillSession(db, 0, staff);
    if (!nextDay.ok) throw new Error(nextDay.message);
    const lost = await aCardSale(nextDay.tillId, counter.itemId);
    const [made] = stripe.refunds.filter(
      (refund) => refund.payment_intent === viaStripe.paymentReference,
    );
    const report = await reconcileMoney(db, { providers });
    expect(report.differences).toEqual([
      {
        orderId: viaStripe.order.id,
        what: `the refund of RMA-${viaStripe.returnNumber} is $${((made!.amount + 1) / 100).toFixed(2)} here, $${(made!.amount / 100).toFixed(2)} at stripe`,
      },
      {
        orderId: viaStripe.order.id,
        what: `stripe refunded $1.00 (${outside.id}) that the shop has no record of`,
      },
      {
        orderId: viaTest.order.id,
        what: expect.stringMatching(/^refunded \$[\d,]+\.\d\d, more than the \$[\d,]+\.\d\d paid$/),
      },
      {
        orderId: null,
        counter: `S-${lost.saleId}`,
        what: `Stripe took $10.83 (${lost.intent.id}) that the sale does not have as paid by card: refund it or record it`,
      },
      {
        orderId: null,
        repair: `R-${shortPaid}`,
        what: "collected $1.00 against an approved $75.78, with no reason recorded",
      },
      {
        orderId: null,
        counter: `S-${counter.saleIds[0]}`,
        what: "paid $5.83 for a total of $10.83",
      },
      {
        orderId: null,
        counter: `Till ${counter.tillId}`,
        what: "its Z report no longer matches its sales and payments (cashCents, expectedCashCents, overShortCents)",
      },
    ]);
    const found = await checkMoneyScript();
    expect(found.code).toBe(1);
    expect(found.output).toContain(`Order #${viaStripe.order.id}: stripe refunded $1.00`);
    expect(found.output).toContain(`Repair R-${shortPaid}: collected $1.00`);
    expect(found.output).toContain(`S-${counter.saleIds[0]}: paid $5.83 for a total of $10.83`);
    expect(found.output).toContain(`S-${lost.saleId}: Stripe took $10.83`);
    expect(found.output).toContain("7 differences.");
  }, 120_000);
});
