import { and, eq, like } from "drizzle-orm";
import { APIError, getSessionFromCtx, isAPIError } from "better-auth/api";
import type { createAuthMiddleware } from "better-auth/api";
import { getDb } from "#app/db/client.server.ts";
import { verifications } from "#app/db/schema.ts";
import { authBodyProblem } from "./auth-input.ts";
import {
  ACCOUNT_LIMITS,
  addressLimitKey,
  clearLimit,
  consumeLimit,
  type Limit,
} from "./rate-limit.server.ts";

type AuthContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Endpoints limited per account (the e-mail address in the body), and their limits. */
const ACCOUNT_LIMITED: Record<string, { name: string; limit: Limit }> = {
  "/sign-in/email": { name: "sign-in", limit: ACCOUNT_LIMITS.signIn },
  "/request-password-reset": { name: "password-reset", limit: ACCOUNT_LIMITS.passwordReset },
  "/send-verification-email": {
    name: "confirmation-email",
    limit: ACCOUNT_LIMITS.confirmationEmail,
  },
};

export const TOO_MANY_ATTEMPTS = "Too many attempts. Please wait a minute and try again.";

/** A TOTP code is valid for up to 90 s (one 30 s step either side); remember uses longer. */
const TOTP_REUSE_WINDOW: Limit = { windowSeconds: 120, max: 1 };

/** Claims held by a TOTP verification in flight, released if the code proves wrong. */
const totpClaims = new WeakMap<Request, string>();

function emailIn(body: unknown): string | undefined {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : undefined;
}

/** The account a TOTP code is being checked for: the signed-in user or the pending sign-in. */
async function totpAccount(ctx: AuthContext): Promise<string | undefined> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.id;
  const cookie = ctx.context.createAuthCookie("two_factor");
  const pending = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!pending) return undefined;
  const verification = await ctx.context.internalAdapter.findVerificationValue(pending);
  return verification?.value;
}

/** Runs before every auth endpoint: input limits, per-account limits, one use per TOTP code. */
export async function beforeAuthEndpoint(ctx: AuthContext): Promise<void> {
  const problem = authBodyProblem(ctx.body);
  if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: "INVALID_INPUT" });

  const limited = ctx.path ? ACCOUNT_LIMITED[ctx.path] : undefined;
  const email = emailIn(ctx.body);
  if (limited && email) {
    const result = await consumeLimit(getDb(), addressLimitKey(limited.name, email), limited.limit);
    if (!result.allowed) {
      throw new APIError(
        "TOO_MANY_REQUESTS",
        { message: TOO_MANY_ATTEMPTS, code: "ACCOUNT_RATE_LIMITED" },
        { "Retry-After": String(result.retryAfterSeconds) },
      );
    }
  }

  const code = (ctx.body as { code?: unknown } | undefined)?.code;
  if (ctx.path === "/two-factor/verify-totp" && typeof code === "string" && ctx.request) {
    const account = await totpAccount(ctx);
    if (!account) return; // the library answers a missing or stale sign-in itself
    const key = `totp-used:${account}:${code.trim()}`;
    const claim = await consumeLimit(getDb(), key, TOTP_REUSE_WINDOW);
    if (!claim.allowed) {
      throw new APIError("UNAUTHORIZED", {
        message: "That code was already used. Wait for the next code in your app.",
        code: "TOTP_CODE_USED",
      });
    }
    totpClaims.set(ctx.request, key);
  }
}

/** Runs after every auth endpoint, with its answer. */
export async function afterAuthEndpoint(ctx: AuthContext): Promise<void> {
  const failed = isAPIError(ctx.context.returned);
  const claim = ctx.request ? totpClaims.get(ctx.request) : undefined;
  if (claim && failed) await clearLimit(getDb(), claim);

  if (ctx.path === "/sign-in/email" && !failed) {
    const returned = ctx.context.returned as { twoFactorRedirect?: boolean } | undefined;
    const email = emailIn(ctx.body);
    // A finished sign-in (not one waiting for its second factor) forgets the failed attempts.
    if (email && !returned?.twoFactorRedirect)
      await clearLimit(getDb(), addressLimitKey("sign-in", email));
  }
  if (ctx.path === "/change-password" && !failed) {
    const session = await getSessionFromCtx(ctx).catch(() => null);
    if (session) await endResetLinks(session.user.id);
  }
}

/** A new password ends every reset link still outstanding for the account. */
export async function endResetLinks(userId: string): Promise<void> {
  await getDb()
    .delete(verifications)
    .where(
      and(like(verifications.identifier, "reset-password:%"), eq(verifications.value, userId)),
    );
}
