// `npm run bench:checkout`: places orders through the running shop's real code path (the cart's
// payment button as the hydrated page posts it: a data request that validates, prices, reserves
// stock in the same statement as the order and opens a payment session) with many concurrent signed-in buyers, and prints orders placed per
// second, latency and the oversold count (must be 0). Several runs; the median is the result.
//
//   node bench/checkout.ts [--runs 3] [--seconds 10] [--warmup 3] [--connections 64] [--buyers 64]
//                          [--hot-every 10] [--processes 1] [--plain-forms] [--waits]
//                          [--cpu-prof <folder>] [--port <first port>] [--one-address]
//                          [--compare <another checkout of the shop>]…
//
// It starts its own embedded PostgreSQL and production server(s), building first when the build
// is missing or older than the sources. With --compare (once or more), the shop in each folder
// (another commit, checked out with `git worktree add`, its `npm ci` done) is built and run too,
// on a database of its own in the same PostgreSQL, with the same buyers; the runs take turns
// (this one, that one; then that one, this one; …) so a machine whose load changes meanwhile
// weighs on all alike, and the medians and the ratios of each round are printed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import pg from "pg";
import { buildIfStale } from "#server/build-stamp.ts";
import { clusterDirOf, startEmbeddedPostgres } from "#server/embedded-postgres.ts";
import { freePort } from "#server/free-port.ts";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    seconds: { type: "string", default: "10" },
    /** Seconds of orders before the measured runs, not counted. */
    warmup: { type: "string", default: "3" },
    /**
     * One order in this many also asks for one of the few hot titles that sell out (each of the
     * 40 titles is also every 40th order's first line). 2 makes half of all answers refusals.
     */
    "hot-every": { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    buyers: { type: "string", default: "64" },
    /**
     * Post the payment button as a plain form, as a browser without JavaScript does (a refusal
     * is answered with the whole cart page); by default it is posted as the hydrated page does,
     * as a React Router data request answered with data.
     */
    "plain-forms": { type: "boolean", default: false },
    /** Server processes on the one database; each buyer's requests go to one of them in turn. */
    processes: { type: "string", default: "1" },
    /** Write a CPU profile of the server to this folder (open it in Chrome's DevTools). */
    "cpu-prof": { type: "string" },
    /** Sample what the database's connections wait on during each run and print the tally. */
    waits: { type: "boolean", default: false },
    /** Another checkout of the shop (a folder) to measure beside this one, runs taking turns. */
    compare: { type: "string", multiple: true },
    /** The first port of the servers (one each, counting up); free ports by default. */
    port: { type: "string" },
    /**
     * Every buyer's payments come from the one client address (the script's own), so the shop's
     * per-client attempt count is one row all of them update; by default each buyer has an
     * address of its own, as shoppers on their own connections have.
     */
    "one-address": { type: "boolean", default: false },
  },
});
const RUNS = Number(args.runs);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const HOT_EVERY = Number(args["hot-every"]);
const CONNECTIONS = Number(args.connections);
const BUYERS = Number(args.buyers);
const PROCESSES = Number(args.processes);
const PASSWORD = "Bench-Buyer-Password-1";
/**
 * Plenty of stock for most titles; a few hot ones run out early in every run (about one order
 * in ten asks for one by default), so the run shows concurrent buyers of the last copies and
 * the refusals after them, with nothing oversold.
 */
const TITLES = 40;
const HOT_TITLES = 4;
const HOT_STOCK = 50;
const STOCK = 1_000_000;

/** A shop under test: its server processes, their database and its signed-in buyers. */
type Shop = {
  label: string;
  root: string;
  /** The shop's own database, where the benchmark stocks its titles and counts what was sold. */
  databaseUrl: string;
  db: pg.Client;
  servers: RunningServer[];
  bases: string[];
  cookies: string[];
};

const here = path.resolve(import.meta.dirname, "..");
const compareRoots = (args.compare ?? []).map((folder) => path.resolve(folder));
const comparing = compareRoots.length > 0;

