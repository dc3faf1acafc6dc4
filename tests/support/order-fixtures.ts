import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { adultTitles, customers, regularTitles, users } from "#app/db/schema.ts";
import type { Disc } from "#app/lib/catalog.ts";
import { createStripeProvider } from "#app/domain/payments/stripe.server.ts";
import type { FakeStripe } from "./fake-stripe.ts";
import type { PlaceOrderInput } from "#app/domain/orders/checkout-input.ts";
import type { CustomerOrder } from "#app/domain/orders/customer-orders.server.ts";
import { placeOrder, type PlaceOrderConfig } from "#app/domain/orders/place-order.server.ts";
import type { CheckoutSessionInput } from "#app/domain/payments/provider.server.ts";
import { parseSalesTaxRates } from "#app/lib/sales-tax.ts";
import { shippingOption } from "#app/lib/shipping.ts";
import { markOrderPaid, recordPaymentSession } from "#app/domain/orders/fulfilment.server.ts";

// Test data for the order tests: own customers and titles (no "the" in their names, no demo
// production), so the demo catalogue other tests read stays as it is.

/** Texas tax (8.25 %) on goods and shipping, free shipping from $200: what the order tests price by. */
export const TEXAS_PRICING = {
  salesTaxRates: parseSalesTaxRates("TX:0.0825"),
  freeShippingThresholdCents: 20_000,
  timeZone: "America/Chicago",
} satisfies PlaceOrderConfig;

/** No sales tax anywhere, free shipping from $200: for the tests whose totals are not about tax. */
export const UNTAXED_PRICING = {
  ...TEXAS_PRICING,
  salesTaxRates: parseSalesTaxRates(""),
} satisfies PlaceOrderConfig;

export async function createCustomer(db: Database, dateOfBirth: string | null = "1980-05-17") {
  const id = randomUUID();
  await db.insert(users).values({
    id,
    name: "Order Tester",
    email: `order-${id}@example.test`,
    emailVerified: true,
  });
  await db.insert(customers).values({
    id,
    email: `order-${id}@example.test`,
    firstName: "Order",
    lastName: "Tester",
    dateOfBirth,
  });
  return id;
}

export async function createRegularTitle(
  db: Database,
  input: { qty: number; priceCents: number; disc?: Disc },
) {
  const [row] = await db
    .insert(regularTitles)
    .values({
      productId: `ORD-${randomUUID()}`,
      title: `Stock Probe ${randomUUID().slice(0, 8)}`,
      disc: input.disc ?? "DVD",
      qtyToList: input.qty,
      currentPriceCents: input.priceCents,
    })
    .returning({ serialNo: regularTitles.regSerialNo, title: regularTitles.title });
  return row!;
}

export async function createAdultTitle(db: Database, input: { qty: number; priceCents: number }) {
  const [row] = await db
    .insert(adultTitles)
    .values({
      productId: 900_000,
      production: "Order Tests",
      title: `Adult Probe ${randomUUID().slice(0, 8)}`,
      quantity: input.qty,
      priceCents: input.priceCents,
    })
    .returning({ serialNo: adultTitles.adultSerialNo, title: adultTitles.title });
  return row!;
}

export async function regularStock(db: Database, serialNo: number) {
  const [row] = await db
    .select({ qty: regularTitles.qtyToList })
    .from(regularTitles)
    .where(eq(regularTitles.regSerialNo, serialNo));
  return row!.qty;
}

export async function adultStock(db: Database, serialNo: number) {
  const [row] = await db
    .select({ qty: adultTitles.quantity })
    .from(adultTitles)
    .where(eq(adultTitles.adultSerialNo, serialNo));
  return row!.qty;
}

export const TEST_ADDRESS = {
  name: "Ada Lovelace",
  address: "12 Analytical Way",
  city: "Austin",
  state: "TX",
  postalCode: "78701",
  phone: "(512) 555-0100",
  email: "ada@example.test",
};

export function orderInput(
  customerId: string,
  lines: PlaceOrderInput["lines"],
  overrides: Partial<PlaceOrderInput> = {},
): PlaceOrderInput {
  return {
    customerId,
    checkoutKey: randomUUID(),
    shippingMethod: "standard",
    shipping: TEST_ADDRESS,
    lines,
    ...overrides,
  };
}

/**
 * Opens the payment session of a placed order (the test provider's, or a Checkout Session at the
 * fake Stripe) and, unless `paid` is false, confirms its payment as the provider would. Returns
 * the session and the payment's reference (Stripe: its PaymentIntent).
 */
