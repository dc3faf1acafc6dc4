import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CLUSTERS_HOME } from "#server/embedded-postgres-reach.ts";
import { clusterDirOf } from "#server/embedded-postgres.ts";

/**
 * Whether the embedded server runs as a user other than the shop's: as root it runs as
 * `postgres`, which cannot enter a folder only root may (docs/decisions/019).
 */
export const serverRunsAsAnotherUser = process.getuid?.() === 0;

/** A new temporary folder only its owner may enter, as root's home on Debian and Ubuntu. */
export function ownerOnlyFolder(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(folder, 0o700);
  return folder;
}

/**
 * Removes a DATA_DIR, and the folder of its own its cluster was given in CLUSTERS_HOME when
 * DATA_DIR/postgres links there.
 */
export function removeDataDir(dataDir: string): void {
  const clusterDir = clusterDirOf(dataDir);
  if (fs.lstatSync(clusterDir, { throwIfNoEntry: false })?.isSymbolicLink()) {
    const kept = path.resolve(dataDir, fs.readlinkSync(clusterDir));
    const home = path.dirname(kept);
    fs.rmSync(path.dirname(home) === CLUSTERS_HOME ? home : kept, { recursive: true, force: true });
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
