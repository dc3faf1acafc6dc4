import pg from "pg";

/**
 * The statements sent to PostgreSQL while `run` runs (each is submitted as a `pg.Query`): how
 * many round trips a press or a page costs, counted rather than timed.
 */
export async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Query.prototype as unknown as { text?: string; submit: () => unknown };
  const submit = query.submit;
  query.submit = function (this: typeof query, ...args: unknown[]) {
    sent.push(this.text ?? "");
    return (submit as (...rest: unknown[]) => unknown).apply(this, args);
  };
  try {
    await run();
  } finally {
    query.submit = submit;
  }
  return sent;
}
