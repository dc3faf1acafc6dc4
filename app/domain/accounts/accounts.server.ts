import { eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { customers, users } from "#app/db/schema.ts";
import { clientIp } from "#app/lib/client-ip.ts";
import { callAuth, type AuthResult } from "./auth-call.server.ts";
import {
  ACCOUNT_LIMITS,
  addressLimitKey,
  consumeLimit,
  REGISTER_PER_CLIENT,
} from "./rate-limit.server.ts";

export type Registration = {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string;
  password: string;
};

export type RegistrationResult =
  | { status: "created" }
  | { status: "rate-limited" }
  | { status: "already-registered" }
  | { status: "refused"; result: AuthResult<unknown> };

/**
 * Creates the account (unconfirmed; the library queues the confirmation e-mail) and fills the
 * customer profile with the names and date of birth.
 */
export async function registerCustomer(
  request: Request,
  input: Registration,
): Promise<RegistrationResult> {
  const email = input.email.toLowerCase();
  // The spec tells people when an address is already registered, which also tells anyone who
  // asks: so asking is limited per client and per address, before anything is looked up.
  const perClient = await consumeLimit(
    getDb(),
    `register-client:${clientIp(request)}`,
    REGISTER_PER_CLIENT,
  );
  const perAddress = await consumeLimit(
    getDb(),
    addressLimitKey("register", email),
    ACCOUNT_LIMITS.register,
  );
  if (!perClient.allowed || !perAddress.allowed) return { status: "rate-limited" };
  const [existing] = await getDb()
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  if (existing) return { status: "already-registered" };

  const result = await callAuth<{ user?: { id: string; email: string } }>(
    request,
    "/sign-up/email",
    {
      name: `${input.firstName} ${input.lastName}`,
      email,
      password: input.password,
      callbackURL: confirmedLoginPath(email),
    },
  );
  if (!result.ok || !result.body.user) return { status: "refused", result };
  const profile = {
    firstName: input.firstName,
    lastName: input.lastName,
    dateOfBirth: input.dateOfBirth,
  };
  await getDb()
    .insert(customers)
    .values({ id: result.body.user.id, email: result.body.user.email, ...profile })
    .onConflictDoUpdate({ target: customers.id, set: { ...profile, updatedAt: new Date() } });
  return { status: "created" };
}

/**
 * Where every confirmation link returns (spec: to /login), with the address so the login page
 * can say it is confirmed and fill it in.
 */
export function confirmedLoginPath(email: string): string {
  return `/login?verified=1&email=${encodeURIComponent(email)}`;
}

/** Spec §4: after a sign-in the customer record is upserted with the account's e-mail. */
export async function touchCustomer(userId: string, email: string) {
  await getDb()
    .insert(customers)
    .values({ id: userId, email })
    .onConflictDoUpdate({ target: customers.id, set: { email, updatedAt: new Date() } });
}
