import type { SignedInUser } from "./session.server.ts";

/** The staff member acting: named in the history of what they change. */
export type Staff = { id: string; name: string };

/** The signed-in staff member as the histories name them. */
export function staffOf(user: Pick<SignedInUser, "id" | "displayName">): Staff {
  return { id: user.id, name: user.displayName };
}
