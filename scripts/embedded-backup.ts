// Backups of the embedded database (DATA_DIR, no DATABASE_URL): a hot physical copy of the
// cluster's files, taken while the shop runs, in one .tar.gz. No PostgreSQL client programs are
// needed, only the server the shop already ships. Why a physical copy: docs/decisions/009.
//
// Taking it: a temporary replication slot keeps every WAL segment from the start of the copy,
// pg_backup_start/pg_backup_stop bracket the copy of the data files, and the WAL written in
// between goes in after them with the backup_label PostgreSQL hands back. Started on that copy,
// PostgreSQL replays the WAL to a consistent state: what was committed when the copy ended.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import * as tar from "tar";
import {
  clusterDirOf,
  passwordFileOf,
  runningPort,
  startEmbeddedPostgres,
} from "#server/embedded-postgres.ts";

const MANIFEST = "shop-backup.json";
const CLUSTER = "postgres";
const PASSWORD = "postgres-password";
const FORMAT = "reel-and-repair embedded cluster copy";

type Manifest = { format: string; version: 1; taken: string; postgres: string; walEnd: string };

/** True for a file written by takeEmbeddedBackup (a gzip stream), rather than a pg_dump archive. */
export function isEmbeddedCopy(file: string): boolean {
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, 2, 0);
  } finally {
    fs.closeSync(fd);
  }
  return head[0] === 0x1f && head[1] === 0x8b;
}

// What pg_basebackup leaves out as well: files of the running server and its temporary state,
// rebuilt at start. Their folders are kept, empty.
const EMPTIED = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_stat_tmp",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_subtrans",
]);
const SKIPPED = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "backup_label",
  "backup_label.old",
  "tablespace_map",
  "current_logfiles",
]);

/**
 * Copies the cluster's data files while they change. Files PostgreSQL removes meanwhile (a
 * dropped table, a temporary file) are simply absent from the copy: WAL replay accounts for them.
 */
function copyDataFiles(from: string, to: string, top = true): number {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  let bytes = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (top && SKIPPED.has(entry.name)) continue;
    if (entry.name.startsWith("pgsql_tmp")) continue;
    if (entry.isDirectory()) {
      if (top && EMPTIED.has(entry.name)) fs.mkdirSync(target, { mode: 0o700 });
      else bytes += copyDataFiles(source, target, false);
    } else if (entry.isFile()) {
      try {
        fs.copyFileSync(source, target);
        bytes += fs.statSync(target).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
  }
  return bytes;
}

/**
 * Writes a hot copy of the embedded cluster of `dataDir` (reached at `url`, running) to `target`
 * through `partial`, which the caller renames. Returns the number of files in the archive.
 */
export async function takeEmbeddedBackup(
  url: string,
  dataDir: string,
  partial: string,
): Promise<{ files: number }> {
  const clusterDir = clusterDirOf(dataDir);
  const staging = `${partial}.d`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { mode: 0o700 });
  const client = new pg.Client({ connectionString: url, application_name: "shop-backup" });
  await client.connect();
  try {
    // Temporary: it goes with this session, whatever happens to the backup.
    await client.query("select pg_create_physical_replication_slot($1, true, true)", [
      `shop_backup_${process.pid}`,
    ]);
    const started = await client.query<{ lsn: string; file: string; version: string }>(
      `select lsn::text, pg_walfile_name(lsn) as file, current_setting('server_version') as version
         from pg_backup_start('npm run db:backup', true) as lsn`,
    );
    const { file: firstWal, version } = started.rows[0]!;
    copyDataFiles(clusterDir, path.join(staging, CLUSTER));
    const stopped = await client.query<{ lsn: string; file: string; labelfile: string }>(
      `select lsn::text, pg_walfile_name(lsn) as file, labelfile from pg_backup_stop(false)`,
    );
    const { lsn: walEnd, file: lastWal, labelfile } = stopped.rows[0]!;
    // The WAL from the start of the copy to its end: segments (and a timeline's history files)
    // whose names sort between the first and the last, as they do within one timeline.
    const walDir = path.join(clusterDir, "pg_wal");
    const timeline = firstWal.slice(0, 8);
    for (const name of fs.readdirSync(walDir)) {
      const segment = /^[0-9A-F]{24}$/.test(name) && name >= firstWal && name <= lastWal;
      const history = /^[0-9A-F]{8}\.history$/.test(name) && name.slice(0, 8) <= timeline;
      if (segment || history) {
        fs.copyFileSync(path.join(walDir, name), path.join(staging, CLUSTER, "pg_wal", name));
      }
    }
    fs.mkdirSync(path.join(staging, CLUSTER, "pg_wal", "archive_status"), { mode: 0o700 });
    fs.writeFileSync(path.join(staging, CLUSTER, "backup_label"), labelfile, { mode: 0o600 });
    fs.copyFileSync(passwordFileOf(dataDir), path.join(staging, PASSWORD));
    const manifest: Manifest = {
      format: FORMAT,
      version: 1,
      taken: new Date().toISOString(),
      postgres: version.split(" ")[0]!,
      walEnd,
    };
    fs.writeFileSync(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2));
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true, mode: 0o600 }, [
      MANIFEST,
      PASSWORD,
      CLUSTER,
    ]);
    fs.chmodSync(partial, 0o600);
  } finally {
    await client.end().catch(() => {});
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return readManifest(partial).then(({ files }) => ({ files }));
}

