import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";

/**
 * An empty database of this test file's own, `<prefix>_<pid>`, created before its tests and
 * dropped after them (after the file's own `afterAll`), for a process under test to migrate as
 * the shop's would (scratchDatabase migrates its own). `admin` is connected to the server's own
 * database meanwhile, for what only it can do to this one (refuse connections, say).
 */
export function emptyDatabase(prefix: string) {
  const adminUrl = inject("databaseUrl");
  const name = `${prefix}_${process.pid}`;
  const url = adminUrl.replace(/\/[^/]+$/, `/${name}`);
  const admin = new pg.Client(adminUrl);
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database ${name}`);
  });
  afterAll(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return { name, url, admin };
}
