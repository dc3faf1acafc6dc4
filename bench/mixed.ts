// `npm run bench:mixed`: everything at once against one production server on the demo catalogue:
// shoppers browsing (list, title, search and genre/price pages), the search box's suggestions,
// staff on the back office's pages, and buyers placing orders and paying them with the test card
// in a loop. Prints requests/s and p50/p99 per kind, the server's memory and the database's
// connections every sample, and the page cache's hit rate (from each page's X-Page-Cache).
//
//   node bench/mixed.ts [--seconds 30 | --minutes 3] [--browsers 16] [--suggesters 4]
//                       [--admins 2] [--buyers 4] [--popular 40] [--sample-every 60]
//                       [--pages 1000] [--stock deep|as-is] [--snapshots <folder>]
//                       [--cpu-prof <folder>] [--json <file>] [--clerks 1]
//
// --buyers 0 gives the same run without checkouts, for comparison. The popular titles are
// stocked deep first (a million copies each), so the buyers keep paying for the whole run;
// --stock as-is leaves the demo stock, and the titles sell out within minutes. The server's
// JavaScript heap is read through Node's inspector every sample; --snapshots <folder> also
// writes a heap snapshot at the first sample (after warm-up) and one at the end, and prints what
// grew between them (bench/heap.ts). It starts its own embedded PostgreSQL (a fresh one each
// run) and server, building first when the build is stale.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { buildIfStale } from "#server/build-stamp.ts";
import { startEmbeddedPostgres } from "#server/embedded-postgres.ts";
import { freePort } from "#server/free-port.ts";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";
import { titleWords, typedSuggestionPath } from "./catalogue-shop.ts";
import { compare, inspect, rssMegabytes, summarize } from "./heap.ts";
import type { SoakResult, SoakSample } from "./soak-result.ts";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string" },
    minutes: { type: "string" },
    browsers: { type: "string", default: "16" },
    suggesters: { type: "string", default: "4" },
    admins: { type: "string", default: "2" },
    buyers: { type: "string", default: "4" },
    /** Clerks selling at the counter: each round scans a store item and takes cash for it. */
    clerks: { type: "string", default: "1" },
    /** Buyers order one of this many titles (the first of the catalogue). */
    popular: { type: "string", default: "40" },
    /** "deep": the popular titles get a million copies each first; "as-is": they sell out. */
    stock: { type: "string", default: "deep" },
    /** Write two heap snapshots of the server here (after warm-up, at the end) and compare them. */
    snapshots: { type: "string" },
    /** How many different pages the shoppers browse (each is fetched once before the run). */
    pages: { type: "string", default: "1000" },
    /** Seconds between samples of memory, connections, locks and the cache's hit rate. */
    "sample-every": { type: "string" },
    /** Write a CPU profile of the server to this folder (open it in Chrome's DevTools). */
    "cpu-prof": { type: "string" },
    /** Also write the figures, with latency every 10 s, as JSON (bench/soak-result.ts). */
    json: { type: "string" },
  },
});
const SECONDS = args.minutes ? Number(args.minutes) * 60 : Number(args.seconds ?? 30);
const SAMPLE_EVERY = Number(args["sample-every"] ?? (SECONDS >= 120 ? 60 : 10));
const WORKERS = {
  browse: Number(args.browsers),
  suggest: Number(args.suggesters),
  admin: Number(args.admins),
  checkout: Number(args.buyers),
  counter: Number(args.clerks),
};
const PASSWORD = "Bench-Mixed-Password-1";

