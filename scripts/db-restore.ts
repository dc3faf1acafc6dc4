// npm run db:restore -- <file> [--force]
// Restores a backup made by `npm run db:backup`. A copy of the embedded database's files goes
// back into the embedded cluster of DATA_DIR, with the shop stopped; --force replaces a cluster
// already there, which is kept beside it, renamed (scripts/embedded-backup.ts).
// A pg_dump archive (`npm run db:backup` with DATABASE_URL, or any `pg_dump -Fc` of the shop's
// database) goes into the database of DATABASE_URL, or the embedded one of DATA_DIR. A database that already
// has tables is refused unless --force, which first drops what the backup holds (its schemas
// other than public, and the shop's tables, functions and types in public) and then restores.
// Everything runs in one transaction: the restore either completes or changes nothing. Objects
// end up owned by the user of the connection, the user the shop itself connects as.
// Exit code: 0 when restored, 1 when the restore failed, 2 for a usage error or a database that
// already has tables (without --force).
import { spawn } from "node:child_process";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { getEnv } from "#app/lib/env.server.ts";
import { connectForCli } from "#server/connect.ts";
import { isEmbeddedCopy, RestoreRefused, restoreEmbeddedBackup } from "./embedded-backup.ts";
import {
  describeDatabase,
  findTool,
  inspectServer,
  isCustomArchive,
  libpqConnection,
  MissingToolError,
  userPath,
} from "./postgres-tools.ts";

const SHOWN_TABLES = 5;

const usage = "Usage: npm run db:restore -- <file> [--force]";
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { force: { type: "boolean", default: false } },
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.error(usage);
  process.exit(2);
}
const { values, positionals } = parsed;
if (positionals.length !== 1 || !positionals[0]) {
  console.error(usage);
  process.exit(2);
}
const file = userPath(positionals[0]);
if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
  console.error(`No such file: ${file}`);
  process.exit(2);
}
if (isEmbeddedCopy(file)) {
  if (process.env.DATABASE_URL) {
    console.error(
      `${file} is a copy of the embedded database's files: it restores only into the embedded\n` +
        "database of DATA_DIR. Unset DATABASE_URL to restore it there.",
    );
    process.exit(2);
  }
  const dataDir = getEnv().DATA_DIR;
  console.log(`Restoring ${file} into the embedded database of ${dataDir}…`);
  const started = performance.now();
  try {
    const { tables, keptAs } = await restoreEmbeddedBackup(file, dataDir, {
      force: values.force,
      log: (line) => console.log(line),
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Restored ${tables} tables in ${seconds} s.`);
    if (keptAs) console.log(`The database it replaced is kept in ${keptAs}.`);
    console.log("Start the shop: migrations newer than the backup are applied at start.");
    process.exit(0);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    if (!(error instanceof RestoreRefused)) console.error("Nothing was changed.");
    process.exit(error instanceof RestoreRefused ? 2 : 1);
  }
}
if (!isCustomArchive(file)) {
  console.error(
    `${file} is not a backup in pg_dump's custom format (npm run db:backup, pg_dump -Fc).\n` +
      "A plain SQL dump is restored with psql instead.",
  );
  process.exit(2);
}

/** The schemas the archive creates, from its table of contents ("… SCHEMA - pgboss owner"). */
async function archiveSchemas(pgRestore: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const list = await new Promise<string>((resolve, reject) => {
    const child = spawn(pgRestore, ["--list", file], { env, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`pg_restore cannot read ${file}.`)),
    );
  });
  return [...list.matchAll(/^\d+; \d+ \d+ SCHEMA - (\S+) /gm)].map((match) => match[1]!);
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * SQL run before the backup's own, in its transaction, when --force replaces a database: drops
 * the backup's schemas, and in public (which stays, with the extensions installed there) every
 * table, view, sequence, function and type that no extension owns.
 */
function dropStatements(schemas: string[]): string {
  const drops = schemas
    .filter((schema) => schema !== "public")
    .map((schema) => `drop schema if exists ${quoteIdentifier(schema)} cascade;`);
  return `set client_min_messages = warning;
${drops.join("\n")}
do $$
declare
  statements text[];
  statement text;
begin
  select coalesce(array_agg(sql), '{}') into statements from (
    select format('drop %s if exists %s cascade',
             case c.relkind when 'v' then 'view' when 'm' then 'materialized view'
               when 'S' then 'sequence' when 'f' then 'foreign table' else 'table' end,
             c.oid::regclass) as sql
      from pg_class c
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
       -- not extensions' own, and not what goes with its table (identity sequences, partitions)
       and not exists (select from pg_depend d where d.classid = 'pg_class'::regclass
                         and d.objid = c.oid and d.deptype in ('e', 'i', 'a'))
    union all
    select format('drop routine if exists %s cascade', p.oid::regprocedure)
      from pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and not exists (select from pg_depend d where d.classid = 'pg_proc'::regclass
                         and d.objid = p.oid and d.deptype = 'e')
    union all
    select format('drop type if exists %s cascade', t.oid::regtype)
      from pg_type t
     where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd', 'r', 'm')
       and not exists (select from pg_depend d where d.classid = 'pg_type'::regclass
                         and d.objid = t.oid and d.deptype = 'e')
  ) drops;
  foreach statement in array statements loop
    execute statement;
  end loop;
end $$;
`;
}

/**
 * pg_restore turns the archive into SQL and psql runs it, after `prelude`, as one transaction
 * that stops at the first error.
 */
async function restore(
  tools: { pgRestore: string; psql: string },
  dbname: string,
  env: NodeJS.ProcessEnv,
  prelude: string,
): Promise<void> {
  const psql = spawn(
    tools.psql,
    [
      "--no-psqlrc",
      "--quiet",
      "--no-password",
      "--single-transaction",
      "--set=ON_ERROR_STOP=1",
      `--dbname=${dbname}`,
      "--file=-",
    ],
    { env, stdio: ["pipe", "ignore", "pipe"] },
  );
  const pgRestore = spawn(
    tools.pgRestore,
    // Owners and grants name roles of the server the backup came from.
    ["--no-owner", "--no-privileges", "--file=-", file],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let restoreErrors = "";
  pgRestore.stderr.setEncoding("utf8").on("data", (chunk: string) => (restoreErrors += chunk));
  psql.stderr.pipe(process.stderr);
  // psql stops reading at the first error: the rest of the script has nowhere to go.
  psql.stdin.on("error", () => {});
  psql.stdin.write(prelude);
  pgRestore.stdout.pipe(psql.stdin);
  const exited = (child: ReturnType<typeof spawn>) =>
    new Promise<number>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => resolve(code ?? 1));
    });
  const [restoreCode, psqlCode] = await Promise.all([exited(pgRestore), exited(psql)]);
  if (psqlCode !== 0) {
    throw new Error(`The restore stopped at the error above (psql exit code ${psqlCode}).`);
  }
  if (restoreCode !== 0) {
    process.stderr.write(restoreErrors);
    if (/unsupported version/i.test(restoreErrors)) {
      console.error(
        `This backup was written by a newer pg_dump than ${tools.pgRestore}: restore it with the\n` +
          "pg_restore of that PostgreSQL version or newer.",
      );
    }
    throw new Error(`pg_restore failed (exit code ${restoreCode}).`);
  }
}

