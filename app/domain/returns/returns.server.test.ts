import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { refundCeiling, type Role } from "#app/domain/accounts/permissions.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { orderEvents, orders, returns } from "#app/db/schema.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { placeOrder } from "#app/domain/orders/place-order.server.ts";
import { shipOrder } from "#app/domain/orders/staff-actions.server.ts";
import { stockLedger } from "#app/domain/stock/ledger.server.ts";
import type { ProviderLookup } from "#app/domain/payments/provider.server.ts";
import {
  createCustomer,
  createRegularTitle,
  orderInput,
  payPlacedOrder,
  TEXAS_PRICING,
  regularStock,
  TEST_ADDRESS,
} from "#tests/support/order-fixtures.ts";
import type { FakeStripe } from "#tests/support/fake-stripe.ts";
import { RETURNS_CONFIG, startProviders } from "#tests/support/providers.ts";
import { queuedBehindRowLock } from "#tests/support/row-lock.ts";
import { createStaff } from "#tests/support/staff.ts";
import { queuedMail } from "#tests/support/queued-mail.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { parse } from "csv-parse/sync";
import { exportOrdersCsv } from "#app/domain/orders/admin-orders.server.ts";
import {
  listReturnsForAdmin,
  receiveReturn,
  returnCounts,
  ledgersOf,
  refundReturn,
  rejectReturn,
  requestReturn,
  returnableOrder,
  returnWindowEnd,
} from "./returns.server.ts";

const db = testDatabase();
const ORDERS_URL = "http://shop.test/orders";
// Texas tax on goods and shipping, so the refund's share of it is tested.
const pricing = TEXAS_PRICING;
const config = RETURNS_CONFIG;

let boss: PgBoss;
let stripe: FakeStripe;
let staff: Staff;
let otherStaff: Staff;
let providers: ProviderLookup;
beforeAll(async () => {
  boss = await startOutbox(inject("databaseUrl"), { onError() {} });
  ({ stripe, providers } = await startProviders());
  staff = await createStaff(db, "Rita Returns");
  otherStaff = await createStaff(db, "Otto Other");
});
afterAll(async () => {
  await stopOutbox(boss);
  await stripe.close();
});

const mailsTo = (to: string, subject: string) => queuedMail(db, to, subject);

/**
 * A shipped order to Texas of two titles: 2 × $15.00 and 1 × $24.50 ($54.50, $5.99 standard
 * shipping, 8.25 % tax on both: $4.99), paid through the test provider or the fake Stripe.
 */
async function aShippedOrder(provider: "test" | "stripe" = "test", shippedAt = new Date()) {
  const customer = await createCustomer(db);
  const email = `order-${customer}@example.test`;
  const first = await createRegularTitle(db, { qty: 5, priceCents: 1500 });
  const second = await createRegularTitle(db, { qty: 5, priceCents: 2450 });
  const placed = await placeOrder(
    db,
    orderInput(
      customer,
      [
        { productType: "regular", serialNo: first.serialNo, quantity: 2 },
        { productType: "regular", serialNo: second.serialNo, quantity: 1 },
      ],
      {
        shipping: { ...TEST_ADDRESS, email },
      },
    ),
    pricing,
  );
  if (!placed.ok) throw new Error(placed.reason);
  const { order } = placed;
  const { paymentReference } = await payPlacedOrder(db, {
    order,
    email,
    lines: [
      { title: first.title, quantity: 2, unitPriceCents: 1500 },
      { title: second.title, quantity: 1, unitPriceCents: 2450 },
    ],
    provider,
    stripe,
    ordersUrl: ORDERS_URL,
  });
  const shipped = await shipOrder(
    db,
    { orderId: order.id, carrier: "USPS", trackingNumber: null },
    { staff, ordersUrl: ORDERS_URL, now: shippedAt },
  );
  if (!shipped.ok) throw new Error(shipped.message);
  return { customer, email, order, first, second, paymentReference };
}