/** Builds the shop in `root` when its build is missing or older than its sources. */
function buildIn(root: string): number {
  const built = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      "const { buildIfStale } = await import('./server/build-stamp.ts'); process.exit(await buildIfStale());",
    ],
    { cwd: root, stdio: "inherit" },
  );
  return built.status ?? 1;
}

if ((await buildIfStale()) !== 0) process.exit(1);
for (const root of compareRoots) if (buildIn(root) !== 0) process.exit(1);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-checkout-"));
fs.chmodSync(dataDir, 0o755);
const database = await startEmbeddedPostgres(path.join(dataDir, "db"));
const firstPort = args.port ? Number(args.port) : null;
let portsGiven = 0;
const nextPort = () => (firstPort ? Promise.resolve(firstPort + portsGiven++) : freePort());
/** Each shop's profiles in a folder of its own (named after the shop) when comparing. */
const nodeArgs = (label: string) =>
  args["cpu-prof"]
    ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args["cpu-prof"], comparing ? label : "")}`]
    : [];
const shops: Shop[] = [];
/**
 * The measured requests go through node:http with kept-alive connections, one per concurrent
 * buyer: this script shares the machine's two cores with the shop and PostgreSQL, and `fetch`
 * costs about twice the CPU per request.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

async function cleanUp() {
  agent.destroy();
  for (const shop of shops) {
    await Promise.all(shop.servers.map((server) => server.stop()));
    await shop.db.end();
  }
  await database.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Starts the shop of `root` on a database of its own (created in the one PostgreSQL). */
async function startShop(label: string, root: string, databaseName: string | null) {
  let databaseUrl = database.url;
  if (databaseName) {
    const admin = new pg.Client(database.url);
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(database.url);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const shopDir = path.join(dataDir, label);
  fs.mkdirSync(shopDir, { mode: 0o755 });
  const ports = [];
  for (let i = 0; i < PROCESSES; i++) ports.push(await nextPort());
  const bases = ports.map((port) => `http://127.0.0.1:${port}`);
  // One at a time: the first applies the migrations and the demo catalogue.
  const servers: RunningServer[] = [];
  for (const port of ports) {
    const env = {
      PORT: String(port),
      PUBLIC_URL: bases[0]!,
      DATABASE_URL: databaseUrl,
      DATA_DIR: shopDir,
      SEED_DEMO: "true",
      TRUST_PROXY: "loopback",
      // The benchmark's buyers pay again and again on purpose.
      CHECKOUT_ATTEMPTS_PER_ACCOUNT: "1000000",
      CHECKOUT_ATTEMPTS_PER_CLIENT: "1000000",
    };
    servers.push(
      await startServer(env, {
        nodeArgs: nodeArgs(label),
        keepOutput: false,
        cwd: root,
      }),
    );
  }
  const db = new pg.Client(databaseUrl);
  await db.connect();
  const shop: Shop = { label, root, databaseUrl, db, servers, bases, cookies: [] };
  shops.push(shop);
  return shop;
}

function form(values: Record<string, string>) {
  return new URLSearchParams(values).toString();
}

