import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema.ts";

export type Database = NodePgDatabase<typeof schema>;

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