const embedded = !process.env.DATABASE_URL;
let connection: Awaited<ReturnType<typeof connectForCli>>;
try {
  connection = await connectForCli();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const where = describeDatabase(connection.url);
let exitCode = 0;
try {
  const server = await inspectServer(connection.url);
  if (server.tables.length > 0 && !values.force) {
    const shown = server.tables.slice(0, SHOWN_TABLES).join(", ");
    const more = server.tables.length > SHOWN_TABLES ? ", …" : "";
    console.error(
      `The ${where} already has ${server.tables.length} tables (${shown}${more}).\n` +
        "Restoring would replace them with the backup's. Stop the shop, then run again with\n" +
        "--force to drop and replace them, or restore into a new, empty database.",
    );
    exitCode = 2;
  } else {
    const tools = { pgRestore: findTool("pg_restore", server), psql: findTool("psql", server) };
    const { dbname, env } = libpqConnection(connection.url);
    const prelude = values.force
      ? dropStatements(await archiveSchemas(tools.pgRestore, env))
      : "set client_min_messages = warning;\n";
    console.log(`Restoring ${file} into the ${where} (PostgreSQL ${server.version})…`);
    const started = performance.now();
    try {
      await restore(tools, dbname, env, prelude);
    } catch (error) {
      throw new Error(`${(error as Error).message} Nothing was changed.`, { cause: error });
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Restored in ${seconds} s. Start the shop: migrations newer than the backup are applied at start.`,
    );
  }
} catch (error) {
  exitCode = 1;
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof MissingToolError && embedded) {
    console.error("The embedded database ships its server only, not these client programs.");
  }
} finally {
  await connection.stop();
}
process.exit(exitCode);
