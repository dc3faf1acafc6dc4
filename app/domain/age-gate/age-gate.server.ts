import { createCookie, redirect } from "react-router";
import { getSignedInUser } from "#app/domain/accounts/session.server.ts";
import { checkAdultBuyer } from "#app/domain/orders/adult-buyer.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { safeLocalPath } from "#app/lib/safe-redirect.ts";

/**
 * The adult catalogue's age gate (DESIGN §3.6). Today the check is a self-declaration kept in a
 * cookie; the rest of the shop only calls `isAgeVerified` / `requireAgeVerified` /
 * `confirmAge`, so a stronger age-verification provider can replace this module.
 */
const ageCookie = createCookie("age_verified", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 60 * 60 * 24 * 30,
});

export const AGE_CHECK_PATH = "/age-check";

/**
 * Confirmed once with the gate's button, or by being signed in with a date of birth that says
 * 18 or older (such a customer is never asked again).
 */
export async function isAgeVerified(request: Request, now = new Date()): Promise<boolean> {
  if (await confirmedByCookie(request.headers.get("Cookie"))) return true;
  const user = await getSignedInUser(request);
  return Boolean(user && checkAdultBuyer(user.dateOfBirth, now, getEnv().SHOP_TIME_ZONE).ok);
}

/**
 * Visitors past the gate by its cookie, as one audience of the page cache: the adult pages are
 * the same for all of them (server/page-cache.ts keeps them under this name).
 */
export const AGE_VERIFIED_AUDIENCE = "age-verified";

/**
 * Headers of the pages behind the gate: private to everyone outside the shop, but the same for
 * every visitor past the gate, so the shop's own page cache may keep one copy for all of them.
 */
export function ageGatedPageHeaders() {
  return { ...privatePageHeaders(), "X-Shared-With": AGE_VERIFIED_AUDIENCE };
}

/**
 * The page-cache audience of a signed-out request: past the gate or anyone (""). Answered at
 * once for the many requests without the gate's cookie.
 */
export function ageAudienceOf(cookieHeader: string | undefined): string | Promise<string> {
  if (!cookieHeader?.includes(`${ageCookie.name}=`)) return "";
  return confirmedByCookie(cookieHeader).then((yes) => (yes ? AGE_VERIFIED_AUDIENCE : ""));
}

/** Whether the gate's cookie says its button was pressed. */
async function confirmedByCookie(cookieHeader: string | null | undefined): Promise<boolean> {
  const value: unknown = await ageCookie.parse(cookieHeader ?? null);
  return value === "yes";
}

/** A local path to come back to after the gate; anything else becomes the adult list. */
export function safeReturnTo(value: unknown): string {
  return safeLocalPath(value, "/adult-movies");
}

export async function requireAgeVerified(request: Request): Promise<void> {
  if (await isAgeVerified(request)) return;
  const url = new URL(request.url);
  const returnTo = `${url.pathname}${url.search}`;
  throw redirect(`${AGE_CHECK_PATH}?returnTo=${encodeURIComponent(returnTo)}`);
}

export async function confirmAge(request: Request, returnTo: string): Promise<Response> {
  // Secure whenever the shop is reached over HTTPS (directly or through a proxy that says so),
  // so a plain-HTTP install on a local network still keeps the answer.
  const secure = new URL(request.url).protocol === "https:";
  return redirect(safeReturnTo(returnTo), {
    headers: { "Set-Cookie": await ageCookie.serialize("yes", { secure }) },
  });
}
