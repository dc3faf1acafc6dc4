// npm run db:backup -- <file>
// A consistent backup of the shop's whole database (catalogue, customers, orders, repair
// bookings, sessions, the mail queue), taken while the shop runs. With DATABASE_URL: pg_dump's
// custom format, by the server's own client programs. With the embedded server of DATA_DIR
// (started for the backup when the shop is not running): a hot copy of its files in a .tar.gz,
// which needs no client programs (scripts/embedded-backup.ts, docs/decisions/009).
// Restore either with `npm run db:restore -- <file>`.
// Exit code: 0 when the backup is written and readable, 1 when it failed (nothing is left at
// <file>: an earlier backup there stays as it was), 2 for a usage error.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { getEnv } from "#app/lib/env.server.ts";
import { connectForCli } from "#server/connect.ts";
import { takeEmbeddedBackup } from "./embedded-backup.ts";
import {
  describeDatabase,
  findTool,
  inspectServer,
  libpqConnection,
  runTool,
  userPath,
} from "./postgres-tools.ts";

const usage = "Usage: npm run db:backup -- <file>";
let positionals: string[];
try {
  ({ positionals } = parseArgs({ allowPositionals: true, options: {} }));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.error(usage);
  process.exit(2);
}
if (positionals.length !== 1 || !positionals[0]) {
  console.error(usage);
  process.exit(2);
}
const target = userPath(positionals[0]);
if (!fs.existsSync(path.dirname(target))) {
  console.error(`No such folder: ${path.dirname(target)}`);
  process.exit(2);
}
if (fs.existsSync(target) && !fs.statSync(target).isFile()) {
  console.error(`${target} is not a file.`);
  process.exit(2);
}

const embedded = !process.env.DATABASE_URL;
let connection: Awaited<ReturnType<typeof connectForCli>>;
try {
  connection = await connectForCli();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
// Written beside the target and renamed when complete, so a failed backup never replaces a
// good one, and readable by its owner only: it holds customers' data and password hashes.
const partial = `${target}.partial`;
let exitCode = 0;
try {
  const server = await inspectServer(connection.url);
  if (embedded) {
    console.log(`Copying the embedded database (PostgreSQL ${server.version}) while it runs…`);
    fs.rmSync(partial, { force: true });
    const started = performance.now();
    const { files } = await takeEmbeddedBackup(connection.url, getEnv().DATA_DIR, partial);
    fs.renameSync(partial, target);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Wrote ${target} (${formatSize(fs.statSync(target).size)}, ${server.tables.length} tables, ` +
        `${files} files) in ${seconds} s.`,
    );
  } else {
    const pgDump = findTool("pg_dump", server);
    const pgRestore = findTool("pg_restore", server);
    const { dbname, env } = libpqConnection(connection.url);
    console.log(`Backing up ${describeDatabase(connection.url)} (PostgreSQL ${server.version})…`);
    fs.rmSync(partial, { force: true });
    fs.writeFileSync(partial, "", { mode: 0o600 });
    const started = performance.now();
    const dump = await runTool(
      pgDump,
      ["--format=custom", "--no-password", `--file=${partial}`, `--dbname=${dbname}`],
      env,
    );
    if (dump.code !== 0) throw new Error(`pg_dump failed (exit code ${dump.code}).`);
    // A backup is only as good as its ability to be read back: check its table of contents.
    const list = await runTool(pgRestore, ["--list", `--file=${os.devNull}`, partial], env);
    if (list.code !== 0) throw new Error("The archive pg_dump wrote cannot be read back.");
    fs.renameSync(partial, target);
    const size = fs.statSync(target).size;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Wrote ${target} (${formatSize(size)}, ${server.tables.length} tables) in ${seconds} s.`,
    );
  }
} catch (error) {
  exitCode = 1;
  fs.rmSync(partial, { force: true });
  console.error(error instanceof Error ? error.message : error);
  console.error("No backup was written.");
} finally {
  await connection.stop();
}
process.exit(exitCode);

function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
