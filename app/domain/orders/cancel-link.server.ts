import { createHmac, timingSafeEqual } from "node:crypto";

const PURPOSE = "order-cancel";

function signature(orderId: number, secret: string): Buffer {
  return createHmac("sha256", secret).update(`${PURPOSE}:${orderId}`).digest();
}

/**
 * The way back from a payment page to the cart, cancelling the unpaid order. It carries a
 * signature of the order number, so a link on another site (which the browser would send with
 * the shopper's cookie) cannot cancel anyone's order: order numbers are sequential, this is not.
 */
export function orderCancelPath(orderId: number, secret: string): string {
  const token = signature(orderId, secret).toString("base64url");
  return `/checkout/cancel?order=${orderId}&token=${token}`;
}

export function isOrderCancelToken(orderId: number, token: string, secret: string): boolean {
  const given = Buffer.from(token, "base64url");
  const expected = signature(orderId, secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
