import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import { describeFirstLoad, FIRST_LOAD_BUDGET, firstLoad } from "#scripts/first-load.ts";
import { afterAll, describe, expect, it } from "vitest";
import { emptyDatabase } from "#tests/support/empty-database.ts";
import {
  type RunningServer as Running,
  startServer as startProcess,
} from "#tests/support/server-process.ts";

// These tests run the real server entry (the production build must exist: `npm run build`).

// Secrets and mail of these servers stay out of the project's own .data folder.
const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-server-test-"));
afterAll(() => fs.rmSync(scratchDir, { recursive: true, force: true }));

function startServer(env: Record<string, string>) {
  return startProcess({ DATA_DIR: scratchDir, ...env });
}

describe("the server entry", () => {
  const { name: database, url: databaseUrl, admin } = emptyDatabase("lifecycle");

  it("answers /healthz with 200 while the database answers and 503 when it does not", async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, PORT: "0", SEED_DEMO: "false" });
    try {
      let response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });

      await admin.query(`alter database ${database} allow_connections false`);
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1",
        [database],
      );
      response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: "unavailable" });

      await admin.query(`alter database ${database} allow_connections true`);
      response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
    } finally {
      await admin.query(`alter database ${database} allow_connections true`);
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  it("refuses state-changing requests from other sites", async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, PORT: "0", SEED_DEMO: "false" });
    try {
      const post = (headers: Record<string, string>) =>
        fetch(`${server.url}/age-check`, {
          method: "POST",
          redirect: "manual",
          headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
          body: "returnTo=%2Fadult-movies",
        });
      const crossSite = await post({ Origin: "https://evil.example" });
      expect(crossSite.status).toBe(403);
      expect(await crossSite.json()).toEqual({ error: "Cross-site requests are not allowed." });
      expect((await post({ Origin: "null" })).status).toBe(403);
      expect((await post({ "Sec-Fetch-Site": "cross-site" })).status).toBe(403);

      const sameSite = await post({ Origin: server.url });
      expect(sameSite.status).toBe(302);
      expect(sameSite.headers.get("set-cookie")).toMatch(/^age_verified=/);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  it("keeps the home page's first-load JavaScript within decision 006's budget", async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, PORT: "0", SEED_DEMO: "false" });
    try {
      const load = await firstLoad(`${server.url}/`);
      console.log(`first-load JavaScript on /: ${describeFirstLoad(load)}`);
      // React DOM and React Router alone are about 111 KB of it.
      expect(load.libraries).toBeGreaterThan(100_000);
      expect(load.gzip).toBeLessThanOrEqual(FIRST_LOAD_BUDGET.gzip);
      expect(load.shop).toBeLessThanOrEqual(FIRST_LOAD_BUDGET.shop);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  it("sends the build's compressed copies of its scripts, and pages without module preloads", async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, PORT: "0", SEED_DEMO: "false" });
    try {
      const page = await (await fetch(`${server.url}/about`)).text();
      expect(page).not.toMatch(/<link[^>]*rel="modulepreload"/);
      // The module script at the end of the page still loads the route's code.
      const script = page.match(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? "";
      const entry = script.match(/import\("(\/assets\/entry\.client-[^"]+\.js)"\)/)?.[1];
      expect(entry).toBeDefined();

      // Node's fetch would decode the body itself: these requests ask with plain HTTP.
      const get = (acceptEncoding: string) =>
        new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          http
            .get(
              `${server.url}${entry}`,
              { headers: { "Accept-Encoding": acceptEncoding } },
              (res) => {
                const chunks: Buffer[] = [];
                res.on("data", (chunk: Buffer) => chunks.push(chunk));
                res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
              },
            )
            .on("error", reject);
        });
      const plain = await get("identity");
      const brotli = await get("gzip, deflate, br, zstd");
      const gzip = await get("gzip");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(brotli.headers["content-encoding"]).toBe("br");
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      for (const answer of [plain, brotli, gzip]) {
        expect(answer.headers["content-type"]).toMatch(/^text\/javascript/i);
        expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      }
      expect(zlib.brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
      expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);
      expect(brotli.body.length).toBeLessThan(gzip.body.length);

      // Files outside /assets are served too (a page's address is not looked for on disk).
      const favicon = await fetch(`${server.url}/favicon.svg`);
      expect(favicon.status).toBe(200);
      expect(favicon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
      expect(favicon.headers.get("cache-control")).toBe("public, max-age=3600");
      expect((await fetch(`${server.url}/images/default-poster.svg`)).status).toBe(200);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  it("limits sign-in attempts per client across server processes, in the database", async () => {
    // Clients state their address through a proxy on this machine.
    const env = {
      DATABASE_URL: databaseUrl,
      PORT: "0",
      SEED_DEMO: "false",
      TRUST_PROXY: "loopback",
    };
    const [first, second] = await Promise.all([startServer(env), startServer(env)]);
    try {
      const attempt = (server: Running, client: string) =>
        fetch(`${server.url}/login`, {
          method: "POST",
          redirect: "manual",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: server.url,
            "X-Forwarded-For": client,
          },
          body: "intent=login&email=nobody%40example.test&password=wrong-password",
        });
      for (let i = 0; i < 5; i++) {
        const server = i % 2 === 0 ? first : second;
        expect((await attempt(server, "203.0.113.7")).status).toBe(400);
      }
      const limited = await attempt(second, "203.0.113.7");
      expect(limited.status).toBe(429);
      expect(await limited.text()).toContain("Too many attempts");
      // Another client is not affected.
      expect((await attempt(first, "203.0.113.8")).status).toBe(400);
      // The count lives in PostgreSQL, which is how both processes saw it.
      const shop = new pg.Client(databaseUrl);
      await shop.connect();
      const { rows } = await shop.query(
        "select count from rate_limits where key like '%203.0.113.7%' and key like '%sign-in%'",
      );
      await shop.end();
      expect(rows.map((row: { count: number }) => row.count)).toContain(5);
    } finally {
      first.child.kill("SIGTERM");
      second.child.kill("SIGTERM");
      await Promise.all([first.exited, second.exited]);
    }
  });

  it("never lets a sign-up choose its own role or confirm its own e-mail", async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, PORT: "0", SEED_DEMO: "false" });
    try {
      const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: server.url },
        body: JSON.stringify({
          email: "sneaky@example.test",
          password: "Sneaky-But-Long-99",
          name: "Sneaky",
          role: "admin",
          emailVerified: true,
          banned: false,
        }),
      });
      // Either refused outright or accepted without the extra fields.
      const shop = new pg.Client(databaseUrl);
      await shop.connect();
      const { rows } = await shop.query(
        "select role, email_verified from users where email = 'sneaky@example.test'",
      );
      await shop.end();
      if (response.ok) expect(rows).toEqual([{ role: "customer", email_verified: false }]);
      else expect(rows).toEqual([]);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  it("keeps mail in the development mailbox when no SMTP server is set, never otherwise", async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, PORT: "0", SEED_DEMO: "false" });
    try {
      const register = await fetch(`${server.url}/register`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
        body: new URLSearchParams({
          firstName: "Mia",
          lastName: "Mailbox",
          dateOfBirth: "1991-01-01",
          email: "mia@example.test",
          password: "Mailbox-Reader-12",
          confirmPassword: "Mailbox-Reader-12",
        }),
      });
      expect(register.status).toBe(200);
      let list = "";
      // Looked for every 200 ms for a minute at least: longer is a hang, not a slow machine.
      for (let i = 0; i < 300 && !list.includes("mia@example.test"); i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        list = await (await fetch(`${server.url}/dev/mailbox`)).text();
      }
      expect(list).toContain("Confirm your e-mail for Reel &amp; Repair");
      const id = list.match(/\/dev\/mailbox\/([0-9a-f-]+)/)![1]!;
      const message = await (await fetch(`${server.url}/dev/mailbox/${id}`)).text();
      expect(message).toMatch(/href="http:\/\/localhost:\d+\/api\/auth\/verify-email\?token=/);
      // The log says where the message is, never its link (the link carries a token).
      expect(server.output()).toContain("kept in the development mailbox (/dev/mailbox/");
      expect(server.output()).not.toContain("verify-email?token=");
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    const withSmtp = await startServer({
      DATABASE_URL: databaseUrl,
      PORT: "0",
      SEED_DEMO: "false",
      SMTP_URL: "smtp://127.0.0.1:9",
    });
    try {
      expect((await fetch(`${withSmtp.url}/dev/mailbox`)).status).toBe(404);
    } finally {
      withSmtp.child.kill("SIGTERM");
      await withSmtp.exited;
    }
  });

  it("refuses to start on a port that is taken, saying so", async () => {
    const first = await startServer({ DATABASE_URL: databaseUrl, PORT: "0", SEED_DEMO: "false" });
    const port = new URL(first.url).port;
    try {
      const second = startServer({ DATABASE_URL: databaseUrl, PORT: port, SEED_DEMO: "false" });
      await expect(second).rejects.toThrow(/exited with 1[\s\S]*already in use/);
    } finally {
      first.child.kill("SIGTERM");
      await first.exited;
    }
  });

  it("stops cleanly on SIGTERM: open requests finish, the embedded database shuts down", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-lifecycle-"));
    fs.chmodSync(dataDir, 0o755);
    try {
      const server = await startServer({
        DATA_DIR: dataDir,
        PORT: "0",
        SEED_DEMO: "true",
        DATABASE_URL: "",
      });
      const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
      expect(fs.existsSync(pidFile)).toBe(true);
      // The request goes down a connection the shop has already accepted, kept open after a
      // first answer: a connection still waiting in the listening socket's queue when the shop
      // stops listening is refused or reset by the system, before the shop could see it.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const get = (pathname: string) =>
        new Promise<{ status: number; body: string; reusedSocket: boolean }>((resolve, reject) => {
          const request = http.get(new URL(pathname, server.url), { agent }, (response) => {
            let body = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => (body += chunk));
            response.on("end", () =>
              resolve({
                status: response.statusCode ?? 0,
                body,
                reusedSocket: request.reusedSocket,
              }),
            );
          });
          request.on("error", reject);
        });
      expect((await get("/healthz")).status).toBe(200);
      const inFlight = get("/sitemap.xml");
      server.child.kill("SIGTERM");
      const response = await inFlight;
      agent.destroy();
      expect(response.reusedSocket).toBe(true);
      expect(response.status).toBe(200);
      expect(response.body).toContain("</urlset>");
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain("stopped");
      expect(fs.existsSync(pidFile)).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // A shop on a data folder of its own: creating its database cluster (initdb) and the demo
    // catalogue is most of this test's time, 5 s on a quiet machine and over 15 s on a busy one.
  });
});
