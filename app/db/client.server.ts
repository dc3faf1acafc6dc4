import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { getEnv } from "#app/lib/env.server.ts";
import * as schema from "./schema.ts";
import { noteDatabaseFailure } from "./unavailable.server.ts";

/** Drizzle over a pool; `$client` is that pool, for the few statements prepared by hand. */
export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** A transaction handed out by `db.transaction` (or a savepoint inside one). */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

type Handle = { pool: pg.Pool; db: Database };

// The server entry and the built app are separate module graphs; keeping the handle on
// globalThis gives both (and Vite's hot reload) the one pool.
const globalHandle = globalThis as typeof globalThis & { __shopDatabase?: Handle };

// DATE columns stay "YYYY-MM-DD" strings instead of becoming midnight in the server's zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export type PoolLimits = {
  /** Connections kept open. */
  max?: number;
  /** The longest wait for a connection, free in the pool or newly opened (0: no limit). */
  connectTimeoutMs?: number;
  /** PostgreSQL cancels a statement running longer (0: no limit). */
  statementTimeoutMs?: number;
};

/** How much longer than statement_timeout the shop waits for a database that does not answer. */
export const UNANSWERED_MARGIN_MS = 1000;

/**
 * Lets the request being served know when its connection or statement failed because the
 * database is away (unavailable.server.ts), whatever the code that asked does with the error.
 */
function observe<T>(result: T, onError?: (error: unknown) => void): T {
  if (result instanceof Promise) {
    result.catch((error: unknown) => {
      noteDatabaseFailure(error);
      onError?.(error);
    });
  }
  return result;
}

/**
 * A query the database never answered (it is paused, or the network dropped it) leaves its
 * connection waiting for that answer, perhaps inside a transaction whose ROLLBACK can no longer
 * be sent. Such a connection must never serve anyone again: it is closed at once, which the pool
 * notices when it comes back, and the database rolls back whatever it left open.
 */
function watchClient(client: pg.PoolClient) {
  // A connection the server ends while it is checked out (between the statements of a
  // transaction, or as one is written: a fast shutdown, a restart, a failover) reports it as an
  // 'error' event besides failing its statements; the pool listens only while it is idle, and an
  // event nobody listens to ends the process. The failed statements answer the request (503),
  // and the pool drops the connection when it is released.
  client.on("error", () => {});
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) =>
    observe(query(...args), (error) => {
      if (error instanceof Error && error.message === "Query read timeout") {
        client.end().catch(() => {});
      }
    })) as typeof client.query;
}

function watchPool(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => observe(query(...args))) as typeof pool.query;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) => observe(connect(...args))) as typeof pool.connect;
  pool.on("connect", watchClient);
}

export function createDatabase(connectionString: string, limits: PoolLimits | number = {}): Handle {
  const {
    max = 10,
    connectTimeoutMs = 0,
    statementTimeoutMs = 0,
  } = typeof limits === "number" ? { max: limits } : limits;
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: connectTimeoutMs,
    ...(statementTimeoutMs > 0
      ? {
          statement_timeout: statementTimeoutMs,
          query_timeout: statementTimeoutMs + UNANSWERED_MARGIN_MS,
        }
      : {}),
  });
  pool.on("error", (error) => console.error("PostgreSQL pool error", error));
  watchPool(pool);
  return { pool, db: drizzle(pool, { schema, casing: "snake_case" }) };
}

function handle(): Handle {
  if (!globalHandle.__shopDatabase) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: the server starts the database first.");
    const env = getEnv();
    globalHandle.__shopDatabase = createDatabase(url, {
      max: env.DATABASE_POOL_SIZE,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    });
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
