// Shared by db:backup and db:restore: finding PostgreSQL's own client programs (pg_dump,
// pg_restore) of the right version, and handing them the shop's connection without ever putting
// its password on a command line or in a message.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

export type ServerInfo = { major: number; version: string; database: string; tables: string[] };

/** Tables of the database outside PostgreSQL's own schemas, as `schema.table`. */
export async function inspectServer(url: string): Promise<ServerInfo> {
  const client = new pg.Client({ connectionString: url, application_name: "shop-backup" });
  await client.connect();
  try {
    const { rows } = await client.query<{ num: string; version: string; database: string }>(
      `select current_setting('server_version_num') as num,
              current_setting('server_version') as version,
              current_database() as database`,
    );
    const tables = await client.query<{ name: string }>(
      `select schemaname || '.' || tablename as name from pg_tables
        where schemaname not in ('pg_catalog', 'information_schema')
        order by schemaname = 'public' desc, schemaname, tablename`,
    );
    const { num, version, database } = rows[0]!;
    return {
      major: Math.floor(Number(num) / 10000),
      version: version.split(" ")[0]!,
      database,
      tables: tables.rows.map((row) => row.name),
    };
  } finally {
    await client.end();
  }
}

/**
 * What libpq's programs need to reach the database: the connection string without its password
 * (command lines are visible to every user of the machine) and the password in PGPASSWORD.
 */
export function libpqConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (parsed.password) {
    env.PGPASSWORD = decodeURIComponent(parsed.password);
    parsed.password = "";
  }
  return { dbname: parsed.toString(), env };
}

/** "database shop on db.internal:5432" — for messages; never the user's password. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "(default)";
  const host = decodeURIComponent(parsed.hostname) || "the local socket";
  return `database ${database} on ${host}${parsed.port ? `:${parsed.port}` : ""}`;
}

/** Where the usual packages put the client programs of one PostgreSQL major version. */
function versionedBinDirs(major: number): string[] {
  return [
    `/usr/lib/postgresql/${major}/bin`, // Debian, Ubuntu (postgresql-client-N)
    `/usr/pgsql-${major}/bin`, // Red Hat family (PGDG packages)
    `/opt/homebrew/opt/postgresql@${major}/bin`, // Homebrew on Apple silicon
    `/usr/local/opt/postgresql@${major}/bin`, // Homebrew on Intel
  ];
}

function versionOf(command: string): { major: number; text: string } | undefined {
  const result = spawnSync(command, ["--version"], { encoding: "utf8" });
  if (result.error || result.status !== 0) return undefined;
  // "pg_dump (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
  const match = /\(PostgreSQL\) ((\d+)\S*)/.exec(result.stdout);
  return match ? { major: Number(match[2]), text: match[1]! } : undefined;
}

export class MissingToolError extends Error {}

/**
 * The program `name` from PostgreSQL `serverMajor` or newer: the one on PATH when it is new
 * enough, else one installed for that major version in the usual places. pg_dump refuses a
 * server newer than itself, and an archive is only readable by a pg_restore at least as new as
 * the pg_dump that wrote it, so older ones are never used.
 */
export function findTool(name: "pg_dump" | "pg_restore" | "psql", server: ServerInfo): string {
  const candidates = [name, ...versionedBinDirs(server.major).map((dir) => path.join(dir, name))];
  const found: string[] = [];
  for (const candidate of candidates) {
    if (candidate !== name && !fs.existsSync(candidate)) continue;
    const version = versionOf(candidate);
    if (!version) continue;
    if (version.major >= server.major) return candidate;
    found.push(`${candidate === name ? `${name} on PATH` : candidate}: PostgreSQL ${version.text}`);
  }
  const major = server.major;
  throw new MissingToolError(
    [
      `${name} from PostgreSQL ${major} or newer is needed for this server (PostgreSQL ${server.version}).`,
      found.length > 0
        ? `Found only older ones:\n  ${found.join("\n  ")}`
        : `No ${name} was found on PATH.`,
      `Install the PostgreSQL ${major} client programs and put their folder first on PATH, e.g.`,
      `  Debian/Ubuntu: postgresql-client-${major} from the PostgreSQL apt repository (apt.postgresql.org)`,
      `  Red Hat family: postgresql${major} from the PostgreSQL yum repository`,
      `  macOS: brew install postgresql@${major}`,
    ].join("\n"),
  );
}

/**
 * Runs a client program, its output passed through; resolves with its exit code and what it
 * wrote to stderr (for hints).
 */
export function runTool(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      process.stderr.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), stderr }));
  });
}

/** A path the user typed, relative to where they ran `npm run` (npm itself runs in the project). */
export function userPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/** True when the file starts like an archive of pg_dump's custom format (-Fc). */
export function isCustomArchive(file: string): boolean {
  const handle = fs.openSync(file, "r");
  try {
    const magic = Buffer.alloc(5);
    fs.readSync(handle, magic, 0, 5, 0);
    return magic.toString("latin1") === "PGDMP";
  } finally {
    fs.closeSync(handle);
  }
}
