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

describe("a connection the database cuts while it is in use", () => {
  it("fails what is sent on it as unavailable, never the process, and is not handed out again", async () => {
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    const ended = new Promise((resolve) => client.once("end", resolve));
    // What a fast shutdown, a restart or a failover does to every session: the server ends it,
    // here between two statements of a transaction.
    const admin = new pg.Client(inject("databaseUrl"));
    await admin.connect();
    try {
      await admin.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    await ended;
    expect(isDatabaseUnavailable(await failure(() => client.query("select 1")))).toBe(true);
    client.release();
    // A new connection serves the next statement.
    expect((await db.execute(sql`select 1 as one`)).rows).toEqual([{ one: 1 }]);
  });
});
