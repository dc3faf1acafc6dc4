import { betterAuth, type BetterAuthOptions } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { admin, genericOAuth, twoFactor } from "better-auth/plugins";
import { type Database, getDb } from "#app/db/client.server.ts";
import { customers } from "#app/db/schema.ts";
import { CLIENT_IP_HEADER } from "#app/lib/client-ip.ts";
import { authSecret } from "./auth-secret.server.ts";
import { weakPasswordReason } from "./common-passwords.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import { resetPasswordMessage, verifyEmailMessage } from "#app/emails/account-emails.ts";
import { type Env, getEnv, publicUrl } from "#app/lib/env.server.ts";
import { SHOP } from "#app/lib/site.ts";
import { afterAuthEndpoint, beforeAuthEndpoint, endResetLinks } from "./auth-guards.server.ts";

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

/** Endpoints that choose a new password, and the body field that carries it. */
const PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
};

/**
 * Requests allowed per client in each window (seconds), counted in the database so that every
 * server process shares the count; tighter on the endpoints that check a secret or send mail.
 */
const RATE_LIMIT = {
  enabled: true,
  storage: "database",
  window: 60,
  max: 100,
  customRules: {
    "/sign-in/email": { window: 60, max: 5 },
    "/two-factor/verify-totp": { window: 60, max: 5 },
    "/two-factor/verify-backup-code": { window: 60, max: 5 },
    "/request-password-reset": { window: 300, max: 3 },
    "/sign-up/email": { window: 300, max: 5 },
    "/send-verification-email": { window: 300, max: 3 },
  },
} satisfies BetterAuthOptions["rateLimit"];

type AuthContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The shop's Better Auth, on the shop's database unless a test passes its own. */
export function createAuth(db: Database = getDb()) {
  const env = getEnv();
  const baseURL = publicUrl(env);
  const google = googleSignIn(env);
  // The tables as the handle's own schema holds them: the handle may have been made by the server
  // entry, whose copies of the table objects are not this bundle's, and the adapter finds a
  // table's relations (a session read with its user in one statement) by the object itself.
  const tables = db._.fullSchema;

  return betterAuth({
    appName: SHOP.name,
    baseURL,
    basePath: "/api/auth",
    secret: authSecret(env),
    trustedOrigins: [baseURL],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: tables.users,
        session: tables.sessions,
        account: tables.accounts,
        verification: tables.verifications,
        twoFactor: tables.twoFactors,
        rateLimit: tables.rateLimits,
      },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      onPasswordReset: async ({ user }) => {
        await endResetLinks(user.id);
      },
      sendResetPassword: async ({ user, url }) => {
        await queueMail({ to: user.email, ...resetPasswordMessage({ name: user.name, url }) });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, url }) => {
        await queueMail({ to: user.email, ...verifyEmailMessage({ name: user.name, url }) });
      },
    },
    // Listing sessions answers with every session's token; the shop has no screen that needs it.
    disabledPaths: ["/list-sessions", "/admin/list-user-sessions"],
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    // The profile's copy on the account (migration 0042): read with the session, never written
    // through Better Auth's endpoints.
    user: {
      additionalFields: {
        profileFirstName: { type: "string", required: false, input: false },
        profileLastName: { type: "string", required: false, input: false },
        profileDateOfBirth: { type: "string", required: false, input: false },
      },
    },
    account: { accountLinking: { enabled: true } },
    rateLimit: RATE_LIMIT,
    advanced: {
      cookiePrefix: "shop",
      useSecureCookies: baseURL.startsWith("https://"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // A session is read with its user in one statement (the relations in db/schema.ts).
      database: { joins: true },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        await beforeAuthEndpoint(ctx);
        refuseWeakPassword(ctx);
      }),
      after: createAuthMiddleware(afterAuthEndpoint),
    },
    databaseHooks: {
      user: {
        create: {
          after: createCustomerProfile,
        },
      },
    },
    plugins: [
      admin({ defaultRole: "customer", adminRoles: ["admin"] }),
      twoFactor({ issuer: SHOP.name }),
      ...(google ? [google] : []),
    ],
  });
}

/** Google sign-in, when the shop has its client id and secret. */
function googleSignIn(env: Env) {
  return env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
    ? genericOAuth({
        config: [
          {
            providerId: "google",
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            discoveryUrl: `${env.GOOGLE_ISSUER.replace(/\/$/, "")}/.well-known/openid-configuration`,
            scopes: ["openid", "email", "profile"],
            pkce: true,
          },
        ],
      })
    : undefined;
}

/** Refuses a new password that is too easily guessed, on the endpoints that choose one. */
function refuseWeakPassword(ctx: AuthContext) {
  const field = PASSWORD_FIELDS[ctx.path];
  const body = ctx.body as Record<string, unknown> | undefined;
  const password = field ? body?.[field] : undefined;
  if (typeof password !== "string") return;
  const email = typeof body?.email === "string" ? body.email : ctx.context.session?.user.email;
  const reason = weakPasswordReason(password, { email });
  if (reason) throw new APIError("BAD_REQUEST", { message: reason, code: "WEAK_PASSWORD" });
}

/**
 * Every account has its customer profile row, named after the account (registration then
 * stores the names and date of birth as typed).
 */
async function createCustomerProfile(user: { id: string; email: string; name: string }) {
  const [firstName, ...rest] = user.name.trim().split(/\s+/);
  await getDb()
    .insert(customers)
    .values({
      id: user.id,
      email: user.email,
      firstName: firstName || null,
      lastName: rest.join(" ") || null,
    })
    .onConflictDoNothing();
}

export type Auth = ReturnType<typeof createAuth>;

const globalAuth = globalThis as typeof globalThis & { __shopAuth?: Auth };

export function getAuth(): Auth {
  globalAuth.__shopAuth ??= createAuth();
  return globalAuth.__shopAuth;
}

export function googleSignInEnabled(): boolean {
  const env = getEnv();
  return Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);
}
