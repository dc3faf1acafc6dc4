import { eq } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { orders } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { paidPickupOrder, UNTAXED_PRICING } from "#tests/support/order-fixtures.ts";
import { queuedMail } from "#tests/support/queued-mail.ts";
import { createStaff } from "#tests/support/staff.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { lastShippingDetails } from "./customer-orders.server.ts";
import { readPickupCode } from "./pickup-code.ts";
import { markReadyForPickup } from "./pickups.server.ts";
import { shipOrder } from "./staff-actions.server.ts";

const db = testDatabase();
const ORDERS_URL = "http://shop.test/orders";
const config = { ...UNTAXED_PRICING, timeZone: "America/Chicago" };

let boss: PgBoss;
let staff: Staff;
beforeAll(async () => {
  boss = await startOutbox(inject("databaseUrl"), { onError() {} });
  staff = await createStaff(db, "Rita Ready");
});
afterAll(() => stopOutbox(boss));

const options = () => ({ staff, ordersUrl: ORDERS_URL });

async function order(orderId: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

describe("a pickup order", () => {
  it("is placed without shipping, to the shop's address", async () => {
    const placed = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config });
    const row = await order(placed.orderId);
    expect(row).toMatchObject({
      fulfilment: "pickup",
      shippingMethod: "pickup",
      shippingCents: 0,
      shippingCity: "Arlington",
      shippingState: "TX",
      status: "paid",
      pickupCode: null,
    });
    // The next checkout's form is filled with who the customer is, not with the shop's address.
    expect(await lastShippingDetails(db, placed.customerId)).toEqual({
      name: placed.name,
      address: "",
      city: "",
      state: "",
      postalCode: "",
      phone: "(512) 555-0100",
      email: placed.email,
    });
  });
});

describe("marking a pickup order ready", () => {
  it("gives it a code and e-mails the code with its QR image, in one go", async () => {
    const placed = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config, adult: true });
    const ready = await markReadyForPickup(db, { orderId: placed.orderId }, options());
    expect(ready.ok).toBe(true);
    const row = await order(placed.orderId);
    expect(readPickupCode(row.pickupCode!)).toBe(row.pickupCode);
    expect(row.readyForPickupAt).not.toBeNull();
    expect(row.status).toBe("paid");
    const [mail] = await queuedMail(db, placed.email, "is ready to pick up");
    const sent = mail as typeof mail & {
      html: string;
      attachments: { cid: string; contentType: string; content: string }[];
    };
    expect(sent.text).toContain(`Your pickup code: ${row.pickupCode}`);
    expect(sent.text).toContain("bring an ID");
    expect(sent.html).toContain('src="cid:pickup-code"');
    expect(sent.attachments).toEqual([
      expect.objectContaining({ cid: "pickup-code", contentType: "image/png" }),
    ]);
    // A PNG's signature, base64-encoded.
    expect(sent.attachments[0]!.content.startsWith("iVBORw0KGgo")).toBe(true);
  });

  it("gives every order its own code", async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const placed = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config });
      const ready = await markReadyForPickup(db, { orderId: placed.orderId }, options());
      if (!ready.ok) throw new Error(ready.message);
      codes.add(ready.pickupCode);
    }
    expect(codes.size).toBe(3);
  });

  it("refuses an unpaid order, a shipped one, one ready already and one that does not exist", async () => {
    const unpaid = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config, paid: false });
    expect(await markReadyForPickup(db, { orderId: unpaid.orderId }, options())).toMatchObject({
      ok: false,
      reason: "conflict",
      message: `Order #${unpaid.orderId} is pending; only paid orders can be made ready for pickup.`,
    });
    const placed = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config });
    await db
      .update(orders)
      .set({ shippingMethod: "standard" })
      .where(eq(orders.id, placed.orderId));
    expect(await markReadyForPickup(db, { orderId: placed.orderId }, options())).toMatchObject({
      ok: false,
      message: `Order #${placed.orderId} is shipped, not picked up at the store.`,
    });
    const twice = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config });
    await markReadyForPickup(db, { orderId: twice.orderId }, options());
    expect(await markReadyForPickup(db, { orderId: twice.orderId }, options())).toMatchObject({
      ok: false,
      message: `Order #${twice.orderId} is ready for pickup already.`,
    });
    expect(await queuedMail(db, twice.email, "is ready to pick up")).toHaveLength(1);
    expect(await markReadyForPickup(db, { orderId: 999_999_999 }, options())).toMatchObject({
      ok: false,
      reason: "not-found",
    });
  });

  it("is never shipped", async () => {
    const placed = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config });
    const shipped = await shipOrder(
      db,
      { orderId: placed.orderId, carrier: "UPS", trackingNumber: null },
      options(),
    );
    expect(shipped).toMatchObject({
      ok: false,
      reason: "conflict",
      message: `Order #${placed.orderId} is picked up at the store: mark it ready for pickup instead.`,
    });
    expect((await order(placed.orderId)).status).toBe("paid");
  });

  it("marks it once when two staff press at the same moment", async () => {
    const placed = await paidPickupOrder(db, { ordersUrl: ORDERS_URL, config });
    const results = await Promise.all([
      markReadyForPickup(db, { orderId: placed.orderId }, options()),
      markReadyForPickup(db, { orderId: placed.orderId }, options()),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(await queuedMail(db, placed.email, "is ready to pick up")).toHaveLength(1);
  });
});
