import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customers, users } from "#app/db/schema.ts";
import { statementsOf } from "#tests/support/statements.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import { createAuth } from "./auth.server.ts";

const db = testDatabase();

describe("reading the session of a signed-in request", () => {
  it("reads the session and its user in one statement", async () => {
    const context = await createAuth(db).$context;
    const id = randomUUID();
    await db
      .insert(users)
      .values({ id, name: "Reader", email: `${id}@example.test`, emailVerified: true });
    try {
      const session = await context.internalAdapter.createSession(id);
      let found: Awaited<ReturnType<typeof context.internalAdapter.findSession>> = null;
      const sent = await statementsOf(async () => {
        found = await context.internalAdapter.findSession(session.token);
      });
      expect(found!.user).toMatchObject({ id, name: "Reader" });
      expect(found!.session.userId).toBe(id);
      // Every signed-in page and action begins here: one round trip, not one per table.
      expect(sent).toHaveLength(1);
    } finally {
      await db.delete(users).where(eq(users.id, id));
    }
  });

  it("brings the profile's name and birth date with it, as the profile is now", async () => {
    const context = await createAuth(db).$context;
    const id = randomUUID();
    const email = `${id}@example.test`;
    await db.insert(users).values({ id, name: "Reader", email, emailVerified: true });
    try {
      const session = await context.internalAdapter.createSession(id);
      const read = async () => {
        let found: Awaited<ReturnType<typeof context.internalAdapter.findSession>> = null;
        const sent = await statementsOf(async () => {
          found = await context.internalAdapter.findSession(session.token);
        });
        expect(sent).toHaveLength(1);
        return found!.user;
      };
      expect(await read()).toMatchObject({ profileFirstName: null, profileLastName: null });

      await db
        .insert(customers)
        .values({ id, email, firstName: "Rita", lastName: "Reel", dateOfBirth: "1990-04-01" });
      expect(await read()).toMatchObject({
        profileFirstName: "Rita",
        profileLastName: "Reel",
        profileDateOfBirth: "1990-04-01",
      });

      await db.update(customers).set({ firstName: "Rhoda" }).where(eq(customers.id, id));
      expect(await read()).toMatchObject({
        profileFirstName: "Rhoda",
        profileLastName: "Reel",
        profileDateOfBirth: "1990-04-01",
      });
    } finally {
      await db.delete(users).where(eq(users.id, id));
    }
  });

  it("never takes a profile's copy from what the account's owner sends", async () => {
    const auth = createAuth(db);
    const fields = (await auth.$context).options.user?.additionalFields ?? {};
    for (const field of ["profileFirstName", "profileLastName", "profileDateOfBirth"] as const) {
      expect(fields[field]).toMatchObject({ input: false });
    }
  });
});
