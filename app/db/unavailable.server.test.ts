import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "./client.server.ts";
import { freePort } from "#server/free-port.ts";
import { isDatabaseUnavailable } from "./unavailable.server.ts";

const { db, pool } = createDatabase(inject("databaseUrl"), {
  max: 1,
  connectTimeoutMs: 1000,
  statementTimeoutMs: 200,
});
afterAll(() => pool.end());

async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("isDatabaseUnavailable", () => {
  it("is true for a statement cancelled by the statement timeout, through Drizzle's wrapper", async () => {
    const error = await failure(() => db.execute(sql`select pg_sleep(1)`));
    expect((error as Error).message).toMatch(/^Failed query/);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("is true when nothing listens where the database should be", async () => {
    const port = await freePort();
    const client = new pg.Client({ connectionString: `postgresql://x:y@127.0.0.1:${port}/shop` });
    expect(isDatabaseUnavailable(await failure(() => client.connect()))).toBe(true);
  });

  it("is false for a mistake in the statement or the data, and for unrelated errors", async () => {
    expect(isDatabaseUnavailable(await failure(() => db.execute(sql`select nothing_here`)))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(await failure(() => db.execute(sql`select 1/0`)))).toBe(false);
    const missingFile = Object.assign(new Error("ENOENT: no such file"), {
      code: "ENOENT",
      syscall: "open",
    });
    expect(isDatabaseUnavailable(missingFile)).toBe(false);
    expect(isDatabaseUnavailable(new Error("Something else"))).toBe(false);
  });
});
