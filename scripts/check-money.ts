// npm run check:money [-- --since YYYY-MM-DD]
// Reconciles every paid order with the payment provider it was paid through (its payment, each
// refund the shop recorded and each refund the provider made), every collected repair with its
// estimate, every counter sale, counter return and closed till with its own rows, and prints every difference.
// Exits 1 when there is one, so it can run from cron or CI. Works whether or not the shop is
// running (same DATA_DIR or DATABASE_URL, and the same STRIPE_* settings).
import { parseArgs } from "node:util";
import { closeDb, getDb } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { reconcileMoney } from "#app/domain/money/reconcile.server.ts";
import { paymentProviderNamed } from "#app/domain/payments/providers.server.ts";
import { connectForCli } from "#server/connect.ts";

const { values } = parseArgs({ options: { since: { type: "string" } } });
const since = values.since ? new Date(`${values.since}T00:00:00Z`) : null;
if (since && Number.isNaN(since.getTime())) {
  console.error("Usage: npm run check:money [-- --since YYYY-MM-DD]");
  process.exit(2);
}

const connection = await connectForCli();
process.env.DATABASE_URL = connection.url;
let exitCode = 0;
try {
  const db = getDb();
  await runMigrations(db);
  const report = await reconcileMoney(db, { providers: paymentProviderNamed, since });
  for (const difference of report.differences) {
    const subject = difference.repair
      ? `Repair ${difference.repair}`
      : difference.counter
        ? difference.counter
        : difference.orderId === null
          ? "No order"
          : `Order #${difference.orderId}`;
    console.log(`${subject}: ${difference.what}`);
  }
  console.log(
    `Checked ${report.orders} paid orders, ${report.againstProvider} of them against the payment provider's records, ${report.repairs} collected repairs, ${report.counterSales} counter sale${report.counterSales === 1 ? "" : "s"}${report.counterReturns > 0 ? `, ${report.counterReturns} counter return${report.counterReturns === 1 ? "" : "s"}` : ""} and ${report.tills} closed till${report.tills === 1 ? "" : "s"}: ${
      report.differences.length === 0
        ? "no differences."
        : `${report.differences.length} difference${report.differences.length === 1 ? "" : "s"}.`
    }`,
  );
  if (report.differences.length > 0) exitCode = 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await closeDb();
  await connection.stop();
}
process.exit(exitCode);
