import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema.ts";

/** Drizzle over a pool; `$client` is that pool, for the few statements prepared by hand. */
export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

type Handle = { pool: pg.Pool; db: Database };

// The server entry and the built app are separate module graphs; keeping the handle on
// globalThis gives both (and Vite's hot reload) the one pool.
const globalHandle = globalThis as typeof globalThis & { __shopDatabase?: Handle };

// DATE columns stay "YYYY-MM-DD" strings instead of becoming midnight in the server's zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export function createDatabase(connectionString: string, max = 10): Handle {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  pool.on("error", (error) => console.error("PostgreSQL pool error", error));
  return { pool, db: drizzle(pool, { schema, casing: "snake_case" }) };
}

function handle(): Handle {
  if (!globalHandle.__shopDatabase) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: the server starts the database first.");
    const max = Number(process.env.DATABASE_POOL_SIZE) || 10;
    globalHandle.__shopDatabase = createDatabase(url, max);
  }
  return globalHandle.__shopDatabase;
}

export function getDb(): Database {
  return handle().db;
}

export function getPool(): pg.Pool {
  return handle().pool;
}

export async function closeDb(): Promise<void> {
  const current = globalHandle.__shopDatabase;
  globalHandle.__shopDatabase = undefined;
  await current?.pool.end();
}

/**
 * Runs one statement by hand on a pooled connection, usually prepared by name (parsed and
 * planned once per connection). Unlike `pool.query`, which closes the connection after any
 * error, an error the database answers with (a shortage raised on purpose, a constraint) keeps
 * the connection in the pool: under load, closing it would make the next request pay for a new
 * one.
 */
export async function queryByHand<Row extends pg.QueryResultRow>(
  db: Database,
  query: pg.QueryConfig,
): Promise<pg.QueryResult<Row>> {
  const client = await db.$client.connect();
  let broken: Error | undefined;
  try {
    return await client.query<Row>(query);
  } catch (error) {
    if (!(error instanceof pg.DatabaseError)) broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}
