import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDatabase } from "#tests/support/empty-database.ts";
import { postForm, withCookie } from "#tests/support/form-post.ts";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";
import { freePort } from "./free-port.ts";
import { eventually } from "#tests/support/eventually.ts";

// The real server's log lines and /metrics (the production build must exist: `npm run build`).

const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-observability-"));
const { url: databaseUrl } = emptyDatabase("observability");
const shopDb = new pg.Client(databaseUrl);
const METRICS_TOKEN = "metrics-token-for-the-tests-0123";
const PASSWORD = "Observed-Password-731";
const NEW_PASSWORD = "Renewed-Password-482";
let shop: RunningServer;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  shop = await startServer({
    DATA_DIR: scratchDir,
    DATABASE_URL: databaseUrl,
    PORT: "0",
    LOG_LEVEL: "debug",
    METRICS_TOKEN,
    METRICS_PORT: String(metricsPort),
  });
  await shopDb.connect();
});

afterAll(async () => {
  await shop?.stop();
  await shopDb.end();
  fs.rmSync(scratchDir, { recursive: true, force: true });
});

function post(pathname: string, body: Record<string, string>, cookie = "") {
  return postForm(shop.url, pathname, body, withCookie(cookie));
}

/** The JSON lines the server wrote (everything else it printed is left out). */
function logLines(): Record<string, unknown>[] {
  return shop
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the server's logs", () => {
  it("give every request an id, on each of its lines and in X-Request-Id", async () => {
    const own = await fetch(`${shop.url}/movies/1`);
    await own.text();
    const id = own.headers.get("X-Request-Id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const traced = await fetch(`${shop.url}/movies?page=2`, {
      headers: { "X-Request-Id": "lb-trace.42" },
    });
    await traced.text();
    expect(traced.headers.get("X-Request-Id")).toBe("lb-trace.42");
    const refused = await fetch(`${shop.url}/about`, {
      headers: { "X-Request-Id": `bad id ${"x".repeat(80)}` },
    });
    expect(refused.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);

    // A request's line is written once its answer has gone out.
    const lines = await eventually(() => {
      const found = logLines().filter((line) => line.requestId === id);
      const traceLogged = logLines().some((line) => line.requestId === "lb-trace.42");
      return found.length > 0 && traceLogged ? found : undefined;
    });
    expect(lines.some((line) => line.path === "/movies/1" && line.status === 200)).toBe(true);
    expect(lines.find((line) => line.path === "/movies/1")?.route).toBe("/movies/:regSerialNo");
    // Lines about a request name no other request.
    const pages = logLines().filter((line) => line.msg === "request");
    expect(pages.find((line) => line.path === "/movies")?.requestId).toBe("lb-trace.42");
    expect(pages.filter((line) => line.requestId === id)).toHaveLength(1);
    // Every line is JSON with a level and a time.
    expect(logLines().every((line) => typeof line.level === "number" && line.time)).toBe(true);
  });

  it("hold no password, reset token or session through sign-up, sign-in and a reset", async () => {
    const email = `observed-${process.pid}@example.test`;
    await post("/register", {
      firstName: "Olive",
      lastName: "Observed",
      dateOfBirth: "1984-04-04",
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    await shopDb.query("update users set email_verified = true where email = $1", [email]);
    const login = await post("/login", { intent: "login", email, password: PASSWORD });
    expect(login.status).toBe(302);
    const session = login.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    await fetch(`${shop.url}/account`, { headers: { Cookie: session } });
    await post("/login", { intent: "login", email, password: "Wrong-Password-000" });

    await post("/login", { intent: "reset", email });
    const token = await eventually(async () => {
      const { rows } = await shopDb.query<{ identifier: string }>(
        "select identifier from verifications where identifier like 'reset-password:%' order by created_at desc limit 1",
      );
      return rows[0]?.identifier.slice("reset-password:".length);
    });
    // The link in the e-mail carries the token in its path.
    await fetch(`${shop.url}/api/auth/reset-password/${token}?callbackURL=%2Freset-password`, {
      redirect: "manual",
    });
    const reset = await fetch(`${shop.url}/api/auth/reset-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: shop.url },
      body: JSON.stringify({ token, newPassword: NEW_PASSWORD }),
    });
    expect(reset.status).toBe(200);

    await eventually(() =>
      logLines().some((line) => String(line.path).startsWith("/api/auth/reset-password/"))
        ? true
        : undefined,
    );
    const output = shop.output();
    const sessionToken = session.match(/session_token=([^;]+)/)![1]!;
    for (const secret of [PASSWORD, NEW_PASSWORD, "Wrong-Password-000", token, sessionToken]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(encodeURIComponent(secret));
    }
    expect(output).toContain("/api/auth/reset-password/[redacted]");
  });
});

describe("/metrics", () => {
  it("answers only with the token on the shop's port, and without one on its own port", async () => {
    expect((await fetch(`${shop.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${shop.url}/metrics`, {
      headers: { Authorization: "Bearer not-the-token-at-all-000" },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${shop.url}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(right.status).toBe(200);
    expect(right.headers.get("Content-Type")).toContain("text/plain");
    const own = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(own.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/movies`)).status).toBe(404);
  });

  it("reports requests by route pattern and status, the pool, the mail queue, orders and bookings", async () => {
    const {
      rows: [title],
    } = await shopDb.query<{ id: number }>(
      "select reg_serial_no as id from regular_titles order by reg_serial_no desc limit 1",
    );
    for (const pathname of [`/movies/${title!.id}`, `/movies/${title!.id}`, "/no-such-page"]) {
      await (await fetch(`${shop.url}${pathname}`)).text();
    }
    const body = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const count = body.match(
      /shop_http_request_duration_seconds_count\{route="\/movies\/:regSerialNo",method="GET"\} (\d+)/,
    );
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(2);
    expect(body).not.toContain(`/movies/${title!.id}"`);
    expect(body).toMatch(/shop_http_responses_total\{status="404",method="GET"\} [1-9]/);
    expect(body).toMatch(/shop_page_cache_requests_total\{result="hit"\} [1-9]/);
    expect(body).toMatch(/shop_db_pool_connections\{state="total"\} [1-9]/);
    expect(body).toMatch(/shop_db_pool_connections\{state="waiting"\} 0/);
    // The sign-up and reset e-mails of the test above went through the queue.
    expect(body).toMatch(/shop_mail_jobs\{state="(created|active|completed)"\} [1-9]/);
    expect(body).toMatch(/shop_orders\{status="paid"\} \d+/);
    expect(body).toMatch(/shop_repair_bookings\{status="booked"\} \d+/);
    expect(body).toContain("process_cpu_seconds_total");
  });

  it("is not there at all without a token or a port", async () => {
    const plain = await startServer({
      DATA_DIR: scratchDir,
      DATABASE_URL: databaseUrl,
      PORT: "0",
      SEED_DEMO: "false",
    });
    try {
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });
});
