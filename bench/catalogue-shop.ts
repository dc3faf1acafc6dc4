// The shop on a large synthetic catalogue, shared by the page benchmarks (pages.ts, sizes.ts):
// its database kept per catalogue size in the system's temp folder, the two server processes on
// it (one with the page cache, one without: what a miss costs), the pages they are asked for,
// and how each page is measured.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import autocannon from "autocannon";
import pg from "pg";
import type { Database } from "#app/db/client.server.ts";
import { ADMIN_PAGE_SIZE } from "#app/domain/admin/lists.server.ts";
import {
  ADULT_SORTS,
  adminListParams,
  listAdultTitlesForAdmin,
  listRegularTitlesForAdmin,
  REGULAR_SORTS,
} from "#app/domain/catalog/admin-titles.server.ts";
import { ADULT_PAGE_SIZE } from "#app/domain/catalog/adult-titles.server.ts";
import { exportCatalogCsv, type CatalogKind } from "#app/domain/catalog/catalog-csv.server.ts";
import { REGULAR_PAGE_SIZE } from "#app/domain/catalog/regular-titles.server.ts";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "#server/embedded-postgres.ts";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";

const root = path.resolve(import.meta.dirname, "..");

/** Synthetic titles asked for (the demo catalogue's few hundred come on top). */
export type CatalogueSize = { regular: number; adult: number };

/** How a kept database was filled: by this run (`now`) or by an earlier one. */
export type SeedRecord = { regular: number; adult: number; seconds: number; at: string };

export type Catalogue = {
  dataDir: string;
  database: EmbeddedDatabase;
  db: pg.Client;
  /** Titles in the database, demo catalogue included. */
  counts: { regular: number; adult: number };
  seed: (SeedRecord & { now: boolean }) | undefined;
  close: () => Promise<void>;
};

/**
 * The folder of one catalogue size's database, kept between runs: seeding a million titles takes
 * a while. The 20,000-adult sizes keep the name `npm run bench` has always used.
 */
export function catalogueDataDir(size: CatalogueSize) {
  const adult = size.adult === 20_000 ? "" : `-${size.adult}`;
  return path.join(os.tmpdir(), `shop-bench-${size.regular}${adult}`);
}

async function countTitles(db: pg.Client) {
  const { rows } = await db.query<{ regular: string; adult: string }>(
    "select (select count(*) from regular_titles)::text as regular, (select count(*) from adult_titles)::text as adult",
  );
  return { regular: Number(rows[0]!.regular), adult: Number(rows[0]!.adult) };
}

/**
 * The kept database of this size, started (and seeded with `npm run db:seed` where it holds
 * fewer titles than asked; `reseed` starts it again from nothing). The seed time is kept beside
 * the database, so a later run on it still reports it.
 */
export async function openCatalogue(
  size: CatalogueSize,
  options: { reseed?: boolean } = {},
): Promise<Catalogue> {
  const dataDir = catalogueDataDir(size);
  if (options.reseed) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  // When run as root the server runs as a separate "postgres" user, which must reach the folder.
  fs.chmodSync(dataDir, 0o755);
  const recordFile = path.join(dataDir, "seeded.json");
  const database = await startEmbeddedPostgres(path.join(dataDir, "db"));
  const db = new pg.Client(database.url);
  await db.connect();

  const before = await countTitles(db).catch(() => ({ regular: 0, adult: 0 }));
  let seed: Catalogue["seed"];
  if (before.regular < size.regular || before.adult < size.adult) {
    const regular = Math.max(0, size.regular - before.regular);
    const adult = Math.max(0, size.adult - before.adult);
    console.log(
      `Seeding ${regular.toLocaleString("en-US")} regular and ${adult.toLocaleString("en-US")} adult titles…`,
    );
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      ["scripts/seed.ts", "--regular", String(regular), "--adult", String(adult)],
      { cwd: root, stdio: "inherit", env: { ...process.env, DATABASE_URL: database.url } },
    );
    if (run.status !== 0) throw new Error("seeding failed");
    await db.query("vacuum analyze");
    const seconds = (performance.now() - started) / 1000;
    console.log(`Seeded in ${seconds.toFixed(0)} s`);
    const record = { regular, adult, seconds, at: new Date().toISOString() };
    // Only a seed from nothing says how long this size takes.
    if (before.regular === 0) fs.writeFileSync(recordFile, JSON.stringify(record));
    seed = { ...record, now: true };
  } else if (fs.existsSync(recordFile)) {
    seed = { ...(JSON.parse(fs.readFileSync(recordFile, "utf8")) as SeedRecord), now: false };
  }
  return {
    dataDir,
    database,
    db,
    counts: await countTitles(db),
    seed,
    close: async () => {
      await db.end();
      await database.stop();
    },
  };
}

/** A file of the catalogue page's size, served by the shop as a static file: the ceiling. */
export const CEILING_FILE = "bench-ceiling.html";
const ceilingPath = path.join(root, "build/client", CEILING_FILE);

