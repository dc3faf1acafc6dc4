import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";

/**
 * SQLSTATEs by which PostgreSQL says it cannot serve now, rather than that the statement is
 * wrong: shutting down or starting up (57P01-57P03), too many connections (53300), a statement
 * cancelled by statement_timeout (57014), and every connection exception (class 08).
 */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300", "57014"]);

/** Network errors met while reaching the database. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"]);

/** What node-postgres and its pool say when the connection is gone or never answered. */
const DRIVER_MESSAGES =
  /^(timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)/;

function isUnavailableCause(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? "";
    return UNAVAILABLE_STATES.has(code) || code.startsWith("08");
  }
  if (!(error instanceof Error)) return false;
  const system = error as NodeJS.ErrnoException;
  if (system.syscall === "connect" || (system.code && NETWORK_CODES.has(system.code))) return true;
  return DRIVER_MESSAGES.test(error.message);
}

/**
 * Whether an error means the database could not be reached or did not answer in time (as
 * opposed to a bug or bad input): the request is then answered 503, "try again in a moment"
 * (DESIGN §3.14). Looks through wrappers (Drizzle's "Failed query" keeps the driver's error as
 * its cause).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && !seen.has(current)) {
    seen.add(current);
    if (isUnavailableCause(current)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** What one request met: the first error by which the database was unavailable. */
export type DatabaseWatch = { unavailable?: unknown };

// The server entry and the built app are separate module graphs sharing one pool (see
// client.server.ts): they share the one store too.
const globalWatch = globalThis as typeof globalThis & {
  __shopDatabaseWatch?: AsyncLocalStorage<DatabaseWatch>;
};
const watches = (globalWatch.__shopDatabaseWatch ??= new AsyncLocalStorage<DatabaseWatch>());

/**
 * Runs `work` (one request) noting whether any statement it ran met an unavailable database,
 * even one whose error was caught and dealt with along the way (a library's session look-up, a
 * row a page can do without).
 */
export function watchDatabase<T>(watch: DatabaseWatch, work: () => T): T {
  return watches.run(watch, work);
}

/** Called by the pool for every failed connection or statement. */
export function noteDatabaseFailure(error: unknown): void {
  const watch = watches.getStore();
  if (watch && watch.unavailable === undefined && isDatabaseUnavailable(error)) {
    watch.unavailable = error;
  }
}
