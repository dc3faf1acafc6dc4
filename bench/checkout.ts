// `npm run bench:checkout`: places orders through the running shop's real code path (the cart's
// payment button as the hydrated page posts it: a data request that validates, prices, reserves
// stock in the same statement as the order and opens a payment session) with many concurrent signed-in buyers, and prints orders placed per
// second, latency and the oversold count (must be 0). Several runs; the median is the result.
//
//   node bench/checkout.ts [--runs 3] [--seconds 10] [--warmup 3] [--connections 64] [--buyers 64]
//                          [--hot-every 10] [--processes 1] [--plain-forms] [--waits]
//                          [--cpu-prof <folder>]
//
// It starts its own embedded PostgreSQL and production server(s), building first when the build
// is missing or older than the sources.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import pg from "pg";
import { buildIfStale } from "#server/build-stamp.ts";
import { startEmbeddedPostgres } from "#server/embedded-postgres.ts";
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

if ((await buildIfStale()) !== 0) process.exit(1);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-checkout-"));
fs.chmodSync(dataDir, 0o755);
const database = await startEmbeddedPostgres(path.join(dataDir, "db"));
const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
const bases = ports.map((port) => `http://127.0.0.1:${port}`);
const base = bases[0]!;
const nodeArgs = args["cpu-prof"]
  ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args["cpu-prof"])}`]
  : [];
// One at a time: the first applies the migrations and the demo catalogue.
const servers: RunningServer[] = [];
for (const port of ports) {
  const env = {
    PORT: String(port),
    PUBLIC_URL: base,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    SEED_DEMO: "true",
    TRUST_PROXY: "loopback",
    // The benchmark's buyers pay again and again on purpose.
    CHECKOUT_ATTEMPTS_PER_ACCOUNT: "1000000",
    CHECKOUT_ATTEMPTS_PER_CLIENT: "1000000",
  };
  servers.push(await startServer(env, { nodeArgs, keepOutput: false }));
}

const db = new pg.Client(database.url);
await db.connect();

async function cleanUp() {
  agent.destroy();
  await Promise.all(servers.map((server) => server.stop()));
  await db.end();
  await database.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function form(values: Record<string, string>) {
  return new URLSearchParams(values).toString();
}

async function post(
  pathname: string,
  body: string,
  headers: Record<string, string> = {},
  target = base,
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

/**
 * The measured requests go through node:http with kept-alive connections, one per concurrent
 * buyer: this script shares the machine's two cores with the shop and PostgreSQL, and `fetch`
 * costs about twice the CPU per request.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function postQuickly(
  pathname: string,
  body: string,
  cookie: string,
  target: string,
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

console.log(`Signing up ${BUYERS} buyers…`);
const cookies: string[] = [];
for (let i = 0; i < BUYERS; i++) {
  const email = `bench-buyer-${i}@example.test`;
  const client = { "X-Forwarded-For": `198.18.${Math.floor(i / 200)}.${(i % 200) + 1}` };
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
  );
  await db.query("update users set email_verified = true where email = $1", [email]);
  const login = await post("/login", form({ intent: "login", email, password: PASSWORD }), client);
  if (login.status !== 302) throw new Error(`sign-in of ${email} answered ${login.status}`);
  cookies.push(
    login.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; "),
  );
}

async function stockTitles(): Promise<number[]> {
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

/** CPU seconds used by every PostgreSQL process (server and backends) on this machine. */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      total += cpuSeconds(Number(pid)) ?? 0;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
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
async function sampleWaits(deadline: number) {
  const sampler = new pg.Client(database.url);
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

async function run(seconds = SECONDS): Promise<RunResult> {
  const serials = await stockTitles();
  const latencies: number[] = [];
  let placed = 0;
  let soldOut = 0;
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = Date.now();
  const waits = args.waits ? sampleWaits(deadline) : null;
  const serversCpu = () =>
    servers.reduce((sum, server) => sum + (cpuSeconds(server.child.pid) ?? NaN), 0);
  const serverCpuBefore = serversCpu();
  const postgresBefore = postgresCpuSeconds();
  const selfBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, worker) => {
      while (Date.now() < deadline) {
        const n = next++;
        // Some orders ask for a hot title too, so every run sells some out.
        const lines = [
          { productType: "regular", serialNo: serials[n % serials.length]!, quantity: 1 },
        ];
        if (n % HOT_EVERY === 0) {
          // Each hot title in turn (n % HOT_TITLES alone, with n even, only ever reached two).
          const hot = serials[Math.floor(n / HOT_EVERY) % HOT_TITLES]!;
          lines.push({ productType: "regular", serialNo: hot, quantity: 1 });
        }
        const merged = lines.filter(
          (line, index) => lines.findIndex((other) => other.serialNo === line.serialNo) === index,
        );
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
  if (waits) printWaits(await waits);
  latencies.sort((a, b) => a - b);

  // Oversold: stock below zero, or more taken by orders than there was. Only orders that hold
  // their stock count: a buyer's new checkout releases their earlier unpaid order (its stock goes
  // back, its status becomes cancelled), as do expiry and cancellation.
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
    serverCpuMsPerRequest: (serverCpu * 1000) / (placed + soldOut + errors),
    machineCpuPercent: (machineCpu / elapsed) * 100,
    postgresCpuPercent: (postgresCpu / elapsed) * 100,
    clientCpuPercent: (clientCpu / elapsed) * 100,
  };
}

try {
  if (WARMUP > 0) {
    // Not counted: the server's code is compiled and its statements prepared on every pooled
    // connection, as in a shop that has been open a while.
    const warm = await run(WARMUP);
    console.log(`warm-up (${WARMUP} s, not counted): ${warm.ordersPerSecond.toFixed(0)} orders/s`);
  }
  const results: RunResult[] = [];
  for (let i = 1; i <= RUNS; i++) {
    const result = await run();
    results.push(result);
    console.log(
      `run ${i}: ${result.ordersPerSecond.toFixed(0)} orders/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
        `${result.placed} placed, ${result.soldOut} sold-out answers, ${result.errors} errors, oversold ${result.oversold}, stock unaccounted ${result.unaccounted}; ` +
        `server CPU ${result.serverCpuPercent.toFixed(0)} % (${result.serverCpuMsPerRequest.toFixed(1)} ms a request), PostgreSQL ${result.postgresCpuPercent.toFixed(0)} %, this script ${result.clientCpuPercent.toFixed(0)} %, machine ${result.machineCpuPercent.toFixed(0)} % of ${os.cpus().length * 100} %`,
    );
  }
  const median = [...results].sort((a, b) => a.ordersPerSecond - b.ordersPerSecond)[
    Math.floor(results.length / 2)
  ]!;
  console.log(
    "\n| processes | runs | connections | hot every | orders/s (median) | sold-out answers | p50 ms | p99 ms | oversold |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  const refused = median.soldOut / (median.placed + median.soldOut + median.errors);
  console.log(
    `| ${PROCESSES} | ${RUNS} | ${CONNECTIONS} | ${HOT_EVERY} | ${median.ordersPerSecond.toFixed(0)} | ${(refused * 100).toFixed(0)} % | ${median.p50.toFixed(1)} | ${median.p99.toFixed(1)} | ${results.reduce((sum, r) => sum + r.oversold, 0)} |`,
  );
  const failed = results.some(
    (result) => result.oversold > 0 || result.unaccounted > 0 || result.errors > 0,
  );
  await cleanUp();
  process.exit(failed ? 1 : 0);
} catch (error) {
  console.error(error);
  await cleanUp();
  process.exit(1);
}
