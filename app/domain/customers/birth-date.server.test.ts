import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customers } from "#app/db/schema.ts";
import { createCustomer } from "#tests/support/order-fixtures.ts";
import { testDatabase } from "#tests/support/test-database.ts";
import {
  BIRTH_DATE_FIXED,
  birthDateHistory,
  correctBirthDate,
  updateOwnProfile,
} from "./birth-date.server.ts";

const db = testDatabase();
const names = { firstName: "Dora", lastName: "Date" };

describe("a customer's date of birth", () => {
  it("is given once by the customer; the database refuses any other change but staff's", async () => {
    const id = await createCustomer(db, null);
    expect(await updateOwnProfile(db, id, { ...names, dateOfBirth: "2012-01-02" })).toEqual({
      ok: true,
    });
    expect(await updateOwnProfile(db, id, { ...names, dateOfBirth: "1990-01-02" })).toEqual({
      ok: false,
      field: "dateOfBirth",
      message: BIRTH_DATE_FIXED,
    });
    // Whatever code path tries it, not only the profile form.
    await expect(
      db.update(customers).set({ dateOfBirth: "1990-01-02" }).where(eq(customers.id, id)),
    ).rejects.toMatchObject({ cause: { code: "RR002" } });

    const staffId = await createCustomer(db);
    expect(
      await correctBirthDate(db, {
        customerId: id,
        dateOfBirth: "2000-01-02",
        note: "Passport seen",
        staff: { id: staffId, name: "Sam Staff" },
      }),
    ).toBe(true);
    const history = await birthDateHistory(db, id);
    expect(history.map(({ createdAt: _, ...change }) => change)).toEqual([
      {
        fromDate: "2012-01-02",
        toDate: "2000-01-02",
        actorName: "Sam Staff",
        note: "Passport seen",
      },
      { fromDate: null, toDate: "2012-01-02", actorName: null, note: null },
    ]);
  });
});
