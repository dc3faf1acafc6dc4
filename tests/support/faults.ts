import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { UNANSWERED_MARGIN_MS } from "#app/db/client.server.ts";
import { freePort } from "#server/free-port.ts";
import { clientAddresses, postForm, withCookie } from "./form-post.ts";
import { type RunningServer, startServer } from "./server-process.ts";

// What the fault tests (server/faults*.test.ts) and bench/faults.ts share: the shop with its own
// embedded PostgreSQL, run as a real process (the production build must exist: `npm run build`),
// while the database is paused, stopped or lost. The timeouts are set short so that each fault
// takes seconds: 1 s to get a connection, 2 s per statement (the shop gives up on a database that
// does not answer at all a second after that).

const CONNECT_TIMEOUT_MS = 1000;
const STATEMENT_TIMEOUT_MS = 2000;
/**
 * The longest the shop itself lets one request wait on a database that does not answer, with
 * these settings: a connection, then a statement and the margin the pool gives it on top.
 */
const GIVE_UP_MS = CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + UNANSWERED_MARGIN_MS;
/**
 * How long a test waits for an answer those timeouts guarantee before it calls the request hung:
 * three times as long, as a busy machine (a load of 10 and more on two cores) stretches every
 * step of a request. Only a hang reaches it; how long answers take is bench/faults.ts's to tell.
 */
export const ANSWER_WITHIN_MS = 3 * GIVE_UP_MS;
const PASSWORD = "Faults-Test-Pass-8";

const scratchDirs: string[] = [];

/** Removes the data directories the file's shops used (its afterAll). */
export function removeScratchDirs() {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
}

function scratchDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-faults-"));
  // Run as root, the embedded server runs as a separate "postgres" user that must reach it.
  fs.chmodSync(dir, 0o755);
  scratchDirs.push(dir);
  return dir;
}

export type Shop = RunningServer & { dataDir: string; db: pg.Client };

/** The shop on a fresh data directory with short database timeouts, and a connection of our own. */
export function startShop(env: Record<string, string> = {}): Promise<Shop> {
  return startShopOn(scratchDir(), {
    DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    ...env,
  });
}

export async function stopShop(shop: Shop | undefined) {
  if (!shop) return;
  // The test's own connections: one left waiting on the paused database must not hold the
  // clean-up up; the shop's shutdown is bounded by the shop itself (server/main.ts).
  await Promise.race([
    shop.db.end().catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 5_000)),
  ]);
  if (shop.child.exitCode === null) await shop.stop();
}

export function postmasterPid(dataDir: string): number {
  return Number(
    fs.readFileSync(path.join(dataDir, "postgres/postmaster.pid"), "utf8").split("\n")[0],
  );
}

export function databaseUrl(dataDir: string): string {
  const lines = fs.readFileSync(path.join(dataDir, "postgres/postmaster.pid"), "utf8").split("\n");
  const password = fs.readFileSync(path.join(dataDir, "postgres-password"), "utf8").trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${lines[3]}/shop`;
}

/** The postmaster and every process it started (backends, checkpointer, WAL writer …). */
function clusterPids(postmaster: number): number[] {
  const children = fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/** Freezes the whole database (SIGSTOP): connections stay open, nothing answers. */
export function pauseDatabase(dataDir: string): () => void {
  const postmaster = postmasterPid(dataDir);
  process.kill(postmaster, "SIGSTOP"); // first, so that it starts nothing new meanwhile
  const pids = clusterPids(postmaster);
  for (const pid of pids.slice(1)) process.kill(pid, "SIGSTOP");
  return () => {
    for (const pid of pids.slice(1)) process.kill(pid, "SIGCONT");
    process.kill(postmaster, "SIGCONT");
  };
}

/** Waits for `probe` to find something; on a timeout the error adds what `detail` tells. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  detail?: () => string,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}${detail ? `\n${detail()}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export type Answer = {
  kind: string;
  status: number;
  location: string | null;
  body: string;
  /** When it was asked, and how long the answer took (for bench/faults.ts to print). */
  at: number;
  ms: number;
};

/**
 * The page a browsing worker asks for on its `i`-th request: the catalogue's first pages, a
 * title page, home and search results in turn, each worker starting at a different one.
 */
export function browsingPath(i: number, worker: number, serials: readonly number[]): string {
  return [
    `/movies?page=${(i % 5) + 1}`,
    `/movies/${serials[i % serials.length]}`,
    "/",
    `/search?q=the&page=${(i % 3) + 1}`,
  ][(i + worker) % 4]!;
}

export async function timed(kind: string, request: () => Promise<Response>): Promise<Answer> {
  const at = Date.now();
  const response = await request();
  const body = await response.text();
  const location = response.headers.get("location");
  return { kind, status: response.status, location, body, at, ms: Date.now() - at };
}

const nextClient = clientAddresses();
let accounts = 0;
export function post(shop: Shop, pathname: string, body: Record<string, string>, cookie = "") {
  return postForm(shop.url, pathname, body, {
    "X-Forwarded-For": nextClient(),
    ...withCookie(cookie),
  });
}

/** A confirmed customer, signed in: the session cookie. */
export async function customer(shop: Shop, label: string) {
  const email = `${label}-${process.pid}-${(accounts += 1)}@example.test`;
  const registered = await post(shop, "/register", {
    firstName: "Fay",
    lastName: "Fault",
    dateOfBirth: "1980-01-01",
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  if (registered.status !== 200) throw new Error(`registering ${email}: ${registered.status}`);
  await shop.db.query("update users set email_verified = true where email = $1", [email]);
  const login = await post(shop, "/login", { intent: "login", email, password: PASSWORD });
  if (login.status !== 302) throw new Error(`signing in ${email}: ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  return { cookie, email };
}

const SHIPPING = {
  name: "Fay Fault",
  address: "1 Main St",
  city: "Arlington",
  state: "TX",
  postalCode: "76012",
  phone: "(817) 555-0100",
  email: "fay@example.test",
};

export function pay(shop: Shop, cookie: string, serialNo: number) {
  return post(
    shop,
    "/cart",
    {
      ...SHIPPING,
      shippingMethod: "standard",
      lines: JSON.stringify([{ productType: "regular", serialNo, quantity: 1 }]),
      intent: "pay",
      checkoutKey: crypto.randomUUID(),
    },
    cookie,
  );
}

/** Copies of each title held by orders (reserved or sold), against what is left on the shelf. */
export async function stockLedger(db: pg.Client, serials: number[]) {
  const { rows } = await db.query<{ serial: number; left: number; held: number }>(
    `select t.reg_serial_no as serial, t.qty_to_list as left,
            coalesce((select sum(i.quantity) from order_items i join orders o on o.id = i.order_id
                       where i.product_type = 'regular' and i.product_serial_no = t.reg_serial_no
                         and o.status in ('pending', 'paid', 'shipped', 'completed')), 0)::int as held
       from regular_titles t where t.reg_serial_no = any($1::int[]) order by 1`,
    [serials],
  );
  return rows;
}

/** The shop on a data directory (one used before: started again), its embedded database. */
export async function startShopOn(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Shop> {
  const port = await freePort();
  const server = await startServer({
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO: "true",
    TRUST_PROXY: "loopback",
    CHECKOUT_ATTEMPTS_PER_ACCOUNT: "10000",
    CHECKOUT_ATTEMPTS_PER_CLIENT: "10000",
    ...env,
  });
  const db = new pg.Client(databaseUrl(dataDir));
  // The database may go away under it (the tests stop it); its queries say so.
  db.on("error", () => {});
  await db.connect();
  return { ...server, dataDir, db };
}
