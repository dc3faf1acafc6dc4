// npm run db:seed -- --regular 100000 --adult 20000
// Fills the shop's database (DATABASE_URL, or the embedded one in DATA_DIR) with the demo
// catalogue if it is empty, then adds the requested number of synthetic titles.
import { parseArgs } from "node:util";
import { createDatabase } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { seedDemoIfEmpty } from "#app/db/seed/demo.server.ts";
import { seedSynthetic } from "#app/db/seed/synthetic.server.ts";
import { connectForCli } from "#server/connect.ts";

const { values } = parseArgs({
  options: {
    regular: { type: "string", default: "0" },
    adult: { type: "string", default: "0" },
  },
});
const regular = Number(values.regular);
const adult = Number(values.adult);
if (
  !Number.isInteger(regular) ||
  !Number.isInteger(adult) ||
  regular < 0 ||
  adult < 0 ||
  regular > 5_000_000
) {
  console.error("Usage: npm run db:seed -- --regular <count> --adult <count>");
  process.exit(2);
}

const connection = await connectForCli();
const { db, pool } = createDatabase(connection.url, 2);
try {
  await runMigrations(db);
  const demo = await seedDemoIfEmpty(db);
  if (demo) console.log("Demo catalogue:", demo);
  const started = Date.now();
  await seedSynthetic(db, { regular, adult });
  const { rows } = await pool.query(
    "select (select count(*) from regular_titles) as regular, (select count(*) from adult_titles) as adult",
  );
  console.log(
    `Added ${regular} regular and ${adult} adult synthetic titles in ${Date.now() - started} ms.`,
  );
  console.log("Catalogue now holds:", rows[0]);
} finally {
  await pool.end();
  await connection.stop();
}
