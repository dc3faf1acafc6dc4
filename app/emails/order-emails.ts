import { formatUsd } from "#app/lib/money.ts";
import { greetingName } from "#app/lib/person-name.ts";
import { shopContact } from "#app/lib/env.server.ts";
import { formatShopLongDate } from "#app/lib/shop-time.ts";
import { SHOP, SHOP_ADDRESS } from "#app/lib/site.ts";
import { renderEmail } from "./layout.ts";

export type OrderConfirmation = {
  orderNumber: number;
  name: string;
  placedAt: Date;
  /** The shop's calendar (SHOP_TIME_ZONE), on which the order is dated. */
  timeZone: string;
  lines: { title: string; quantity: number; unitPriceCents: number }[];
  shippingMethodName: string;
  /** Picked up at the store: the address is the shop's, and the next e-mail says it is ready. */
  pickup?: boolean;
  subtotalCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  address: { name: string; address: string; city: string; state: string; postalCode: string };
  ordersUrl: string;
};

/** Sent once, when the payment for an order is confirmed (spec §7 order confirmation). */
export function orderConfirmationMessage(order: OrderConfirmation) {
  const { address } = order;
  const next = order.pickup
    ? "We will write again when it is ready to pick up, with the code to show at the counter."
    : "We will write again when it ships.";
  const destination = order.pickup
    ? `Pick up at: ${SHOP.name}, ${address.address}, ${address.city}, ${address.state} ${address.postalCode}`
    : `Shipping to: ${address.name}, ${address.address}, ${address.city}, ${address.state} ${address.postalCode}`;
  return renderEmail({
    subject: `Your ${SHOP.name} order #${order.orderNumber} is confirmed`,
    preview: `We received your payment of ${formatUsd(order.totalCents)}.`,
    heading: `Thank you, ${greetingName(order.name)}!`,
    paragraphs: [
      `We received your payment for order #${order.orderNumber}, placed on ${formatShopLongDate(order.placedAt, order.timeZone)}. ${next}`,
      ...order.lines.map(
        (line) =>
          `${line.quantity} × ${line.title}: ${formatUsd(line.unitPriceCents * line.quantity)}`,
      ),
      `Subtotal: ${formatUsd(order.subtotalCents)}`,
      `Shipping (${order.shippingMethodName}): ${order.shippingCents === 0 ? "Free" : formatUsd(order.shippingCents)}`,
      `Sales tax: ${formatUsd(order.taxCents)}`,
      `Total paid: ${formatUsd(order.totalCents)}`,
      destination,
    ],
    action: { label: "View your orders", url: order.ordersUrl },
    note: `Questions about your order? Write to ${shopContact().email} or call ${shopContact().phone}.`,
  });
}

/** Sent when the shop hands an order to the carrier, with the tracking number if there is one. */
export function orderShippedMessage(order: {
  orderNumber: number;
  name: string;
  carrier: string | null;
  trackingNumber: string | null;
  ordersUrl: string;
}) {
  const tracking = order.trackingNumber
    ? `Tracking number${order.carrier ? ` (${order.carrier})` : ""}: ${order.trackingNumber}`
    : order.carrier
      ? `It is travelling with ${order.carrier}.`
      : null;
  return renderEmail({
    subject: `Your ${SHOP.name} order #${order.orderNumber} has shipped`,
    preview: tracking ?? `Order #${order.orderNumber} is on its way.`,
    heading: `Good news, ${greetingName(order.name)}!`,
    paragraphs: [
      `Your order #${order.orderNumber} is on its way.`,
      ...(tracking ? [tracking] : []),
    ],
    action: { label: "View your orders", url: order.ordersUrl },
    note: `Questions about your order? Write to ${shopContact().email} or call ${shopContact().phone}.`,
  });
}

/** The Content-ID of the pickup code's QR image in the "ready for pickup" e-mail. */
export const PICKUP_QR_CID = "pickup-code";

/**
 * Sent when staff mark a pickup order ready: the code to show at the counter, written out and
 * as a QR code (attached as PNG with `PICKUP_QR_CID`), and what to bring.
 */
export function orderReadyForPickupMessage(order: {
  orderNumber: number;
  name: string;
  pickupCode: string;
  hasAdultTitles: boolean;
  ordersUrl: string;
}) {
  return renderEmail({
    subject: `Your ${SHOP.name} order #${order.orderNumber} is ready to pick up`,
    preview: `Your pickup code is ${order.pickupCode}.`,
    heading: `It is ready, ${greetingName(order.name)}!`,
    paragraphs: [
      `Your order #${order.orderNumber} is waiting for you at the counter, ${SHOP_ADDRESS}.`,
      `Your pickup code: ${order.pickupCode}`,
      "Show the code, or the QR code below, at the counter. If you have neither with you, your name and order number will do.",
      ...(order.hasAdultTitles
        ? ["Your order has adult titles: please bring an ID showing you are 18 or older."]
        : []),
    ],
    image: { cid: PICKUP_QR_CID, alt: `QR code of pickup code ${order.pickupCode}`, size: 200 },
    action: { label: "View your orders", url: order.ordersUrl },
    note: `Questions about your order? Write to ${shopContact().email} or call ${shopContact().phone}.`,
  });
}

/**
 * Sent when the shop cancels an order: an unpaid one (nothing was charged), or a paid one once
 * its refund went through.
 */
export function orderCancelledMessage(order: {
  orderNumber: number;
  name: string;
  refundedCents: number | null;
  ordersUrl: string;
}) {
  const money =
    order.refundedCents === null
      ? "You have not been charged for it."
      : `We refunded ${formatUsd(order.refundedCents)} to the card you paid with; depending on your bank it shows on your statement within 5 to 10 business days.`;
  return renderEmail({
    subject: `Your ${SHOP.name} order #${order.orderNumber} was cancelled`,
    preview: money,
    heading: `Hello ${greetingName(order.name)},`,
    paragraphs: [`We cancelled your order #${order.orderNumber}.`, money],
    action: { label: "View your orders", url: order.ordersUrl },
    note: `Questions about this? Write to ${shopContact().email} or call ${shopContact().phone}.`,
  });
}
