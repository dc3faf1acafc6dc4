import { desc, eq } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/client.server.ts";
import { customerBirthDateChanges, customers } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";

export const BIRTH_DATE_FIXED =
  "Your date of birth is on file and decides adult purchases, so it cannot be changed here. To correct it, contact the shop.";

/** Raised by the database when anyone but staff changes a date of birth given before. */
const FIXED_SQLSTATE = "RR002";

export type BirthDateChange = {
  fromDate: string | null;
  toDate: string | null;
  /** The staff member's name; null when the customer gave it. */
  actorName: string | null;
  note: string | null;
  createdAt: string;
};

/**
 * The customer's own profile: names always, the date of birth only while none is on file. It
 * decides whether adult titles may be bought, so once given only staff correct it (a trigger
 * refuses anything else: migration 0015, whatever code path tries).
 */
export async function updateOwnProfile(
  db: Database,
  customerId: string,
  profile: { firstName: string; lastName: string; dateOfBirth: string | null },
): Promise<{ ok: true } | { ok: false; field: "dateOfBirth"; message: string }> {
  const refused = { ok: false, field: "dateOfBirth", message: BIRTH_DATE_FIXED } as const;
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx
        .select({ dateOfBirth: customers.dateOfBirth })
        .from(customers)
        .where(eq(customers.id, customerId))
        .for("update");
      const keep = current?.dateOfBirth ?? null;
      if (keep && profile.dateOfBirth && profile.dateOfBirth !== keep) return refused;
      await tx
        .update(customers)
        .set({
          firstName: profile.firstName,
          lastName: profile.lastName,
          dateOfBirth: keep ?? profile.dateOfBirth,
          updatedAt: new Date(),
        })
        .where(eq(customers.id, customerId));
      return { ok: true } as const;
    });
  } catch (error) {
    // The trigger's refusal, should another path have given a date meanwhile.
    if (sqlState(error) === FIXED_SQLSTATE) return refused;
    throw error;
  }
}

/** Staff correct a date of birth (after seeing an ID, say), named in its history with a note. */
export async function correctBirthDate(
  db: Database,
  input: {
    customerId: string;
    dateOfBirth: string | null;
    note: string;
    staff: Staff;
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await withActor(tx, input.staff, input.note);
    const rows = await tx
      .update(customers)
      .set({ dateOfBirth: input.dateOfBirth, updatedAt: new Date() })
      .where(eq(customers.id, input.customerId))
      .returning({ id: customers.id });
    return rows.length === 1;
  });
}

/** Every change of a customer's date of birth, newest first. */
export async function birthDateHistory(
  db: Database,
  customerId: string,
): Promise<BirthDateChange[]> {
  const rows = await db
    .select({
      fromDate: customerBirthDateChanges.fromDate,
      toDate: customerBirthDateChanges.toDate,
      actorName: customerBirthDateChanges.actorName,
      note: customerBirthDateChanges.note,
      createdAt: customerBirthDateChanges.createdAt,
    })
    .from(customerBirthDateChanges)
    .where(eq(customerBirthDateChanges.customerId, customerId))
    .orderBy(desc(customerBirthDateChanges.id))
    .limit(50);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

function sqlState(error: unknown): string | undefined {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
