// The returns workflow's money and stock invariants over random cases, against the database and
// both payment providers: random orders (lines, quantities, prices, taxed or not, shipped free or
// not), returns of random parts of them by mail or drop-off, some rejected, lines back to stock or
// damaged, and every refund pressed at the same moment (some twice). The arithmetic alone is
// proved over 10,000 cases in refund-amount.property.test.ts; these cases run the real thing.
import { eq } from "drizzle-orm";
import fc from "fast-check";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import { returns } from "#app/db/schema.ts";
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
  regularStock,
  TEST_ADDRESS,
} from "#tests/support/order-fixtures.ts";
import type { FakeStripe } from "#tests/support/fake-stripe.ts";
import { propertyRuns } from "#tests/support/property.ts";
import { startProviders } from "#tests/support/providers.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { createStaff } from "#tests/support/staff.ts";
import {
  receiveReturn,
  refundReturn,
  rejectReturn,
  requestReturn,
  type ReturnsConfig,
} from "./returns.server.ts";

// A database of its own: forty orders and their returns at once would move the shop-wide counts
// that other test files read meanwhile.
const scratch = scratchDatabase();
let db: Database;
const ORDERS_URL = "http://shop.test/orders";
const pricing = TEXAS_PRICING;

/** Oklahoma: no sales tax configured for it. */
const UNTAXED_ADDRESS = {
  ...TEST_ADDRESS,
  city: "Oklahoma City",
  state: "OK",
  postalCode: "73102",
};

let boss: PgBoss;
let stripe: FakeStripe;
let staff: { id: string; name: string };
/** Every refund the test provider was asked for, per order: what it would have paid back. */
const askedOfTestProvider = new Map<number, number[]>();
let providers: ProviderLookup;

beforeAll(async () => {
  db = scratch.db();
  boss = await startOutbox(scratch.url(), { onError() {} });
  // The test provider moves no money, so it cannot refuse too much as Stripe does: what it is
  // asked for is kept, and checked against what was paid below.
  ({ stripe, providers } = await startProviders({
    test: (test) => ({
      ...test,
      async refundPayment(input) {
        // Only orders are refunded here (a repair's refund names no order).
        if (input.orderId === null) return test.refundPayment(input);
        const asked = askedOfTestProvider.get(input.orderId) ?? [];
        asked.push(input.amountCents);
        askedOfTestProvider.set(input.orderId, asked);
        return test.refundPayment(input);
      },
    }),
  }));
  staff = await createStaff(db, "Pat Property");
});
afterAll(async () => {
  await stopOutbox(boss);
  await stripe.close();
});

