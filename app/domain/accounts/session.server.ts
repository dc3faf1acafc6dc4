import { eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { getDb } from "#app/db/client.server.ts";
import { customers } from "#app/db/schema.ts";
import { getAuth } from "#app/domain/accounts/auth.server.ts";
import { displayName } from "#app/lib/display-name.ts";
import { safeLocalPath } from "#app/lib/safe-redirect.ts";
import { can, type Permission, type Role, roleOf } from "./permissions.ts";

export type SignedInUser = {
  id: string;
  email: string;
  role: Role;
  displayName: string;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  twoFactorEnabled: boolean;
  /** The account's address is proven: its confirmation link was followed (or Google said so). */
  emailVerified: boolean;
};

/** The name of the session cookie: its absence means a visitor, without asking the database. */
export const SESSION_COOKIE_PATTERN = /(?:^|;\s*)(?:__Secure-)?shop\.session_token=/;

export function hasSessionCookie(request: Request): boolean {
  return SESSION_COOKIE_PATTERN.test(request.headers.get("Cookie") ?? "");
}

/** Who is signed in, as the session says: the account alone, without the customer profile. */
export type SignedInAccount = Pick<
  SignedInUser,
  "id" | "email" | "role" | "twoFactorEnabled" | "emailVerified"
>;

/**
 * The signed-in account for actions that need only its id and role (placing an order): one
 * query fewer than `getSignedInUser`, which also reads the customer profile for display.
 */
export async function getSignedInAccount(request: Request): Promise<SignedInAccount | null> {
  if (!hasSessionCookie(request)) return null;
  const session = await getAuth().api.getSession({ headers: request.headers });
  if (!session) return null;
  return {
    id: session.user.id,
    email: session.user.email,
    role: roleOf(session.user.role),
    twoFactorEnabled: Boolean(session.user.twoFactorEnabled),
    emailVerified: session.user.emailVerified === true,
  };
}

export async function getSignedInUser(request: Request): Promise<SignedInUser | null> {
  const account = await getSignedInAccount(request);
  if (!account) return null;
  const [profile] = await getDb()
    .select({
      firstName: customers.firstName,
      lastName: customers.lastName,
      dateOfBirth: customers.dateOfBirth,
    })
    .from(customers)
    .where(eq(customers.id, account.id));
  return {
    ...account,
    displayName: displayName(profile, account.email),
    firstName: profile?.firstName ?? null,
    lastName: profile?.lastName ?? null,
    dateOfBirth: profile?.dateOfBirth ?? null,
  };
}

/** Where a guard sends a visitor: the login page, with the way back. */
export function loginRedirect(request: Request) {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
}

export async function requireUser(request: Request): Promise<SignedInUser> {
  const user = await getSignedInUser(request);
  if (!user) throw loginRedirect(request);
  return user;
}

/**
 * The guard of every back-office page (spec §4): visitors go to /login and come back, anyone
 * signed in without the permission (a customer, or a clerk on an admin's page) goes to /.
 */
export async function requireStaff(
  request: Request,
  permission: Permission,
): Promise<SignedInUser> {
  const user = await requireUser(request);
  if (!can(user.role, permission)) throw redirect("/");
  return user;
}

/**
 * The guard of every back-office action: anyone without the permission is refused with 403 and
 * nothing changes (a page sends people elsewhere, but a refused write is an error).
 */
export async function requireStaffAction(
  request: Request,
  permission: Permission,
): Promise<SignedInUser> {
  const user = await getSignedInUser(request);
  if (!user || !can(user.role, permission)) {
    throw data({ error: "Only staff can do this." }, { status: 403 });
  }
  return user;
}

/** A local page to return to after signing in; anything else becomes the home page. */
export function safeRedirectTo(value: unknown): string {
  return safeLocalPath(value, "/", { refusePrefixes: ["/api/"] });
}
