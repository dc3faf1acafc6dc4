import { data, redirect } from "react-router";
import { getAuth } from "#app/domain/accounts/auth.server.ts";
import { displayName } from "#app/lib/display-name.ts";
import { safeLocalPath } from "#app/lib/safe-redirect.ts";
import { can, type Permission, type Role, roleOf } from "./permissions.ts";
import { staffOf, type Staff } from "./staff.ts";

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

/**
 * Who is signed in, read with the session in one statement: the account, and the profile's name
 * and birth date, which the database copies onto the account (migration 0042).
 */
export async function getSignedInUser(request: Request): Promise<SignedInUser | null> {
  if (!hasSessionCookie(request)) return null;
  const session = await getAuth().api.getSession({ headers: request.headers });
  if (!session) return null;
  const { user } = session;
  const profile = {
    firstName: user.profileFirstName ?? null,
    lastName: user.profileLastName ?? null,
    dateOfBirth: user.profileDateOfBirth ?? null,
  };
  return {
    id: user.id,
    email: user.email,
    role: roleOf(user.role),
    twoFactorEnabled: Boolean(user.twoFactorEnabled),
    emailVerified: user.emailVerified === true,
    displayName: displayName(profile, user.email),
    ...profile,
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

/**
 * `requireStaffAction` for an action that only needs to know who acts: the staff member as the
 * histories, the ledger and the till name them.
 */
export async function requireActingStaff(request: Request, permission: Permission): Promise<Staff> {
  return staffOf(await requireStaffAction(request, permission));
}

/** A local page to return to after signing in; anything else becomes the home page. */
export function safeRedirectTo(value: unknown): string {
  return safeLocalPath(value, "/", { refusePrefixes: ["/api/"] });
}