async function post(
  pathname: string,
  body: string,
  headers: Record<string, string>,
  target: string,
) {
  return fetch(`${target}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: target,
      ...headers,
    },
    body,
  });
}

/** The client address of buyer `i` (the shop trusts the loopback proxy to state it). */
function addressOf(i: number) {
  return `198.18.${Math.floor(i / 200)}.${(i % 200) + 1}`;
}

function postQuickly(
  pathname: string,
  body: string,
  cookie: string,
  target: string,
  address: string | null,
): Promise<{ status: number; location: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${target}${pathname}`,
      {
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          "Accept-Encoding": "gzip, deflate, br",
          Origin: target,
          Cookie: cookie,
          ...(address ? { "X-Forwarded-For": address } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const raw = Buffer.concat(chunks);
          const encoding = response.headers["content-encoding"];
          const text = (
            encoding === "br"
              ? zlib.brotliDecompressSync(raw)
              : encoding === "gzip"
                ? zlib.gunzipSync(raw)
                : encoding === "deflate"
                  ? zlib.inflateSync(raw)
                  : raw
          ).toString();
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location ?? "",
            body: text,
          });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Signs up and signs in the buyers, each from an address of its own. */
async function signUp(shop: Shop) {
  console.log(`${shop.label}: signing up ${BUYERS} buyers…`);
  for (let i = 0; i < BUYERS; i++) {
    const email = `bench-buyer-${i}@example.test`;
    const client = { "X-Forwarded-For": addressOf(i) };
    await post(
      "/register",
      form({
        firstName: "Bench",
        lastName: "Buyer",
        dateOfBirth: "1985-01-01",
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
      client,
      shop.bases[0]!,
    );
    await shop.db.query("update users set email_verified = true where email = $1", [email]);
    const login = await post(
      "/login",
      form({ intent: "login", email, password: PASSWORD }),
      client,
      shop.bases[0]!,
    );
    if (login.status !== 302) throw new Error(`sign-in of ${email} answered ${login.status}`);
    shop.cookies.push(
      login.headers
        .getSetCookie()
        .map((cookie) => cookie.split(";")[0])
        .join("; "),
    );
  }
}

async function stockTitles(db: pg.Client): Promise<number[]> {
  await db.query("delete from regular_titles where product_id like 'BENCH-%'");
  const { rows } = await db.query<{ serial: number }>(
    `insert into regular_titles (product_id, title, disc, qty_to_list, current_price_cents)
     select 'BENCH-' || n, 'Bench Title ' || n, 'DVD',
            case when n <= $2::int then $3::int else $4::int end, 1299
       from generate_series(1, $1::int) as n
     returning reg_serial_no as serial`,
    [TITLES, HOT_TITLES, HOT_STOCK, STOCK],
  );
  return rows.map((row) => row.serial).sort((a, b) => a - b);
}

const SHIPPING = {
  name: "Bench Buyer",
  address: "1201 W Division St",
  city: "Arlington",
  state: "TX",
  postalCode: "76012",
  phone: "(817) 555-0142",
  email: "bench@example.test",
  shippingMethod: "standard",
};

type RunResult = {
  placed: number;
  soldOut: number;
  errors: number;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  oversold: number;
  unaccounted: number;
  /** The server processes' CPU during the run: 100 is one core. */
  serverCpuPercent: number;
  serverCpuMsPerRequest: number;
  /** The whole machine (server, database and this script): 100 per core. */
  machineCpuPercent: number;
  /** PostgreSQL's processes, and this script making the requests. */
  postgresCpuPercent: number;
  clientCpuPercent: number;
  /**
   * CPU time of the server processes and PostgreSQL per answer: on a busy machine, what an
   * order costs is steadier than how many fit in a second.
   */
  cpuMsPerAnswer: number;
  /** Transactions committed in the shop's database, and flushes of the log to disk, per answer. */
  commitsPerAnswer: number;
  flushesPerAnswer: number;
};

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** CPU seconds a process has used (Linux: /proc), or null where that is not readable. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU seconds used by this benchmark's PostgreSQL, not by the other databases on a shared
 * machine: its postmaster, the processes it runs, and those that have ended (a connection closed
 * by a pool, counted in the postmaster's children's time).
 */
function postgresCpuSeconds(): number {
  const times = (pid: number) =>
    fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ").map(Number);
  let postmaster: number;
  let total: number;
  try {
    const pidFile = path.join(clusterDirOf(path.join(dataDir, "db")), "postmaster.pid");
    postmaster = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
    // utime, stime, and the cutime and cstime of children it has waited for.
    const [, , , , , , , , , , , utime, stime, cutime, cstime] = times(postmaster);
    total = (utime! + stime! + cutime! + cstime!) / 100;
  } catch {
    return NaN;
  }
  for (const pid of fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      const fields = times(Number(pid));
      if (fields[1] !== postmaster) continue;
      total += (fields[11]! + fields[12]!) / 100;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/**
 * The shop database's committed transactions and the cluster's flushes of its log to disk so
 * far: per answer, what a checkout costs the database beside its CPU.
 */
async function databaseCounters(db: pg.Client) {
  const { rows } = await db.query<{ commits: string; flushes: string | null }>(
    `select (select xact_commit from pg_stat_database where datname = current_database()) as commits,
            (select sum(fsyncs) from pg_stat_io where object = 'wal') as flushes`,
  );
  return { commits: Number(rows[0]!.commits), flushes: Number(rows[0]!.flushes ?? NaN) };
}

/** CPU seconds the whole machine has been busy (all cores), from /proc/stat. */
function machineBusySeconds(): number | null {
  try {
    const [, ...times] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = times.map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
  } catch {
    return null;
  }
}

/**
 * What the shop's database connections are doing, sampled every 10 ms until the deadline:
 * running, idle in a transaction, or waiting (a lock, the WAL flush of a commit, …).
 */
async function sampleWaits(databaseUrl: string, deadline: number) {
  const sampler = new pg.Client(databaseUrl);
  await sampler.connect();
  const tally = new Map<string, number>();
  let samples = 0;
  while (Date.now() < deadline) {
    const { rows } = await sampler.query<{ what: string; n: number }>(
      `select coalesce(wait_event_type || ':' || wait_event, state) as what, count(*)::int as n
         from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid()
          and datname = current_database() and state <> 'idle'
        group by 1`,
    );
    for (const row of rows) tally.set(row.what, (tally.get(row.what) ?? 0) + row.n);
    samples++;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await sampler.end();
  return { tally, samples };
}

function printWaits({ tally, samples }: Awaited<ReturnType<typeof sampleWaits>>) {
  console.log(`busy database connections, mean over ${samples} samples:`);
  for (const [what, n] of [...tally].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${(n / samples).toFixed(2).padStart(6)}  ${what}`);
  }
}

async function run(shop: Shop, seconds = SECONDS): Promise<RunResult> {
  const { db, servers, bases, cookies } = shop;
  const serials = await stockTitles(db);
  const latencies: number[] = [];
  let placed = 0;
  let soldOut = 0;
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = Date.now();
  const waits = args.waits ? sampleWaits(shop.databaseUrl, deadline) : null;
  const serversCpu = () =>
    servers.reduce((sum, server) => sum + (cpuSeconds(server.child.pid) ?? NaN), 0);
  const serverCpuBefore = serversCpu();
  const postgresBefore = postgresCpuSeconds();
  const selfBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  const countersBefore = await databaseCounters(db);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, worker) => {
      while (Date.now() < deadline) {
        const n = next++;
        const merged = orderLines(n, serials);
        const began = performance.now();
        try {
          const response = await postQuickly(
            args["plain-forms"] ? "/cart" : "/cart.data",
            form({
              intent: "pay",
              ...SHIPPING,
              lines: JSON.stringify(merged),
              checkoutKey: crypto.randomUUID(),
            }),
            cookies[worker % cookies.length]!,
            bases[n % bases.length]!,
            args["one-address"] ? null : addressOf(worker % cookies.length),
          );
          const location = response.location;
          // A data request answers a redirect as data (202) that names the new address.
          const redirectedTo =
            response.status === 302 ? location : response.status === 202 ? response.body : "";
          if (redirectedTo.includes("/checkout/test-payment/")) placed++;
          else if (response.status === 409) soldOut++;
          else {
            errors++;
            if (errors === 1) {
              console.log(
                `first error: ${response.status} ${location}: ` +
                  response.body.replace(/\s+/g, " ").slice(0, 300),
              );
            }
          }
        } catch (error) {
          errors++;
          if (errors === 1) console.log("first error:", error);
        }
        latencies.push(performance.now() - began);
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  const serverCpu = serversCpu() - serverCpuBefore;
  const postgresCpu = postgresCpuSeconds() - postgresBefore;
  const self = process.cpuUsage(selfBefore);
  const clientCpu = (self.user + self.system) / 1e6;
  const machineCpu = (machineBusySeconds() ?? NaN) - (machineBefore ?? NaN);
  // Backends report their counts within a second of going idle.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const countersAfter = await databaseCounters(db);
  const answers = placed + soldOut + errors;
  if (waits) printWaits(await waits);
  latencies.sort((a, b) => a - b);

  const { oversold, unaccounted } = await stockAccounts(db, serials);
  return {
    placed,
    soldOut,
    errors,
    ordersPerSecond: placed / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    oversold,
    unaccounted,
    serverCpuPercent: (serverCpu / elapsed) * 100,
    serverCpuMsPerRequest: (serverCpu * 1000) / answers,
    cpuMsPerAnswer: ((serverCpu + postgresCpu) * 1000) / answers,
    machineCpuPercent: (machineCpu / elapsed) * 100,
    postgresCpuPercent: (postgresCpu / elapsed) * 100,
    clientCpuPercent: (clientCpu / elapsed) * 100,
    commitsPerAnswer: (countersAfter.commits - countersBefore.commits) / answers,
    flushesPerAnswer: (countersAfter.flushes - countersBefore.flushes) / answers,
  };
}

/** The `n`-th order's lines: one title in turn, and now and then a hot one too. */
function orderLines(n: number, serials: number[]) {
  // Some orders ask for a hot title too, so every run sells some out.
  const lines = [{ productType: "regular", serialNo: serials[n % serials.length]!, quantity: 1 }];
  if (n % HOT_EVERY === 0) {
    // Each hot title in turn (n % HOT_TITLES alone, with n even, only ever reached two).
    const hot = serials[Math.floor(n / HOT_EVERY) % HOT_TITLES]!;
    lines.push({ productType: "regular", serialNo: hot, quantity: 1 });
  }
  return lines.filter(
    (line, index) => lines.findIndex((other) => other.serialNo === line.serialNo) === index,
  );
}

/**
 * What the run sold against the titles' stock, then the run's orders deleted. Oversold: stock
 * below zero, or more taken by orders than there was. Only orders that hold their stock count: a
 * buyer's new checkout releases their earlier unpaid order (its stock goes back, its status
 * becomes cancelled), as do expiry and cancellation.
 */
async function stockAccounts(db: pg.Client, serials: number[]) {
  const { rows } = await db.query<{ serial: number; qty: number; sold: string }>(
    `select t.reg_serial_no as serial, t.qty_to_list as qty,
            coalesce(sum(i.quantity) filter (where o.status in ('pending', 'paid', 'shipped', 'completed')), 0) as sold
       from regular_titles t
       left join order_items i on i.product_type = 'regular' and i.product_serial_no = t.reg_serial_no
       left join orders o on o.id = i.order_id
      where t.product_id like 'BENCH-%'
      group by t.reg_serial_no, t.qty_to_list`,
  );
  let oversold = 0;
  let unaccounted = 0;
  for (const row of rows) {
    const initial = row.serial <= serials[HOT_TITLES - 1]! ? HOT_STOCK : STOCK;
    oversold += Math.max(0, Number(row.sold) - initial, -row.qty);
    // Every unit that left the shelf belongs to an order line, and the other way round.
    unaccounted += Math.abs(initial - row.qty - Number(row.sold));
  }
  await db.query(
    "delete from orders where id in (select order_id from order_items i join regular_titles t on t.reg_serial_no = i.product_serial_no where t.product_id like 'BENCH-%')",
  );
  return { oversold, unaccounted };
}

function describe(result: RunResult) {
  return (
    `${result.ordersPerSecond.toFixed(0)} orders/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
    `${result.placed} placed, ${result.soldOut} sold-out answers, ${result.errors} errors, oversold ${result.oversold}, stock unaccounted ${result.unaccounted}; ` +
    `server CPU ${result.serverCpuPercent.toFixed(0)} % (${result.serverCpuMsPerRequest.toFixed(1)} ms a request), PostgreSQL ${result.postgresCpuPercent.toFixed(0)} %, this script ${result.clientCpuPercent.toFixed(0)} %, machine ${result.machineCpuPercent.toFixed(0)} % of ${os.cpus().length * 100} %; ` +
    `server and PostgreSQL CPU ${result.cpuMsPerAnswer.toFixed(1)} ms an answer, ` +
    `${result.commitsPerAnswer.toFixed(1)} commits and ${result.flushesPerAnswer.toFixed(2)} log flushes an answer`
  );
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function loadAverage() {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(", ");
}

try {
  const shop = await startShop(comparing ? "this" : "shop", here, null);
  for (const [i, root] of compareRoots.entries()) {
    const name = path.basename(root);
    const label = shops.some((each) => each.label === name) ? `${name}-${i + 1}` : name;
    await startShop(label, root, `shop_compared_${i + 1}`);
  }
  for (const each of shops) await signUp(each);
  console.log(`load average at the start: ${loadAverage()}`);
  if (WARMUP > 0) {
    // Not counted: the server's code is compiled and its statements prepared on every pooled
    // connection, as in a shop that has been open a while.
    for (const each of shops) {
      const warm = await run(each, WARMUP);
      console.log(
        `${each.label}: warm-up (${WARMUP} s, not counted): ${warm.ordersPerSecond.toFixed(0)} orders/s`,
      );
    }
  }
  const results = new Map<Shop, RunResult[]>(shops.map((each) => [each, []]));
  for (let i = 1; i <= RUNS; i++) {
    // Each round starts with the next shop, so a change in the machine's load weighs on all alike.
    const turn = (i - 1) % shops.length;
    for (const each of [...shops.slice(turn), ...shops.slice(0, turn)]) {
      const result = await run(each);
      results.get(each)!.push(result);
      console.log(`${comparing ? `${each.label} ` : ""}run ${i}: ${describe(result)}`);
    }
  }
  console.log(`load average at the end: ${loadAverage()}`);
  console.log(
    `\n|${comparing ? " shop |" : ""} processes | runs | connections | hot every | orders/s (median) | sold-out answers | p50 ms | p99 ms | oversold | CPU ms an answer (median) |`,
  );
  console.log(`|${comparing ? "---|" : ""}---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`);
  for (const [each, runs] of results) {
    const middle = [...runs].sort((a, b) => a.ordersPerSecond - b.ordersPerSecond)[
      Math.floor(runs.length / 2)
    ]!;
    const refused = middle.soldOut / (middle.placed + middle.soldOut + middle.errors);
    console.log(
      `|${comparing ? ` ${each.label} (${each.root}) |` : ""} ${PROCESSES} | ${RUNS} | ${CONNECTIONS} | ${HOT_EVERY} | ${middle.ordersPerSecond.toFixed(0)} | ${(refused * 100).toFixed(0)} % | ${middle.p50.toFixed(1)} | ${middle.p99.toFixed(1)} | ${runs.reduce((sum, r) => sum + r.oversold, 0)} | ${median(runs.map((r) => r.cpuMsPerAnswer)).toFixed(1)} |`,
    );
  }
  // Each round's runs side by side: their ratio is what a busy machine disturbs least.
  const ours = results.get(shop)!;
  for (const other of shops.filter((each) => each !== shop)) {
    const theirs = results.get(other)!;
    const ratios = ours.map((result, i) => result.ordersPerSecond / theirs[i]!.ordersPerSecond);
    const cpu = ours.map((result, i) => theirs[i]!.cpuMsPerAnswer / result.cpuMsPerAnswer);
    console.log(
      `\nthis : ${other.label}, orders/s per round: ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")}; median ${median(ratios).toFixed(2)}` +
        `\nthis : ${other.label}, answers per CPU second per round: ${cpu.map((ratio) => ratio.toFixed(2)).join(", ")}; median ${median(cpu).toFixed(2)}`,
    );
  }
  const failed = [...results.values()]
    .flat()
    .some((result) => result.oversold > 0 || result.unaccounted > 0 || result.errors > 0);
  await cleanUp();
  process.exit(failed ? 1 : 0);
} catch (error) {
  console.error(error);
  await cleanUp();
  process.exit(1);
}
