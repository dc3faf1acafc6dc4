import { randomUUID } from "node:crypto";
import type { Database } from "#app/db/client.server.ts";
import { users } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";

/**
 * A staff member (an admin account, its e-mail made of its id) as the histories name them. Pass
 * the id where a test names the staff member by it.
 */
export async function createStaff(
  db: Database,
  name: string,
  id: string = randomUUID(),
): Promise<Staff> {
  await db.insert(users).values({ id, name, email: `${id}@example.test`, role: "admin" });
  return { id, name };
}
