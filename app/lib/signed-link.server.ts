import { createHmac, timingSafeEqual } from "node:crypto";

// The shop's links that work without signing in (an unpaid order's way back from the payment
// page, a booking's cancel link, a repair ticket's status page, a stock alert's confirm and
// unsubscribe links) carry an HMAC-SHA256 of what they are for and whom, with the shop's secret:
// numbers in URLs are sequential, signatures are not. The signed text is
// `<purpose>:<part>:<part>…`, base64url: links e-mailed before this module still verify.

type Part = string | number;

function signature(purpose: string, parts: readonly Part[], secret: string): Buffer {
  return createHmac("sha256", secret)
    .update([purpose, ...parts].join(":"))
    .digest();
}

/**
 * The token of a link for `purpose` and `parts`. With `expiresAt`, the moment (whole seconds)
 * is signed too and the token reads `<seconds>.<signature>`, so it cannot be stretched.
 */
export function signLink(
  purpose: string,
  parts: readonly Part[],
  secret: string,
  options: { expiresAt?: Date } = {},
): string {
  if (!options.expiresAt) return signature(purpose, parts, secret).toString("base64url");
  const seconds = Math.floor(options.expiresAt.getTime() / 1000);
  return `${seconds}.${signature(purpose, [...parts, seconds], secret).toString("base64url")}`;
}

/**
 * Whether `token` was signed by `signLink` for this purpose and these parts. Given `now`, the
 * token must carry an expiry still ahead of it; without, it must carry none. Compared in
 * constant time.
 */
export function isSignedLink(
  purpose: string,
  parts: readonly Part[],
  token: string,
  secret: string,
  options: { now?: Date } = {},
): boolean {
  let signed = parts;
  let given = token;
  if (options.now) {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]+)$/.exec(token);
    if (!match) return false;
    const seconds = Number(match[1]);
    if (seconds * 1000 <= options.now.getTime()) return false;
    signed = [...parts, seconds];
    given = match[2]!;
  } else if (token.includes(".")) {
    return false;
  }
  const expected = signature(purpose, signed, secret);
  const bytes = Buffer.from(given, "base64url");
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}