const request = (
  placed: Awaited<ReturnType<typeof aShippedOrder>>,
  lines: { serialNo: number; quantity: number }[],
  method: "drop_off" | "mail" = "drop_off",
  now?: Date,
) =>
  requestReturn(
    db,
    {
      userId: placed.customer,
      orderId: placed.order.id,
      lines: lines.map((line) => ({ productType: "regular" as const, ...line })),
      reason: "Changed my mind",
      note: "",
      method,
    },
    { config, ordersUrl: ORDERS_URL, now },
  );

async function requested(
  placed: Awaited<ReturnType<typeof aShippedOrder>>,
  ...args: Parameters<typeof request> extends [unknown, ...infer Rest] ? Rest : never
) {
  const result = await request(placed, ...args);
  if (!result.ok) throw new Error(result.message);
  return result.number;
}

const receiveAll = (
  number: number,
  serialNos: number[],
  condition: "restock" | "damaged" = "restock",
) =>
  receiveReturn(
    db,
    {
      number,
      conditions: serialNos.map((serialNo) => ({ productType: "regular", serialNo, condition })),
    },
    { staff },
  );

const refund = (number: number, by = staff) =>
  refundReturn(db, { number }, { staff: by, ordersUrl: ORDERS_URL, providers, config });

/** The order's row lock, as a request or a refund claim takes it. */
const orderLock = (orderId: number) =>
  sql`select 1 from ${orders} where ${orders.id} = ${orderId} for update`;

async function returnRow(number: number) {
  const [row] = await db.select().from(returns).where(eq(returns.number, number));
  return row!;
}

/** Refunds a received return as a staff member of `role`, with the counter's refund limit. */
function refundAs(role: Role, number: number, limitCents: number) {
  return refundReturn(
    db,
    { number },
    {
      staff,
      ordersUrl: ORDERS_URL,
      providers,
      config,
      limitCents: refundCeiling(role, limitCents),
    },
  );
}

