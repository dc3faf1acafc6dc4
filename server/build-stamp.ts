// The production build and the stamp that says which sources it was built from, shared by
// `npm run build` and `npm start` (which builds only when the stamp no longer matches).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { precompressDirectory } from "./precompress.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const stampFile = path.join(root, "build/.sources-mtime");
const lockDir = path.join(root, ".build-lock");
const SOURCES = ["app", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

function newestMtime(entry: string): number {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) {
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

function sourcesStamp(): string {
  return String(Math.max(...SOURCES.map(newestMtime)));
}

export function isBuilt(): boolean {
  return (
    fs.existsSync(path.join(root, "build/server/index.js")) &&
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, "utf8") === sourcesStamp()
  );
}

/** Builds the app and records the sources it was built from; returns the build's exit code. */
export function build(): number {
  const stamp = sourcesStamp();
  const result = spawnSync(path.join(root, "node_modules/.bin/react-router"), ["build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) return result.status ?? 1;
  const { files, saved } = precompressDirectory(path.join(root, "build/client"));
  console.log(`Compressed ${files} files ahead (brotli saves ${Math.round(saved / 1024)} KB)`);
  fs.writeFileSync(stampFile, stamp);
  return 0;
}

/**
 * Runs `work` while no other `npm start` or `npm run build` of this checkout builds. The lock is
 * a directory (created atomically) holding the owner's pid; one left by a process that died is
 * taken over.
 */
export async function whileHoldingBuildLock<T>(work: () => T): Promise<T> {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, "pid"), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(fs.readFileSync(path.join(lockDir, "pid"), { flag: "a+" }).toString());
      if (owner && !isRunning(owner)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Builds when the build is missing or older than the sources; returns the build's exit code. */
export function buildIfStale(): Promise<number> {
  return whileHoldingBuildLock(() => {
    // Another process may have built while this one waited for the lock.
    if (isBuilt()) return 0;
    console.log("Building the shop (first start or changed sources)…");
    return build();
  });
}