/** Reads the archive through to its end (a damaged one throws) and returns its manifest. */
export async function readManifest(file: string): Promise<{ manifest: Manifest; files: number }> {
  let manifestText = "";
  let files = 0;
  let label = false;
  await tar.list({
    file,
    strict: true,
    onReadEntry: (entry) => {
      files++;
      if (entry.path === `${CLUSTER}/backup_label`) label = true;
      if (entry.path === MANIFEST) {
        entry.on("data", (chunk: Buffer) => (manifestText += chunk.toString("utf8")));
      }
    },
  });
  let manifest: Manifest | undefined;
  try {
    manifest = JSON.parse(manifestText) as Manifest;
  } catch {
    manifest = undefined;
  }
  if (manifest?.format !== FORMAT || !label) {
    throw new Error(`${file} is not a copy of the embedded database made by npm run db:backup.`);
  }
  return { manifest, files };
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, "-");

/** `chown -R`, for a cluster restored as root: the server runs as the postgres user there. */
function chownTree(dir: string, uid: number, gid: number) {
  fs.chownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(child, uid, gid);
    else fs.chownSync(child, uid, gid);
  }
}

export class RestoreRefused extends Error {}

/**
 * Restores a copy made by takeEmbeddedBackup into the embedded cluster of `dataDir`. The shop
 * must be stopped. A cluster already there is refused unless `force`, and then kept beside it
 * (renamed) rather than deleted. The copy is started once, so PostgreSQL replays its WAL, and
 * checked; if that fails the earlier cluster is put back.
 */
export async function restoreEmbeddedBackup(
  file: string,
  dataDir: string,
  { force, log }: { force: boolean; log: (line: string) => void },
): Promise<{ tables: number; keptAs?: string }> {
  const { manifest } = await readManifest(file);
  const inDataDir = clusterDirOf(dataDir);
  if (runningPort(inDataDir)) {
    throw new RestoreRefused(
      `The shop's database in ${dataDir} is running. Stop the shop (and every process using\n` +
        "this DATA_DIR), then restore.",
    );
  }
  // A cluster of this machine's PostgreSQL in place first: it creates the postgres user when
  // run as root, and says which version and owner the restored files need.
  const existed = fs.existsSync(path.join(inDataDir, "PG_VERSION"));
  if (existed && !force) {
    throw new RestoreRefused(
      `${inDataDir} already holds a database. Restoring replaces it with the backup's: run\n` +
        "again with --force to do that (the current one is kept beside it, renamed).",
    );
  }
  if (!existed) await (await startEmbeddedPostgres(dataDir)).stop();
  // Where the files are: DATA_DIR/postgres may link to a folder elsewhere (docs/decisions/019),
  // where the restored cluster goes too, and the replaced one is kept beside it.
  const clusterDir = fs.realpathSync(inDataDir);
  const ours = fs.readFileSync(path.join(clusterDir, "PG_VERSION"), "utf8").trim();
  if (manifest.postgres.split(".")[0] !== ours) {
    throw new RestoreRefused(
      `This backup is of PostgreSQL ${manifest.postgres}; the shop runs PostgreSQL ${ours}.`,
    );
  }
  const owner = fs.statSync(clusterDir);
  const keptAs = `${clusterDir}.before-restore-${stamp()}`;
  const passwordFile = passwordFileOf(dataDir);
  const previousPassword = fs.readFileSync(passwordFile);
  const incoming = `${clusterDir}.restoring`;
  fs.rmSync(incoming, { recursive: true, force: true });
  fs.mkdirSync(incoming, { mode: 0o700 });
  let swapped = false;
  try {
    await tar.extract({ file, cwd: incoming, strict: true });
    const restored = path.join(incoming, CLUSTER);
    fs.chmodSync(restored, 0o700);
    if (process.getuid?.() === 0) chownTree(restored, owner.uid, owner.gid);
    fs.renameSync(clusterDir, keptAs);
    fs.renameSync(restored, clusterDir);
    fs.copyFileSync(path.join(incoming, PASSWORD), passwordFile);
    swapped = true;
    log(`Replaying the backup's WAL (to ${manifest.walEnd})…`);
    const server = await startEmbeddedPostgres(dataDir);
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number }>(
          `select count(*)::int as n from pg_tables
            where schemaname not in ('pg_catalog', 'information_schema')`,
        );
        return { tables: rows[0]!.n, keptAs: existed ? keptAs : undefined };
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
  } catch (error) {
    if (swapped) {
      fs.rmSync(clusterDir, { recursive: true, force: true });
      fs.renameSync(keptAs, clusterDir);
      fs.writeFileSync(passwordFile, previousPassword, { mode: 0o600 });
    }
    throw error;
  } finally {
    fs.rmSync(incoming, { recursive: true, force: true });
    if (!existed && fs.existsSync(keptAs)) fs.rmSync(keptAs, { recursive: true, force: true });
  }
}