describe("returns", () => {
  it("returns one of two lines: request, receipt back to stock, refund with its tax, e-mails and history", async () => {
    const placed = await aShippedOrder();
    expect(placed.order).toMatchObject({ subtotalCents: 5450, shippingCents: 599, taxCents: 499 });
    const stockBefore = await regularStock(db, placed.second.serialNo);

    const number = await requested(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }]);
    const [instructions] = await mailsTo(placed.email, `RMA-${number}`);
    expect(instructions!.text).toContain(`Your return number is RMA-${number}`);
    expect(instructions!.text).toContain("Bring the items to the shop");

    expect((await receiveAll(number, [placed.second.serialNo])).ok).toBe(true);
    // Received is not yet on sale: the stock comes back with the refund.
    expect(await regularStock(db, placed.second.serialNo)).toBe(stockBefore);

    const refunded = await refund(number);
    expect(refunded).toMatchObject({ ok: true });
    // $24.50 and its tax: 8.25 % of $24.50 = $2.02125, $2.02; no shipping, dropped off.
    expect(await returnRow(number)).toMatchObject({
      status: "refunded",
      refundGoodsCents: 2450,
      refundShippingCents: 0,
      refundTaxCents: 202,
      refundPostageCents: 0,
      refundCents: 2652,
    });
    expect(await regularStock(db, placed.second.serialNo)).toBe(stockBefore + 1);
    const [back] = await stockLedger(db, { type: "regular", id: placed.second.serialNo }, 1);
    expect(back).toMatchObject({
      reason: "returned",
      change: 1,
      reference: `RMA-${number}`,
      actorName: "Rita Returns",
    });
    const [money] = await mailsTo(placed.email, `RMA-${number} is refunded`);
    expect(money!.text).toContain("We refunded $26.52");

    const history = await db
      .select({ from: orderEvents.fromStatus, to: orderEvents.toStatus, by: orderEvents.actorName })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, placed.order.id), isNotNull(orderEvents.returnNumber)))
      .orderBy(asc(orderEvents.id));
    expect(history).toEqual([
      { from: null, to: "requested", by: null },
      { from: "requested", to: "received", by: staff.name },
      { from: "received", to: "refunded", by: staff.name },
    ]);

    // The line is returned now; the other can still go back.
    const left = await returnableOrder(db, placed.customer, placed.order.id, { config });
    expect(left!.why).toBeNull();
    expect(left!.lines.map((line) => line.returnable)).toEqual(
      left!.lines.map((line) => (line.serialNo === placed.second.serialNo ? 0 : 2)),
    );
  });

  it("a clerk refunds up to the counter's limit; above it only an admin, and a refusal changes nothing", async () => {
    // Each return gives back $24.50 and its tax: $26.52.
    const returned = async () => {
      const placed = await aShippedOrder();
      const number = await requested(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }]);
      await receiveAll(number, [placed.second.serialNo]);
      return number;
    };

    const above = await returned();
    expect(await refundAs("clerk", above, 2651)).toEqual({
      ok: false,
      reason: "forbidden",
      message: `RMA-${above} would refund $26.52, more than the $26.51 a clerk may refund: an admin must make this refund.`,
    });
    expect(await returnRow(above)).toMatchObject({
      status: "received",
      refundStartedAt: null,
      refundCents: null,
      refundGoodsCents: null,
    });
    expect(await refundAs("admin", above, 2651)).toMatchObject({ ok: true });
    expect(await returnRow(above)).toMatchObject({ status: "refunded", refundCents: 2652 });

    const atLimit = await returned();
    expect(await refundAs("clerk", atLimit, 2652)).toMatchObject({ ok: true });
    const below = await returned();
    expect(await refundAs("clerk", below, 10000)).toMatchObject({ ok: true });
  });

  it("a clerk's limit holds for all the refunds of one order together, not each return alone", async () => {
    const placed = await aShippedOrder();
    const returnOf = async (title: { serialNo: number }) => {
      const number = await requested(placed, [{ serialNo: title.serialNo, quantity: 1 }]);
      await receiveAll(number, [title.serialNo]);
      return number;
    };
    // A copy of the first title is $16.24 with its tax, the second title $26.52: each within the
    // clerk's $40.00, the two together not.
    const first = await returnOf(placed.first);
    expect(await refundAs("clerk", first, 4000)).toMatchObject({ ok: true });
    const second = await returnOf(placed.second);
    expect(await refundAs("clerk", second, 4000)).toEqual({
      ok: false,
      reason: "forbidden",
      message: `RMA-${second} would refund $26.52, which with the $16.24 refunded before comes to more than the $40.00 a clerk may refund on one order: an admin must make this refund.`,
    });
    expect(await returnRow(second)).toMatchObject({ status: "received", refundStartedAt: null });
    expect(await refundAs("admin", second, 4000)).toMatchObject({ ok: true });
  });

  it("the orders export and the open count show what returns did", async () => {
    const placed = await aShippedOrder();
    const before = await returnCounts(db);
    const number = await requested(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }]);
    expect((await returnCounts(db)).requested).toBe(before.requested + 1);
    await receiveAll(number, [placed.second.serialNo]);
    expect((await returnCounts(db)).received).toBe(before.received + 1);
    await refund(number);
    expect((await returnCounts(db)).open).toBe(before.open);
    let csv = "";
    for await (const chunk of exportOrdersCsv(
      db,
      { query: `#${placed.order.id}`, status: null },
      { moneyBack: ledgersOf },
    )) {
      csv += chunk;
    }
    const [row] = parse(csv.replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(row).toMatchObject({ Order: String(placed.order.id), "Refunded amount": "26.52" });
  });

  it("refunds the shipping with the last item back, and the whole order adds up to what was paid", async () => {
    const placed = await aShippedOrder();
    const first = await requested(
      placed,
      [{ serialNo: placed.first.serialNo, quantity: 1 }],
      "mail",
    );
    const second = await requested(placed, [
      { serialNo: placed.first.serialNo, quantity: 1 },
      { serialNo: placed.second.serialNo, quantity: 1 },
    ]);
    await receiveAll(first, [placed.first.serialNo], "damaged");
    await receiveAll(second, [placed.first.serialNo, placed.second.serialNo]);
    const stockBefore = await regularStock(db, placed.first.serialNo);
    expect((await refund(first)).ok).toBe(true);
    // Damaged: not back on sale.
    expect(await regularStock(db, placed.first.serialNo)).toBe(stockBefore);
    expect((await refund(second)).ok).toBe(true);
    const [a, b] = [await returnRow(first), await returnRow(second)];
    // By mail: promised $5.99 toward postage (the $6.00 contribution, within the $5.99 shipping),
    // with its tax: 8.25 % of $20.99 = $1.731675, $1.73. The last return brings back what is left
    // of the shipping (nothing) and of the $4.99 tax: $4.99 - $1.73 = $3.26.
    expect(a).toMatchObject({
      postagePromisedCents: 599,
      refundGoodsCents: 1500,
      refundShippingCents: 0,
      refundPostageCents: 599,
      refundTaxCents: 173,
      refundCents: 2272,
    });
    expect(b).toMatchObject({
      refundGoodsCents: 3950,
      refundShippingCents: 0,
      refundPostageCents: 0,
      refundTaxCents: 326,
      refundCents: 4276,
    });
    expect(a.refundCents! + b.refundCents!).toBe(placed.order.totalCents);
    expect(await regularStock(db, placed.first.serialNo)).toBe(stockBefore + 1);
  });

  it("promises a return by mail its postage when it is asked for, in the e-mail too, and keeps it", async () => {
    const placed = await aShippedOrder();
    const offered = await returnableOrder(db, placed.customer, placed.order.id, { config });
    expect(offered!.postageOfferCents).toBe(599);
    const first = await requested(
      placed,
      [{ serialNo: placed.first.serialNo, quantity: 1 }],
      "mail",
    );
    const [instructions] = await mailsTo(placed.email, `RMA-${first}`);
    expect(instructions!.text).toContain("We add $5.99 toward your postage to the refund.");
    // The shipping is promised already: a second parcel by mail is promised nothing, and says so.
    const left = await returnableOrder(db, placed.customer, placed.order.id, { config });
    expect(left!.postageOfferCents).toBe(0);
    const second = await requested(
      placed,
      [{ serialNo: placed.second.serialNo, quantity: 1 }],
      "mail",
    );
    expect(await returnRow(second)).toMatchObject({ postagePromisedCents: 0 });
    const [plain] = await mailsTo(placed.email, `RMA-${second}`);
    expect(plain!.text).not.toContain("toward your postage");
    // Rejecting the first gives its promise back to the order.
    await rejectReturn(
      db,
      { number: first, reason: "Not ours." },
      { staff, ordersUrl: ORDERS_URL },
    );
    const again = await returnableOrder(db, placed.customer, placed.order.id, { config });
    expect(again!.postageOfferCents).toBe(599);
    await receiveAll(second, [placed.second.serialNo]);
    expect(await refund(second)).toMatchObject({ ok: true });
    expect(await returnRow(second)).toMatchObject({ refundPostageCents: 0 });
  });

  it("two returns of one order refunded at the same moment each count the other (Stripe, Texas tax)", async () => {
    const placed = await aShippedOrder("stripe");
    // Everything comes back by mail, in two parcels.
    const first = await requested(
      placed,
      [{ serialNo: placed.first.serialNo, quantity: 2 }],
      "mail",
    );
    const second = await requested(
      placed,
      [{ serialNo: placed.second.serialNo, quantity: 1 }],
      "mail",
    );
    await receiveAll(first, [placed.first.serialNo]);
    await receiveAll(second, [placed.second.serialNo]);
    // The first refund is held at Stripe while the second is worked out and made.
    const held = stripe.holdNext();
    const firstRefund = refund(first);
    await held.arrived;
    const secondRefund = await refund(second, otherStaff);
    held.release();
    expect(secondRefund).toMatchObject({ ok: true });
    expect(await firstRefund).toMatchObject({ ok: true });
    const made = stripe.refunds.filter((made) => made.payment_intent === placed.paymentReference);
    expect(made).toHaveLength(2);
    // Paid $65.48; all of it back, no more, whatever the order the provider answered in.
    expect(made.reduce((sum, made) => sum + made.amount, 0)).toBe(placed.order.totalCents);
    const [a, b] = [await returnRow(first), await returnRow(second)];
    expect(a.refundCents! + b.refundCents!).toBe(placed.order.totalCents);
    expect(a.refundPostageCents! + b.refundPostageCents!).toBe(599);
  });

  it("the return window closes at the end of the shop's day, not at the hour the order shipped", async () => {
    // Shipped at 10:00 in Texas on June 1: returns until the end of July 1, Texas time.
    const shippedAt = new Date("2026-06-01T15:00:00Z");
    expect(returnWindowEnd(shippedAt, 30, "America/Chicago").toISOString()).toBe(
      "2026-07-02T04:59:59.999Z",
    );
    const placed = await aShippedOrder("test", shippedAt);
    const lateEvening = new Date("2026-07-02T04:30:00Z");
    expect(
      (
        await request(
          placed,
          [{ serialNo: placed.first.serialNo, quantity: 1 }],
          "drop_off",
          lateEvening,
        )
      ).ok,
    ).toBe(true);
    const nextMorning = new Date("2026-07-02T05:00:00Z");
    expect(
      await request(
        placed,
        [{ serialNo: placed.second.serialNo, quantity: 1 }],
        "drop_off",
        nextMorning,
      ),
    ).toMatchObject({
      ok: false,
      message: "The 30-day return window for this order closed on July 1, 2026.",
    });
  });

  it("refuses a request outside the window, before shipping, or for more than is left", async () => {
    // The window ends with the shop's 30th day after the shipping day: 31 days ago to the hour is
    // still inside it in the shop's last hour before midnight (or two, across a clock change),
    // so 32 days, past it at any hour of the day the test runs.
    const longAgo = new Date(Date.now() - 32 * 24 * 3600_000);
    const late = await aShippedOrder("test", longAgo);
    const refused = await request(late, [{ serialNo: late.first.serialNo, quantity: 1 }]);
    expect(refused).toMatchObject({ ok: false, reason: "conflict" });
    expect(refused.ok ? "" : refused.message).toMatch(
      /^The 30-day return window for this order closed on /,
    );

    const placed = await aShippedOrder();
    expect(await request(placed, [{ serialNo: placed.first.serialNo, quantity: 3 }])).toMatchObject(
      {
        ok: false,
        reason: "invalid",
        message: `You can return at most 2 of "${placed.first.title}".`,
      },
    );
    await requested(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }]);
    expect(
      await request(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }]),
    ).toMatchObject({ ok: false, message: `"${placed.second.title}" is already in a return.` });
    // Someone else's order is not found.
    const other = await createCustomer(db);
    expect(
      await requestReturn(
        db,
        {
          userId: other,
          orderId: placed.order.id,
          lines: [{ productType: "regular", serialNo: placed.first.serialNo, quantity: 1 }],
          reason: "Other",
          note: "",
          method: "mail",
        },
        { config, ordersUrl: ORDERS_URL },
      ),
    ).toMatchObject({ ok: false, reason: "not-found" });
  });

  it("the back office finds a return by its number, its order's number, or the customer's name or e-mail", async () => {
    const placed = await aShippedOrder();
    const number = await requested(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }]);
    const found = async (query: string) =>
      (await listReturnsForAdmin(db, "open", { requested: 1 }, query)).rows.map(
        (row) => row.number,
      );
    expect(await found(`RMA-${number}`)).toEqual([number]);
    expect(await found(`rma${number}`)).toEqual([number]);
    expect(await found(`#${placed.order.id}`)).toEqual([number]);
    expect(await found(placed.email.toUpperCase())).toEqual([number]);
    expect(await found(placed.email.slice(6, 20))).toEqual([number]);
    // A search spans every status: refunded returns are found too.
    await receiveAll(number, [placed.second.serialNo]);
    await refund(number);
    expect(await found(placed.email)).toEqual([number]);
    expect(await found("nobody-by-this-name-at-all")).toEqual([]);
  });

  it("two requests at once for the last copy: one is taken, the other refused", async () => {
    const placed = await aShippedOrder();
    const last = [{ serialNo: placed.second.serialNo, quantity: 1 }];
    const answers = await queuedBehindRowLock(db, orderLock(placed.order.id), [
      () => request(placed, last),
      () => request(placed, last),
    ]);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.find((answer) => !answer.ok)).toEqual({
      ok: false,
      reason: "invalid",
      field: `quantity.regular.${placed.second.serialNo}`,
      message: `"${placed.second.title}" is already in a return.`,
    });
    const made = await db.select().from(returns).where(eq(returns.orderId, placed.order.id));
    expect(made).toHaveLength(1);
    expect(await mailsTo(placed.email, "RMA-")).toHaveLength(1);
  });

  it("a rejected return tells the customer why, and its items can be asked for again", async () => {
    const placed = await aShippedOrder();
    const number = await requested(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }]);
    const rejected = await rejectReturn(
      db,
      { number, reason: "The disc was scratched after delivery." },
      { staff, ordersUrl: ORDERS_URL },
    );
    expect(rejected.ok).toBe(true);
    const [mail] = await mailsTo(placed.email, `RMA-${number} could not be accepted`);
    expect(mail!.text).toContain("The disc was scratched after delivery.");
    expect(await refund(number)).toMatchObject({ ok: false, reason: "conflict" });
    expect((await request(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }])).ok).toBe(
      true,
    );
  });

  it("two staff refunding at once refund once, through Stripe", async () => {
    const placed = await aShippedOrder("stripe");
    const number = await requested(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }]);
    await receiveAll(number, [placed.second.serialNo]);
    const stockBefore = await regularStock(db, placed.second.serialNo);
    // Both claims queue behind the order's lock; the second sees the first's claim (under way,
    // or done if Stripe answered first).
    const answers = await queuedBehindRowLock(db, orderLock(placed.order.id), [
      () => refund(number, staff),
      () => refund(number, otherStaff),
    ]);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    const refused = answers.find((answer) => !answer.ok);
    expect(refused).toMatchObject({ reason: "conflict" });
    expect([
      `A refund of RMA-${number} is already under way.`,
      `RMA-${number} was already refunded.`,
    ]).toContain(refused!.message);
    const made = stripe.refunds.filter((made) => made.payment_intent === placed.paymentReference);
    expect(made.map((made) => made.amount)).toEqual([2652]);
    expect(await returnRow(number)).toMatchObject({ status: "refunded", refundCents: 2652 });
    expect(await mailsTo(placed.email, `RMA-${number} is refunded`)).toHaveLength(1);
    expect(await regularStock(db, placed.second.serialNo)).toBe(stockBefore + 1);
    expect(await refund(number)).toMatchObject({
      ok: false,
      message: `RMA-${number} was already refunded.`,
    });
  });

  it("a refund Stripe refuses leaves the return received with the reason, and a retry goes through", async () => {
    const placed = await aShippedOrder("stripe");
    const number = await requested(placed, [{ serialNo: placed.first.serialNo, quantity: 2 }]);
    await receiveAll(number, [placed.first.serialNo]);
    stripe.failNext({
      status: 402,
      type: "card_error",
      message: "The card issuer refused the refund.",
    });
    const refused = await refund(number);
    expect(refused).toMatchObject({ ok: false, reason: "refund-failed" });
    expect(await returnRow(number)).toMatchObject({
      status: "received",
      refundError: expect.stringContaining("The card issuer refused the refund."),
      refundStartedAt: null,
      refundAttempts: 1,
    });
    expect(await mailsTo(placed.email, `RMA-${number} is refunded`)).toHaveLength(0);
    const retried = await refund(number);
    expect(retried).toMatchObject({ ok: true });
    expect(await returnRow(number)).toMatchObject({ status: "refunded", refundError: null });
    const made = stripe.refunds.filter((made) => made.payment_intent === placed.paymentReference);
    // 2 × $15.00 and its share of the $4.99 tax charged ($60.49 × 8.25 % = $4.990425): $30.00 of
    // $60.49 is 49.595 % of it, $2.4748, so $2.47 (8.25 % of $30.00 alone would be $2.475).
    expect(made.map((made) => made.amount)).toEqual([3247]);
  });

  it("staff steps out of turn are refused by name, and change nothing", async () => {
    const placed = await aShippedOrder();
    const number = await requested(placed, [
      { serialNo: placed.first.serialNo, quantity: 1 },
      { serialNo: placed.second.serialNo, quantity: 1 },
    ]);
    const label = `RMA-${number}`;
    // Not received yet: no refund, and nothing asked of the provider.
    expect(await refund(number)).toEqual({
      ok: false,
      reason: "conflict",
      message: `${label} is requested; only a received return can be refunded.`,
    });
    // Every line needs its condition.
    expect(await receiveAll(number, [placed.first.serialNo])).toEqual({
      ok: false,
      reason: "invalid",
      message: `Please say whether "${placed.second.title}" goes back to stock.`,
    });
    expect(await returnRow(number)).toMatchObject({ status: "requested", receivedAt: null });
    expect((await receiveAll(number, [placed.first.serialNo, placed.second.serialNo])).ok).toBe(
      true,
    );
    expect(await receiveAll(number, [placed.first.serialNo, placed.second.serialNo])).toEqual({
      ok: false,
      reason: "conflict",
      message: `${label} is received; only a requested return can be received.`,
    });
    await refund(number);
    expect(
      await rejectReturn(db, { number, reason: "Too late." }, { staff, ordersUrl: ORDERS_URL }),
    ).toEqual({
      ok: false,
      reason: "conflict",
      message: `${label} is refunded; it can no longer be rejected.`,
    });
    // A number that is no return.
    expect(await refund(2_000_000_000)).toMatchObject({ ok: false, reason: "not-found" });
    expect(await returnRow(number)).toMatchObject({ status: "refunded", rejectionReason: null });
  });

  it("staff moving one return at once: one receives, the other is told", async () => {
    const placed = await aShippedOrder();
    const number = await requested(placed, [{ serialNo: placed.second.serialNo, quantity: 1 }]);
    const answers = await queuedBehindRowLock(
      db,
      sql`select 1 from ${returns} where ${returns.number} = ${number} for update`,
      [
        () => receiveAll(number, [placed.second.serialNo]),
        () => receiveAll(number, [placed.second.serialNo], "damaged"),
      ],
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.find((answer) => !answer.ok)).toMatchObject({ reason: "conflict" });
    const history = await db
      .select({ to: orderEvents.toStatus })
      .from(orderEvents)
      .where(eq(orderEvents.returnNumber, number))
      .orderBy(asc(orderEvents.id));
    expect(history.map((event) => event.to)).toEqual(["requested", "received"]);
  });
});
