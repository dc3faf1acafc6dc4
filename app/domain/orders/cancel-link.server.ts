import { isSignedLink, signLink } from "#app/lib/signed-link.server.ts";

const PURPOSE = "order-cancel";

/**
 * The way back from a payment page to the cart, cancelling the unpaid order. It carries a
 * signature of the order number, so a link on another site (which the browser would send with
 * the shopper's cookie) cannot cancel anyone's order: order numbers are sequential, this is not.
 */
export function orderCancelPath(orderId: number, secret: string): string {
  return `/checkout/cancel?order=${orderId}&token=${signLink(PURPOSE, [orderId], secret)}`;
}

export function isOrderCancelToken(orderId: number, token: string, secret: string): boolean {
  return isSignedLink(PURPOSE, [orderId], token, secret);
}