export type Shops = { cached: RunningServer; uncached: RunningServer; stop: () => Promise<void> };

/**
 * Two production servers on the catalogue: one as the shop runs, one without the page cache
 * (PAGE_CACHE_ENTRIES=0: every request rendered); and the ceiling file, as big as /movies.
 */
export async function startShops(catalogue: Catalogue): Promise<Shops> {
  const startShop = (env: Record<string, string>) =>
    startServer(
      {
        PORT: "0",
        DATABASE_URL: catalogue.database.url,
        DATA_DIR: catalogue.dataDir,
        SEED_DEMO: "false",
        ...env,
      },
      { keepOutput: false },
    );
  // The server lists the build's public files when it starts: the ceiling file is there first,
  // and gets the catalogue page's content once a server can render it.
  fs.writeFileSync(ceilingPath, "");
  const cached = await startShop({});
  const uncached = await startShop({ PAGE_CACHE_ENTRIES: "0" });
  const movies = Buffer.from(await (await fetch(`${cached.url}/movies`)).arrayBuffer());
  fs.writeFileSync(ceilingPath, movies);
  return {
    cached,
    uncached,
    stop: async () => {
      await Promise.all([cached.stop(), uncached.stop()]);
      fs.rmSync(ceilingPath, { force: true });
    },
  };
}

/** A page to measure; `next`, where given, makes each request's address (`path` is the first). */
export type Target = {
  name: string;
  path: string;
  headers?: Record<string, string>;
  next?: () => string;
};

/**
 * The catalogue pages `npm run bench` measures, deep pages found from the catalogue's size;
 * `adultLastPage` adds the adult list's last page.
 */
export async function catalogueTargets(
  catalogue: Catalogue,
  shops: Shops,
  options: { adultLastPage?: boolean } = {},
): Promise<Target[]> {
  const { db } = catalogue;
  // The adult list is behind the age gate: the cookie it sets is sent with those requests.
  const gate = await fetch(`${shops.cached.url}/age-check`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: shops.cached.url },
    body: "returnTo=%2Fadult-movies",
  });
  const ageCookie = gate.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

  const lastPage = Math.ceil(catalogue.counts.regular / REGULAR_PAGE_SIZE);
  const dvd = await db.query<{ n: string }>(
    "select total::text as n from catalogue_counts where catalogue = 'regular' and disc = 'DVD'",
  );
  const dvdLast = Math.ceil(Number(dvd.rows[0]?.n ?? 0) / REGULAR_PAGE_SIZE);
  const drama = await db.query<{ n: string }>(
    "select total::text as n from genre_counts where genre = 'Drama' and disc = ''",
  );
  const dramaLast = Math.max(1, Math.ceil(Number(drama.rows[0]?.n ?? 0) / REGULAR_PAGE_SIZE));
  const { rows: middleTitle } = await db.query<{ id: number }>(
    "select reg_serial_no as id from regular_titles order by reg_serial_no offset $1 limit 1",
    [Math.floor(catalogue.counts.regular / 2)],
  );
  const past = { Cookie: ageCookie };
  const targets: Target[] = [
    { name: "home", path: "/" },
    { name: "/movies first page", path: "/movies" },
    { name: "/movies middle page", path: `/movies?page=${Math.ceil(lastPage / 2)}` },
    { name: "/movies last page", path: `/movies?page=${lastPage}` },
    { name: "/movies DVD A→Z last page", path: `/movies?disc=DVD&sort=az&page=${dvdLast}` },
    {
      name: "/movies Drama price ↑ last page",
      path: `/movies?genre=Drama&sort=price-asc&page=${dramaLast}`,
    },
    { name: "/movies Drama price ↑ page 100", path: "/movies?genre=Drama&sort=price-asc&page=100" },
    { name: "/movies newest, page 1000", path: "/movies?sort=newest&page=1000" },
    { name: "title page", path: `/movies/${middleTitle[0]!.id}` },
    { name: "suggestions 'the'", path: "/api/search/suggestions?query=the" },
    { name: "suggestions 'spielberg'", path: "/api/search/suggestions?query=spielberg" },
    { name: "suggestions typo 'godfathr'", path: "/api/search/suggestions?query=godfathr" },
    { name: "suggestions no match", path: "/api/search/suggestions?query=qqqzzz" },
    { name: "/search 'the' page 50", path: "/search?query=the&page=50" },
    { name: "adult list (past the gate)", path: "/adult-movies", headers: past },
  ];
  if (options.adultLastPage) {
    const adultLast = Math.max(1, Math.ceil(catalogue.counts.adult / ADULT_PAGE_SIZE));
    targets.push({
      name: "adult list last page",
      path: `/adult-movies?page=${adultLast}`,
      headers: past,
    });
  }
  return targets;
}

/** The words of four letters or more among the first hundred of these titles' words. */
export function titleWords(titles: string[]) {
  return [
    ...new Set(
      titles.flatMap((title) => title.toLowerCase().match(/[a-z]{4,}/g) ?? []).slice(0, 100),
    ),
  ];
}