if ((await buildIfStale()) !== 0) process.exit(1);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-mixed-"));
fs.chmodSync(dataDir, 0o755);
const database = await startEmbeddedPostgres(path.join(dataDir, "db"));
const port = await freePort();
const inspectorPort = await freePort();
const base = `http://127.0.0.1:${port}`;
const server: RunningServer = await startServer(
  {
    PORT: String(port),
    PUBLIC_URL: base,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    SEED_DEMO: "true",
    TRUST_PROXY: "loopback",
    // The buyers pay again and again on purpose.
    CHECKOUT_ATTEMPTS_PER_ACCOUNT: "1000000",
    CHECKOUT_ATTEMPTS_PER_CLIENT: "1000000",
  },
  {
    keepOutput: false,
    nodeArgs: [
      `--inspect=127.0.0.1:${inspectorPort}`,
      ...(args["cpu-prof"]
        ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args["cpu-prof"])}`]
        : []),
    ],
  },
);
const db = new pg.Client(database.url);
await db.connect();
const heap = await inspect(inspectorPort);
const snapshotsDir = args.snapshots ? path.resolve(args.snapshots) : null;
if (snapshotsDir) fs.mkdirSync(snapshotsDir, { recursive: true });
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

async function cleanUp() {
  agent.destroy();
  heap.close();
  await server.stop();
  await db.end();
  await database.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

type Answer = { status: number; location: string; cache: string; body: string };

/** One request over a kept-alive connection; the body is read only when asked for. */
function request(
  pathname: string,
  options: { cookie?: string; form?: Record<string, string>; keepBody?: boolean } = {},
): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${base}${pathname}`,
      {
        method: body === undefined ? "GET" : "POST",
        agent,
        headers: {
          ...(options.cookie ? { Cookie: options.cookie } : {}),
          ...(body === undefined
            ? {}
            : {
                "Content-Type": "application/x-www-form-urlencoded",
                "Content-Length": Buffer.byteLength(body),
                Origin: base,
              }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => {
          if (options.keepBody) chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location ?? "",
            cache: String(response.headers["x-page-cache"] ?? ""),
            body: Buffer.concat(chunks).toString(),
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** Signs up (verified straight in the database) and signs in; returns the session cookie. */
async function signIn(email: string, client: number, admin = false) {
  const headers = { "X-Forwarded-For": `198.18.0.${client}` };
  const post = (pathname: string, values: Record<string, string>) =>
    fetch(`${base}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, ...headers },
      body: new URLSearchParams(values).toString(),
    });
  await post("/register", {
    firstName: "Mixed",
    lastName: "Bench",
    dateOfBirth: "1985-01-01",
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  await db.query(
    `update users set email_verified = true${admin ? ", role = 'admin'" : ""} where email = $1`,
    [email],
  );
  const login = await post("/login", { intent: "login", email, password: PASSWORD });
  if (login.status !== 302) throw new Error(`sign-in of ${email} answered ${login.status}`);
  return login.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

// What the shoppers ask for, from the demo catalogue as it stands.
const { rows: titleRows } = await db.query<{ serial: number; title: string }>(
  "select reg_serial_no as serial, title from regular_titles order by reg_serial_no",
);
const { rows: genreRows } = await db.query<{ genre: string; total: number }>(
  "select genre, total from genre_counts where disc = '' and total > 0",
);
const serials = titleRows.map((row) => row.serial);
const words = titleWords(titleRows.map((row) => row.title));
const popular = serials.slice(0, Number(args.popular));
if (args.stock === "deep") {
  await db.query(
    "update regular_titles set qty_to_list = 1000000 where reg_serial_no = any($1::int[])",
    [popular],
  );
}
const listPages = Math.max(1, Math.ceil(serials.length / 24));
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
const upTo = (n: number) => 1 + Math.floor(Math.random() * n);

const browseKinds = [
  () => `/movies?page=${upTo(listPages)}`,
  () => `/movies/${pick(serials)}`,
  () => `/search?query=${encodeURIComponent(pick(words))}`,
  () => `/search?query=the&page=${upTo(Math.max(1, Math.ceil(listPages / 4)))}`,
  () => {
    const genre = pick(genreRows);
    const sort = pick(["price-asc", "price-desc", "az", "newest"]);
    return `/movies?genre=${encodeURIComponent(genre.genre)}&sort=${sort}&page=${upTo(Math.ceil(genre.total / 24))}`;
  },
];
/**
 * The pages shoppers visit: a fixed set (fewer than the cache keeps), each fetched once before
 * the run, so what the run measures is what keeps the cache from answering, not a cold start.
 */
const browsePaths = [
  ...new Set(Array.from({ length: Number(args.pages) }, (_, i) => browseKinds[i % 5]!())),
];
const suggestPath = () => typedSuggestionPath(words);
const adminPaths = [
  "/admin/orders",
  "/admin/items",
  "/admin/customers",
  "/admin",
  "/admin/orders?status=paid",
];

const SHIPPING = {
  name: "Mixed Bench",
  address: "1201 W Division St",
  city: "Arlington",
  state: "TX",
  postalCode: "76012",
  phone: "(817) 555-0142",
  email: "mixed@example.test",
  shippingMethod: "standard",
};

type Kind = "browse" | "suggest" | "admin" | "checkout" | "counter";
const latencies: Record<Kind, number[]> = {
  browse: [],
  suggest: [],
  admin: [],
  checkout: [],
  counter: [],
};
const errors: Record<Kind, number> = { browse: 0, suggest: 0, admin: 0, checkout: 0, counter: 0 };
const firstError: Partial<Record<Kind, string>> = {};
let paid = 0;
let soldOut = 0;
let cacheHits = 0;
let cacheMisses = 0;

/** This interval's latencies, for the report's chart of latency over time. */
const CHART_EVERY = 10;
const recent: Record<Kind, number[]> = {
  browse: [],
  suggest: [],
  admin: [],
  checkout: [],
  counter: [],
};

function timed(kind: Kind, began: number, ok: boolean, detail: string) {
  latencies[kind].push(performance.now() - began);
  recent[kind].push(performance.now() - began);
  if (!ok) {
    errors[kind]++;
    firstError[kind] ??= detail;
  }
}

/** One buyer's round: order a random title, and pay for it with the test card when placed. */
async function buy(cookie: string) {
  const serial = pick(popular);
  let began = performance.now();
  const order = await request("/cart.data", {
    cookie,
    keepBody: true,
    form: {
      intent: "pay",
      ...SHIPPING,
      lines: JSON.stringify([{ productType: "regular", serialNo: serial, quantity: 1 }]),
      checkoutKey: crypto.randomUUID(),
    },
  });
  // A data request answers a redirect as data (202) naming the new address.
  const session = /\/checkout\/test-payment\/[\w-]+/.exec(order.body)?.[0];
  if (order.status === 409) {
    soldOut++;
    timed("checkout", began, true, "");
    return;
  }
  timed("checkout", began, !!session, `order: ${order.status} ${order.body.slice(0, 200)}`);
  if (!session) return;
  began = performance.now();
  const payment = await request(session, {
    cookie,
    form: { cardNumber: "4242 4242 4242 4242", expiry: "12/39" },
  });
  const ok = payment.status === 302 && payment.location.includes("/cart-success");
  if (ok) paid++;
  timed("checkout", began, ok, `payment: ${payment.status} ${payment.location}`);
}

/** Store items on the shelf for the clerks, with their barcodes (deep stock). */
const counterCodes = Array.from(
  { length: 20 },
  (_, i) => `20000000000${String(i).padStart(2, "0")}`,
);
if (WORKERS.counter > 0) {
  await db.query(
    `with items as (
       insert into store_items (sku, name, price_cents, stock)
       select 'MIXED-' || n, 'Mixed bench pin ' || n, 1299, 1000000
         from generate_series(0, 19) as n
       returning id, sku)
     insert into product_barcodes (barcode, product_type, product_id)
     select ($1::text[])[1 + substring(sku from 7)::int], 'item', id from items`,
    [counterCodes],
  );
}

/**
 * One sale at the counter, from scan to paid: the scan (a store item's barcode) and the cash
 * payment, the two presses a clerk makes, timed together as one sale.
 */
async function sell(cookie: string) {
  const began = performance.now();
  const scan = await request("/counter.data?index", {
    cookie,
    form: { intent: "scan", code: pick(counterCodes) },
  });
  if (scan.status !== 200) {
    timed("counter", began, false, `scan: ${scan.status}`);
    return;
  }
  const pay = await request("/counter.data?index", {
    cookie,
    keepBody: true,
    form: { intent: "pay", cashTendered: "20" },
  });
  timed(
    "counter",
    began,
    pay.body.includes("paid="),
    `pay: ${pay.status} ${pay.body.slice(0, 200)}`,
  );
}

async function worker(kind: Kind, deadline: number, cookie?: string) {
  while (Date.now() < deadline) {
    try {
      if (kind === "checkout") {
        await buy(cookie!);
        continue;
      }
      if (kind === "counter") {
        await sell(cookie!);
        continue;
      }
      const pathname =
        kind === "browse"
          ? pick(browsePaths)
          : kind === "suggest"
            ? suggestPath()
            : pick(adminPaths);
      const began = performance.now();
      const answer = await request(pathname, { cookie });
      if (answer.cache === "hit") cacheHits++;
      else if (answer.cache === "miss") cacheMisses++;
      timed(kind, began, answer.status === 200, `${pathname}: ${answer.status}`);
    } catch (error) {
      errors[kind]++;
      firstError[kind] ??= String(error);
    }
  }
}

/** CPU seconds a process has used (Linux: /proc), or NaN where that is not readable. */
function cpuSeconds(pid: number | undefined) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** CPU seconds used by every PostgreSQL process on this machine. */
function postgresCpuSeconds() {
  let total = 0;
  for (const pid of fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/stat`, "utf8").includes("(postgres)")) {
        total += cpuSeconds(Number(pid)) || 0;
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** What the shop's connections are doing right now (sampled often, tallied per sample period). */
async function sampleDatabase(sampler: pg.Client) {
  const { rows } = await sampler.query<{ connections: number; busy: number; waiting: number }>(
    `select count(*)::int as connections,
            count(*) filter (where state <> 'idle')::int as busy,
            count(*) filter (where wait_event_type = 'Lock')::int as waiting
       from pg_stat_activity
      where backend_type = 'client backend' and pid <> pg_backend_pid()
        and datname = current_database()`,
  );
  return rows[0]!;
}

try {
  console.log("Signing in buyers and staff…");
  const buyerCookies: string[] = [];
  for (let i = 0; i < WORKERS.checkout; i++) {
    buyerCookies.push(await signIn(`mixed-buyer-${i}@example.test`, 10 + i));
  }
  const adminCookie =
    WORKERS.admin > 0 ? await signIn("mixed-admin@example.test", 9, true) : undefined;
  // The clerks share the store's one till, opened with a float.
  const clerkCookies: string[] = [];
  for (let i = 0; i < WORKERS.counter; i++) {
    clerkCookies.push(await signIn(`mixed-clerk-${i}@example.test`, 40 + i, true));
  }
  if (clerkCookies[0]) {
    await request("/counter?index", {
      cookie: clerkCookies[0],
      form: { intent: "open-till", float: "200" },
    });
  }

  console.log(
    `\n${serials.length} regular titles (demo catalogue); ${SECONDS} s; workers: ${WORKERS.browse} browsing, ${WORKERS.suggest} suggestions, ${WORKERS.admin} admin, ${WORKERS.checkout} buyers, ${WORKERS.counter} at the counter; ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}\n`,
  );
  // Every page once, a few at a time, so the run starts with them kept.
  const toWarm = [...browsePaths];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let next = toWarm.pop(); next; next = toWarm.pop()) await request(next);
    }),
  );
  // Every notification that clears the page caches, counted.
  const listener = new pg.Client(database.url);
  await listener.connect();
  let clears = 0;
  listener.on("notification", () => clears++);
  await listener.query("listen catalogue_changed");
  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  const sampler = new pg.Client(database.url);
  await sampler.connect();
  const samples: string[] = [];
  let lastSampleAt = started;
  let lastChartAt = started;
  const chartSamples: SoakSample[] = [];
  const periods: SoakResult["periods"] = [];
  let rssPeak = 0;
  let lastHits = 0;
  let lastMisses = 0;
  let dbSamples = 0;
  let connectionsSum = 0;
  let connectionsMax = 0;
  let busySum = 0;
  let waitingSum = 0;
  const rssAtStart = rssMegabytes(server.child.pid);
  const serverCpuAtStart = cpuSeconds(server.child.pid);
  const postgresCpuAtStart = postgresCpuSeconds();
  const sampling = (async () => {
    while (Date.now() < deadline) {
      const state = await sampleDatabase(sampler);
      dbSamples++;
      connectionsSum += state.connections;
      connectionsMax = Math.max(connectionsMax, state.connections);
      busySum += state.busy;
      waitingSum += state.waiting;
      if (Date.now() - lastChartAt >= CHART_EVERY * 1000) {
        const seconds = (Date.now() - lastChartAt) / 1000;
        lastChartAt = Date.now();
        const sample: SoakSample = {
          second: Math.round((lastChartAt - started) / 1000),
          p50: {},
          p99: {},
          perSecond: {},
        };
        for (const kind of Object.keys(recent) as Kind[]) {
          if (WORKERS[kind] === 0) continue;
          const sorted = recent[kind].toSorted((a, b) => a - b);
          sample.p50[kind] = percentile(sorted, 50);
          sample.p99[kind] = percentile(sorted, 99);
          sample.perSecond[kind] = sorted.length / seconds;
          recent[kind] = [];
        }
        chartSamples.push(sample);
        rssPeak = Math.max(rssPeak, rssMegabytes(server.child.pid));
      }
      if (Date.now() - lastSampleAt >= SAMPLE_EVERY * 1000) {
        lastSampleAt = Date.now();
        const hits = cacheHits - lastHits;
        const misses = cacheMisses - lastMisses;
        [lastHits, lastMisses] = [cacheHits, cacheMisses];
        const figures = await heap.figures();
        const line = `| ${Math.round((lastSampleAt - started) / 1000)} | ${clears} | ${rssMegabytes(server.child.pid).toFixed(0)} | ${figures.heapUsedMb.toFixed(0)} | ${figures.heapTotalMb.toFixed(0)} | ${state.connections} | ${((hits / Math.max(1, hits + misses)) * 100).toFixed(0)} % | ${paid} |`;
        samples.push(line);
        periods.push({
          second: Math.round((lastSampleAt - started) / 1000),
          rssMb: rssMegabytes(server.child.pid),
          ...figures,
          connections: state.connections,
          cacheHitRate: hits / Math.max(1, hits + misses),
          paid,
        });
        console.log(line);
        // The first snapshot once the run has warmed up; the workers keep going meanwhile.
        if (snapshotsDir && periods.length === 1) {
          await heap.snapshot(path.join(snapshotsDir, "after-warm-up.heapsnapshot"));
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  console.log(
    "| s | catalogue notifications so far | server RSS MB | heap used MB | heap total MB | PostgreSQL connections | page-cache hits | orders paid so far |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|");
  await Promise.all([
    ...Array.from({ length: WORKERS.browse }, () => worker("browse", deadline)),
    ...Array.from({ length: WORKERS.suggest }, () => worker("suggest", deadline)),
    ...Array.from({ length: WORKERS.admin }, () => worker("admin", deadline, adminCookie)),
    ...buyerCookies.map((cookie) => worker("checkout", deadline, cookie)),
    ...clerkCookies.map((cookie) => worker("counter", deadline, cookie)),
    sampling,
  ]);
  const elapsed = (Date.now() - started) / 1000;
  const serverCpu = ((cpuSeconds(server.child.pid) - serverCpuAtStart) / elapsed) * 100;
  const postgresCpu = ((postgresCpuSeconds() - postgresCpuAtStart) / elapsed) * 100;
  await sampler.end();
  await listener.end();
  let heapGrowth: SoakResult["heapGrowth"];
  if (snapshotsDir && periods.length > 0) {
    const atEnd = path.join(snapshotsDir, "at-the-end.heapsnapshot");
    await heap.snapshot(atEnd);
    const { totalBefore, totalAfter, rows } = compare(
      summarize(path.join(snapshotsDir, "after-warm-up.heapsnapshot")),
      summarize(atEnd),
    );
    heapGrowth = {
      totalBeforeMb: totalBefore / 2 ** 20,
      totalAfterMb: totalAfter / 2 ** 20,
      rows: rows.slice(0, 15),
    };
    console.log(
      `\nheap snapshots (${path.relative(process.cwd(), snapshotsDir) || "."}): ${heapGrowth.totalBeforeMb.toFixed(1)} MB of live objects after warm-up, ${heapGrowth.totalAfterMb.toFixed(1)} MB at the end; what changed most:`,
    );
    console.log(
      "| kind | count after warm-up | at the end | KB after warm-up | at the end | change KB |",
    );
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const row of heapGrowth.rows) {
      console.log(
        `| ${row.kind.replaceAll("|", "\\|").slice(0, 60)} | ${row.countBefore} | ${row.countAfter} | ${(row.bytesBefore / 1024).toFixed(0)} | ${(row.bytesAfter / 1024).toFixed(0)} | ${((row.bytesAfter - row.bytesBefore) / 1024).toFixed(0)} |`,
      );
    }
  }

  console.log(
    `\nserver RSS ${rssAtStart.toFixed(0)} → ${rssMegabytes(server.child.pid).toFixed(0)} MB; PostgreSQL connections mean ${(connectionsSum / Math.max(1, dbSamples)).toFixed(1)}, max ${connectionsMax}; busy ${(busySum / Math.max(1, dbSamples)).toFixed(1)}, waiting on a lock ${(waitingSum / Math.max(1, dbSamples)).toFixed(2)} (mean of ${dbSamples} samples)`,
  );
  console.log(
    `CPU: server ${serverCpu.toFixed(0)} %, PostgreSQL ${postgresCpu.toFixed(0)} % (100 % is one core); load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    `catalogue notifications (each clears pages) ${clears} (${(clears / elapsed).toFixed(1)}/s), ${((cacheHits / Math.max(1, cacheHits + cacheMisses)) * 100).toFixed(1)} % hits (${cacheHits} hits, ${cacheMisses} misses); checkouts: ${(paid / elapsed).toFixed(1)} paid/s, ${(soldOut / elapsed).toFixed(1)} sold-out answers/s`,
  );
  console.log("\n| kind | req/s | p50 ms | p99 ms | errors |");
  console.log("|---|---:|---:|---:|---:|");
  for (const kind of Object.keys(latencies) as Kind[]) {
    if (WORKERS[kind] === 0) continue;
    const sorted = latencies[kind].toSorted((a, b) => a - b);
    console.log(
      `| ${kind} | ${(sorted.length / elapsed).toFixed(1)} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${errors[kind]} |`,
    );
  }
  if (WORKERS.counter > 0) {
    const sales = latencies.counter.toSorted((a, b) => a - b);
    console.log(
      `\ncounter sales, scan to paid (two requests): ${sales.length}, p50 ${percentile(sales, 50).toFixed(1)} ms, p95 ${percentile(sales, 95).toFixed(1)} ms, p99 ${percentile(sales, 99).toFixed(1)} ms`,
    );
  }
  for (const [kind, detail] of Object.entries(firstError)) {
    console.log(`first ${kind} error: ${detail}`);
  }
  if (args.json) {
    const kinds = (Object.keys(latencies) as Kind[]).filter((kind) => WORKERS[kind] > 0);
    const result: SoakResult = {
      seconds: elapsed,
      intervalSeconds: CHART_EVERY,
      kinds,
      samples: chartSamples,
      periods,
      totals: kinds.map((kind) => {
        const sorted = latencies[kind].toSorted((a, b) => a - b);
        return {
          kind,
          perSecond: sorted.length / elapsed,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          errors: errors[kind],
        };
      }),
      rssMb: {
        start: rssAtStart,
        end: rssMegabytes(server.child.pid),
        peak: Math.max(rssPeak, rssMegabytes(server.child.pid)),
      },
      paidPerSecond: paid / elapsed,
      heapGrowth,
      cacheHitRate: cacheHits / Math.max(1, cacheHits + cacheMisses),
    };
    fs.writeFileSync(args.json, JSON.stringify(result, null, 2));
  }
  const failed = Object.values(errors).some((n) => n > 0);
  await cleanUp();
  process.exit(failed ? 1 : 0);
} catch (error) {
  console.error(error);
  await cleanUp();
  process.exit(1);
}