const caseArbitrary = fc
  .record({
    lines: fc.array(
      fc.record({
        quantity: fc.integer({ min: 1, max: 3 }),
        priceCents: fc.integer({ min: 100, max: 15_000 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    taxed: fc.boolean(),
    shipping: fc.constantFrom<ReturnsConfig["shipping"]>("when-all-returned", "never"),
    postageCents: fc.constantFrom(0, 450, 600, 1_000),
  })
  .chain((order) => {
    const units = order.lines.reduce((sum, line) => sum + line.quantity, 0);
    return fc.record({
      order: fc.constant(order),
      // Each unit to one of three returns, or kept (-1).
      returnOf: fc.array(fc.integer({ min: -1, max: 2 }), { minLength: units, maxLength: units }),
      methods: fc.array(fc.constantFrom("mail" as const, "drop_off" as const), {
        minLength: 3,
        maxLength: 3,
      }),
      // One return in five is rejected.
      rejected: fc.array(
        fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
        {
          minLength: 3,
          maxLength: 3,
        },
      ),
      damaged: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      pressedTwice: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    });
  });

describe.each(["test", "stripe"] as const)(
  "returns over random cases (%s provider)",
  (provider) => {
    it("refunds never exceed what was paid, add up when all is back, and restock once per unit", async () => {
      await fc.assert(
        fc.asyncProperty(caseArbitrary, async (c) => {
          const config: ReturnsConfig & { timeZone: string } = {
            windowDays: 30,
            shipping: c.order.shipping,
            postageCents: c.order.postageCents,
            timeZone: "America/Chicago",
          };
          const customer = await createCustomer(db);
          const titles = [];
          for (const line of c.order.lines) {
            titles.push({
              ...(await createRegularTitle(db, { qty: 10, priceCents: line.priceCents })),
              ...line,
            });
          }
          const placed = await placeOrder(
            db,
            orderInput(
              customer,
              titles.map((title) => ({
                productType: "regular" as const,
                serialNo: title.serialNo,
                quantity: title.quantity,
              })),
              { shipping: c.order.taxed ? TEST_ADDRESS : UNTAXED_ADDRESS },
            ),
            pricing,
          );
          if (!placed.ok) throw new Error(placed.reason);
          const { order } = placed;
          const { paymentReference } = await payPlacedOrder(db, {
            order,
            email: TEST_ADDRESS.email,
            lines: titles.map((title) => ({
              title: title.title,
              quantity: title.quantity,
              unitPriceCents: title.priceCents,
            })),
            provider,
            stripe,
            ordersUrl: ORDERS_URL,
          });
          const shipped = await shipOrder(
            db,
            { orderId: order.id, carrier: null, trackingNumber: null },
            { staff, ordersUrl: ORDERS_URL },
          );
          if (!shipped.ok) throw new Error(shipped.message);
          const stockBefore = await Promise.all(
            titles.map((title) => regularStock(db, title.serialNo)),
          );

          // The customer asks for the returns, one after the other.
          const units = titles.flatMap((title) =>
            Array.from({ length: title.quantity }, () => title),
          );
          const asked: { number: number; index: number; lines: Map<number, number> }[] = [];
          for (const index of [0, 1, 2]) {
            const lines = new Map<number, number>();
            units.forEach((title, unit) => {
              if (c.returnOf[unit] === index)
                lines.set(title.serialNo, (lines.get(title.serialNo) ?? 0) + 1);
            });
            if (lines.size === 0) continue;
            const result = await requestReturn(
              db,
              {
                userId: customer,
                orderId: order.id,
                lines: [...lines].map(([serialNo, quantity]) => ({
                  productType: "regular",
                  serialNo,
                  quantity,
                })),
                reason: "Changed my mind",
                note: "",
                method: c.methods[index]!,
              },
              { config, ordersUrl: ORDERS_URL },
            );
            if (!result.ok) throw new Error(result.message);
            asked.push({ number: result.number, index, lines });
          }
          const kept = asked.filter((entry) => !c.rejected[entry.index]);
          for (const entry of asked) {
            if (c.rejected[entry.index]) {
              const rejected = await rejectReturn(
                db,
                { number: entry.number, reason: "No." },
                { staff, ordersUrl: ORDERS_URL },
              );
              expect(rejected.ok).toBe(true);
              continue;
            }
            const received = await receiveReturn(
              db,
              {
                number: entry.number,
                conditions: [...entry.lines.keys()].map((serialNo) => ({
                  productType: "regular",
                  serialNo,
                  condition: c.damaged[entry.index] ? "damaged" : "restock",
                })),
              },
              { staff },
            );
            expect(received.ok).toBe(true);
          }
          const promised = new Map(
            (await db.select().from(returns).where(eq(returns.orderId, order.id))).map((row) => [
              row.number,
              row.postagePromisedCents,
            ]),
          );

          // Every refund pressed at once, some twice.
          const presses = kept.flatMap((entry) =>
            c.pressedTwice[entry.index] ? [entry.number, entry.number] : [entry.number],
          );
          const answers = await Promise.all(
            presses.map((number) =>
              refundReturn(db, { number }, { staff, ordersUrl: ORDERS_URL, providers, config }),
            ),
          );
          // Each return refunded once; a second press is told, never refused by the provider.
          for (const entry of kept) {
            const mine = answers.filter((_, i) => presses[i] === entry.number);
            expect(mine.filter((answer) => answer.ok)).toHaveLength(1);
            for (const answer of mine) {
              if (!answer.ok) expect(answer.reason).toBe("conflict");
            }
          }

          const rows = await db.select().from(returns).where(eq(returns.orderId, order.id));
          const refunded = rows.filter((row) => row.status === "refunded");
          const sum = refunded.reduce((total, row) => total + row.refundCents!, 0);
          expect(sum).toBeLessThanOrEqual(order.totalCents);
          // The postage promised is the postage paid.
          for (const row of refunded) expect(row.refundPostageCents).toBe(promised.get(row.number));
          // What the provider was asked for, and what it paid back, is what the shop recorded.
          const made =
            provider === "stripe"
              ? stripe.refunds
                  .filter((refund) => refund.payment_intent === paymentReference)
                  .map((refund) => refund.amount)
              : (askedOfTestProvider.get(order.id) ?? []);
          expect(made.reduce((total, amount) => total + amount, 0)).toBe(sum);
          const allBack = titles.every(
            (title) =>
              kept.reduce((n, entry) => n + (entry.lines.get(title.serialNo) ?? 0), 0) ===
              title.quantity,
          );
          if (allBack && config.shipping === "when-all-returned")
            expect(sum).toBe(order.totalCents);
          // Stock: each unit received in good condition is back on sale exactly once.
          for (const [i, title] of titles.entries()) {
            const restocked = kept
              .filter((entry) => !c.damaged[entry.index])
              .reduce((n, entry) => n + (entry.lines.get(title.serialNo) ?? 0), 0);
            expect(await regularStock(db, title.serialNo)).toBe(stockBefore[i]! + restocked);
          }
        }),
        propertyRuns(20),
      );
      // Twenty orders and their returns, one after the other: bound generously for a busy machine.
    }, 300_000);
  },
);