export async function payPlacedOrder(
  db: Database,
  input: {
    order: { id: number; shippingCents: number; taxCents: number; totalCents: number };
    email: string;
    lines: { title: string; quantity: number; unitPriceCents: number }[];
    provider: "test" | "stripe";
    /** Needed for the Stripe provider only. */
    stripe?: FakeStripe;
    ordersUrl: string;
    paid?: boolean;
  },
) {
  const { order, provider } = input;
  const stripe = () => {
    if (!input.stripe) throw new Error("Paying through Stripe needs the fake Stripe.");
    return input.stripe;
  };
  let sessionId = `test_${order.id}_${randomUUID()}`;
  if (provider === "stripe") {
    const session = await createStripeProvider({
      secretKey: "sk_test_fake",
      apiBase: stripe().apiBase,
    }).createCheckoutSession({
      orderId: order.id,
      customerEmail: input.email,
      lines: input.lines,
      shippingCents: order.shippingCents,
      shippingLabel: "Standard shipping",
      taxCents: order.taxCents,
      totalCents: order.totalCents,
      successUrl: "http://shop.test/cart-success",
      cancelUrl: "http://shop.test/cart",
      expiresAt: new Date(Date.now() + 3600_000),
      idempotencyKey: randomUUID(),
    });
    sessionId = session.id;
  }
  await recordPaymentSession(db, {
    orderId: order.id,
    provider,
    sessionId,
    expiresAt: new Date(Date.now() + 3600_000),
  });
  const paymentReference =
    provider === "stripe"
      ? stripe().event("checkout.session.completed", sessionId).data.object.payment_intent
      : `test_payment_${sessionId}`;
  if (input.paid !== false) {
    await markOrderPaid(
      db,
      { orderId: order.id, provider, eventId: randomUUID(), paymentReference },
      { ordersUrl: input.ordersUrl },
    );
  }
  return { sessionId, paymentReference };
}

/** The session request for a placed order, as the checkout makes it. */
export function checkoutSessionInput(
  order: CustomerOrder,
  overrides: Partial<CheckoutSessionInput> = {},
) {
  return {
    orderId: order.id,
    customerEmail: order.shipping.email,
    lines: order.items.map(({ title, quantity, unitPriceCents }) => ({
      title,
      quantity,
      unitPriceCents,
    })),
    shippingCents: order.shippingCents,
    shippingLabel: `${shippingOption(order.shipping.method).name} shipping`,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    successUrl: `http://shop.test/cart-success?order=${order.id}`,
    cancelUrl: `http://shop.test/checkout/cancel?order=${order.id}`,
    expiresAt: new Date(Date.now() + 60 * 60_000),
    idempotencyKey: `order-${order.id}`,
    ...overrides,
  } satisfies CheckoutSessionInput;
}

/** A pending order of new titles, placed with Texas pricing (to TEST_ADDRESS unless told). */
export async function placedOrder(
  db: Database,
  input: {
    lines: { stock: number; priceCents: number; quantity: number }[];
    state?: string;
    postalCode?: string;
  },
) {
  const customer = await createCustomer(db);
  const films = await Promise.all(
    input.lines.map((line) =>
      createRegularTitle(db, { qty: line.stock, priceCents: line.priceCents }),
    ),
  );
  const result = await placeOrder(
    db,
    orderInput(
      customer,
      films.map((film, i) => ({
        productType: "regular" as const,
        serialNo: film.serialNo,
        quantity: input.lines[i]!.quantity,
      })),
      {
        shipping: {
          ...TEST_ADDRESS,
          state: input.state ?? TEST_ADDRESS.state,
          postalCode: input.postalCode ?? TEST_ADDRESS.postalCode,
        },
      },
    ),
    TEXAS_PRICING,
  );
  if (!result.ok) throw new Error(`order not placed: ${result.reason}`);
  return { order: result.order, films };
}

/**
 * A paid pickup order of a new customer (born `dateOfBirth`): one copy of a new regular title at
 * $15.00, and one of a new adult title when `adult`; paid through the test provider unless
 * `paid` is false. Its e-mails go to the account's own address, returned as `email`.
 */
export async function paidPickupOrder(
  db: Database,
  input: {
    adult?: boolean;
    paid?: boolean;
    ordersUrl: string;
    config: PlaceOrderConfig;
  },
) {
  const customer = await createCustomer(db);
  const email = `order-${customer}@example.test`;
  const film = await createRegularTitle(db, { qty: 5, priceCents: 1500 });
  const lines: PlaceOrderInput["lines"] = [
    { productType: "regular", serialNo: film.serialNo, quantity: 1 },
  ];
  if (input.adult) {
    const adult = await createAdultTitle(db, { qty: 5, priceCents: 2000 });
    lines.push({ productType: "adult", serialNo: adult.serialNo, quantity: 1 });
  }
  const placed = await placeOrder(
    db,
    orderInput(customer, lines, {
      shippingMethod: "pickup",
      shipping: { ...TEST_ADDRESS, name: `Pat Pickup ${customer.slice(0, 8)}`, email },
    }),
    input.config,
  );
  if (!placed.ok) throw new Error(placed.reason);
  await payPlacedOrder(db, {
    order: placed.order,
    email,
    lines: placed.order.items,
    provider: "test",
    ordersUrl: input.ordersUrl,
    paid: input.paid,
  });
  return {
    orderId: placed.order.id,
    customerId: customer,
    name: placed.order.shipping.name,
    email,
    order: placed.order,
  };
}