/**
 * What the search box asks for as someone types one of these words: a prefix, now and then a
 * typo or nothing that matches.
 */
export function typedSuggestionPath(words: string[]) {
  const word = words[Math.floor(Math.random() * words.length)]!;
  const roll = Math.random();
  const typed =
    roll < 0.1
      ? `${word}qz`
      : roll < 0.2
        ? word.slice(0, -2) + word.at(-1)
        : word.slice(0, 1 + Math.floor(Math.random() * word.length));
  return `/api/search/suggestions?query=${encodeURIComponent(typed)}`;
}

export type Measurement = { rps: number; p50: number; p99: number; errors: number };

/** One page under load: autocannon for `seconds` at `connections`. */
export async function measure(
  server: RunningServer,
  target: Omit<Target, "name">,
  connections: number,
  seconds: number,
): Promise<Measurement> {
  const { next } = target;
  const result = await autocannon({
    url: `${server.url}${target.path}`,
    connections,
    duration: seconds,
    headers: target.headers ?? {},
    ...(next ? { requests: [{ setupRequest: (request) => ({ ...request, path: next() }) }] } : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

export type PageRow = Measurement & {
  name: string;
  server: "cached" | "miss" | "static";
  connections: number;
};

/**
 * The ceiling at each number of connections, then each page: the cache warmed, measured from the
 * shop as it runs, then the same address on the server without a cache. Each row is handed to
 * `onRow` as it is measured.
 */
export async function measurePages(
  shops: Shops,
  targets: Target[],
  options: { connections: number[]; seconds: number; onRow: (row: PageRow) => void },
): Promise<PageRow[]> {
  const rows: PageRow[] = [];
  const add = (row: PageRow) => {
    rows.push(row);
    options.onRow(row);
  };
  const { connections: all, seconds } = options;
  for (const connections of all) {
    const ceiling = await measure(shops.cached, { path: `/${CEILING_FILE}` }, connections, seconds);
    add({ name: "static file (ceiling)", server: "static", connections, ...ceiling });
  }
  for (const target of targets) {
    await fetch(`${shops.cached.url}${target.path}`, { headers: target.headers });
    for (const connections of all) {
      const hit = await measure(shops.cached, target, connections, seconds);
      add({ name: target.name, server: "cached", connections, ...hit });
    }
    for (const connections of all) {
      const miss = await measure(shops.uncached, target, connections, seconds);
      add({ name: target.name, server: "miss", connections, ...miss });
    }
  }
  return rows;
}

/** A page asked for `times` times, one request at a time: the times in ms, fastest first. */
export async function oneAtATime(server: RunningServer, target: Target, times = 20) {
  const taken: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await (await fetch(`${server.url}${target.path}`, { headers: target.headers })).arrayBuffer();
    taken.push(performance.now() - started);
  }
  return taken.sort((a, b) => a - b);
}

/**
 * The back office's catalogue tables (search, sort, page) as `bench:admin-search` times them,
 * and, with the catalogue's counts, the last page of each table by serial number.
 */
export function adminCatalogueQueries(
  db: Database,
  lastPages?: { regular: number; adult: number },
): [label: string, run: () => Promise<{ total: number }>][] {
  const regular = (query: Record<string, string>) => () =>
    listRegularTitlesForAdmin(db, adminListParams(new URLSearchParams(query), REGULAR_SORTS));
  const adult = (query: Record<string, string>) => () =>
    listAdultTitlesForAdmin(db, adminListParams(new URLSearchParams(query), ADULT_SORTS));
  const last = (count: number) => String(Math.max(1, Math.ceil(count / ADMIN_PAGE_SIZE)));
  const queries: [label: string, run: () => Promise<{ total: number }>][] = [
    ["regular: first page, serial order", regular({})],
    ["regular: page 2,000, serial order", regular({ page: "2000" })],
    ["regular: sort by price desc, page 50", regular({ sort: "price", dir: "desc", page: "50" })],
    ["regular: search 'godfather' (title)", regular({ q: "godfather" })],
    ["regular: search 'spielberg' (director)", regular({ q: "spielberg" })],
    ["regular: search 'blu-ray' (disc, many)", regular({ q: "blu-ray" })],
    ["regular: search '1994' (year/serial)", regular({ q: "1994" })],
    ["regular: search 'the', sorted by title", regular({ q: "the", sort: "title" })],
    ["regular: search 'zzqx' (nothing)", regular({ q: "zzqx" })],
    ["adult: first page", adult({})],
    ["adult: search production", adult({ q: "studio" })],
  ];
  if (lastPages) {
    queries.push(
      ["regular: last page, serial order", regular({ page: last(lastPages.regular) })],
      ["adult: last page, serial order", adult({ page: last(lastPages.adult) })],
    );
  }
  return queries;
}

/** The whole catalogue's CSV, as the back office's export streams it, written to a file. */
export function exportCatalogueTo(db: Database, kind: CatalogKind, file: string) {
  return pipeline(Readable.from(exportCatalogCsv(db, kind)), fs.createWriteStream(file));
}
