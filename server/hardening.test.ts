import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createOTP } from "@better-auth/utils/otp";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDatabase } from "#tests/support/empty-database.ts";
import { postForm } from "#tests/support/form-post.ts";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";
import { startSmtpSink } from "#tests/support/smtp-sink.ts";
import { freePort } from "./free-port.ts";
import { eventually } from "#tests/support/eventually.ts";

// What a probe as an attacker found, each tried again over real HTTP against the real server
// entry (the production build must exist: `npm run build`).

const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-hardening-"));
const { url: databaseUrl } = emptyDatabase("hardening");
const shopDb = new pg.Client(databaseUrl);

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
/** Trusts no proxy: the default. */
let shop: RunningServer;
/** Behind a reverse proxy on this machine (TRUST_PROXY=loopback). */
let proxied: RunningServer;

const PASSWORD = "Hardened-Shopper-42";
let counter = 0;
/** A documentation-range address nobody else in this file uses. */
function nextClient() {
  counter += 1;
  return `198.51.${Math.floor(counter / 250)}.${(counter % 250) + 1}`;
}
function uniqueEmail(label: string) {
  return `${label}-${process.pid}-${(counter += 1)}@example.test`;
}

function form(values: Record<string, string>) {
  return new URLSearchParams(values).toString();
}

function post(
  server: RunningServer,
  pathname: string,
  body: string,
  headers: Record<string, string> = {},
) {
  return postForm(server.url, pathname, body, headers);
}

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** A confirmed customer account (confirmation is covered by the accounts tests). */
async function confirmedAccount(label: string, password = PASSWORD) {
  const email = uniqueEmail(label);
  const response = await post(
    proxied,
    "/register",
    form({
      firstName: "Hana",
      lastName: "Hardening",
      dateOfBirth: "1990-01-01",
      email,
      password,
      confirmPassword: password,
    }),
    { "X-Forwarded-For": nextClient() },
  );
  expect(response.status).toBe(200);
  await shopDb.query("update users set email_verified = true where email = $1", [email]);
  return email;
}

async function signIn(server: RunningServer, email: string, extra: Record<string, string> = {}) {
  const response = await post(
    server,
    "/login",
    form({ intent: "login", email, password: PASSWORD }),
    {
      "X-Forwarded-For": nextClient(),
      ...extra,
    },
  );
  expect(response.status).toBe(302);
  return cookiesOf(response);
}

/** Turns on TOTP for an account and returns its secret and backup codes. */
async function withTwoFactor(email: string): Promise<{ secret: string; backupCodes: string[] }> {
  const session = await signIn(proxied, email);
  const enable = await fetch(`${proxied.url}/api/auth/two-factor/enable`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: proxied.url, Cookie: session },
    body: JSON.stringify({ password: PASSWORD }),
  });
  const { totpURI, backupCodes } = (await enable.json()) as {
    totpURI: string;
    backupCodes: string[];
  };
  const encoded = new URL(totpURI).searchParams.get("secret")!;
  const secret = Buffer.from(base32Decode(encoded)).toString();
  const verify = await fetch(`${proxied.url}/api/auth/two-factor/verify-totp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: proxied.url, Cookie: session },
    body: JSON.stringify({ code: await createOTP(secret).hotp(currentStep() - 1) }),
  });
  expect(verify.status).toBe(200);
  return { secret, backupCodes };
}

function currentStep() {
  return Math.floor(Date.now() / 30_000);
}

function base32Decode(text: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of text.replace(/=+$/, "")) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  }
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return new Uint8Array(bytes);
}

async function queuedMailTo(email: string): Promise<number> {
  const { rows } = await shopDb.query(
    "select count(*)::int as count from pgboss.job where name = 'mail-send' and data->>'to' = $1",
    [email],
  );
  return rows[0].count as number;
}

function resetLinksTo(email: string): string[] {
  return smtp.received
    .filter((mail) => mail.to && JSON.stringify(mail.to).includes(email))
    .map((mail) => mail.text?.match(/\/api\/auth\/reset-password\/([^?\s]+)/)?.[1])
    .filter((token): token is string => Boolean(token));
}

async function requestReset(email: string) {
  return post(proxied, "/login", form({ intent: "reset", email }), {
    "X-Forwarded-For": nextClient(),
  });
}

async function resetWith(token: string, newPassword: string) {
  return fetch(`${proxied.url}/api/auth/reset-password`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: proxied.url },
    body: JSON.stringify({ token, newPassword }),
  });
}

beforeAll(async () => {
  smtp = await startSmtpSink(0);
  const env = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: scratchDir,
    PORT: "0",
    SEED_DEMO: "true",
    SMTP_URL: smtp.url,
  };
  const [shopPort, proxiedPort] = [await freePort(), await freePort()];
  shop = await startServer({
    ...env,
    PORT: String(shopPort),
    PUBLIC_URL: `http://127.0.0.1:${shopPort}`,
  });
  proxied = await startServer({
    ...env,
    PORT: String(proxiedPort),
    PUBLIC_URL: `http://127.0.0.1:${proxiedPort}`,
    SEED_DEMO: "false",
    TRUST_PROXY: "loopback",
  });
  await shopDb.connect();
});

afterAll(async () => {
  await Promise.all([shop?.stop(), proxied?.stop()]);
  await shopDb.end();
  await smtp?.close();
  fs.rmSync(scratchDir, { recursive: true, force: true });
});

describe("return addresses", () => {
  const attacks = [
    "/%09/evil.example",
    "/%5C/evil.example",
    "/%0A/evil.example",
    "/%0D%0A/evil.example",
    "/.//evil.example",
  ];

  function expectLocal(response: Response, allowed: string[]) {
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location.startsWith("/") && !location.startsWith("//")).toBe(true);
    expect(location).not.toMatch(/evil|[\t\r\n\\]/);
    expect(allowed).toContain(location);
  }

  it("never leave the shop from /login, /login/two-factor, /auth/continue or /age-check", async () => {
    const email = await confirmedAccount("redirects");
    const session = await signIn(proxied, email);
    const twoFactorEmail = await confirmedAccount("redirects-2fa");
    const { backupCodes } = await withTwoFactor(twoFactorEmail);
    for (const [round, attack] of attacks.entries()) {
      // Signed in already: the login page sends you on.
      const signedIn = await fetch(`${proxied.url}/login?redirectTo=${attack}`, {
        redirect: "manual",
        headers: { Cookie: session },
      });
      expectLocal(signedIn, ["/"]);

      const login = await post(
        proxied,
        `/login?redirectTo=${attack}`,
        form({ intent: "login", email, password: PASSWORD }),
        { "X-Forwarded-For": nextClient() },
      );
      expectLocal(login, ["/"]);

      const cont = await fetch(`${proxied.url}/auth/continue?redirectTo=${attack}`, {
        redirect: "manual",
        headers: { Cookie: session },
      });
      expectLocal(cont, ["/"]);

      const age = await post(proxied, "/age-check", `returnTo=${attack}`);
      expectLocal(age, ["/adult-movies"]);

      const pending = await post(
        proxied,
        `/login?redirectTo=${attack}`,
        form({ intent: "login", email: twoFactorEmail, password: PASSWORD }),
        { "X-Forwarded-For": nextClient() },
      );
      expect(pending.status).toBe(302);
      const twoFactor = await post(
        proxied,
        `/login/two-factor?redirectTo=${attack}`,
        form({ method: "backup", code: backupCodes[round]! }),
        { Cookie: cookiesOf(pending), "X-Forwarded-For": nextClient() },
      );
      expectLocal(twoFactor, ["/"]);
    }
  });

  it("still return to our own pages", async () => {
    const email = await confirmedAccount("redirect-home");
    const login = await post(
      proxied,
      `/login?redirectTo=${encodeURIComponent("/movies?page=2")}`,
      form({ intent: "login", email, password: PASSWORD }),
      { "X-Forwarded-For": nextClient() },
    );
    expect(login.headers.get("location")).toBe("/movies?page=2");
  });
});

describe("client addresses and per-account limits", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY says which proxy may send it", async () => {
    const email = await confirmedAccount("spoof");
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      const response = await post(
        shop,
        "/login",
        form({ intent: "login", email, password: "wrong-password-1" }),
        { "X-Forwarded-For": nextClient() },
      );
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(7);
    const right = await post(shop, "/login", form({ intent: "login", email, password: PASSWORD }), {
      "X-Forwarded-For": nextClient(),
    });
    expect(right.status).toBe(429);
  });

  it("limits sign-in per account even when every attempt comes from a new address", async () => {
    const email = await confirmedAccount("per-account");
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      const response = await post(
        proxied,
        "/login",
        form({ intent: "login", email, password: "wrong-password-2" }),
        { "X-Forwarded-For": nextClient() },
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const right = await post(
      proxied,
      "/login",
      form({ intent: "login", email, password: PASSWORD }),
      {
        "X-Forwarded-For": nextClient(),
      },
    );
    expect(right.status).toBe(429);
    expect(await right.text()).toContain("Too many attempts");
  });

  it("limits reset e-mails per address, whatever address asks", async () => {
    const email = await confirmedAccount("reset-flood");
    for (let i = 0; i < 20; i++) await requestReset(email);
    expect(await queuedMailTo(email)).toBe(1 + 3); // the sign-up confirmation and three resets
  });

  it("limits two-factor codes per account across new sign-ins and addresses", async () => {
    const email = await confirmedAccount("totp-guess");
    const { secret } = await withTwoFactor(email);
    const statuses: number[] = [];
    for (let challenge = 0; challenge < 3; challenge++) {
      const pending = await post(
        proxied,
        "/login",
        form({ intent: "login", email, password: PASSWORD }),
        { "X-Forwarded-For": nextClient() },
      );
      for (let i = 0; i < 5; i++) {
        const guess = await post(
          proxied,
          "/login/two-factor",
          form({ method: "totp", code: "000000" }),
          {
            Cookie: cookiesOf(pending),
            "X-Forwarded-For": nextClient(),
          },
        );
        statuses.push(guess.status);
      }
    }
    expect(statuses.every((status) => status === 400 || status === 429)).toBe(true);
    // Ten wrong codes lock the second factor of the account for a while: the right code fails.
    const pending = await post(
      proxied,
      "/login",
      form({ intent: "login", email, password: PASSWORD }),
      {
        "X-Forwarded-For": nextClient(),
      },
    );
    const right = await post(
      proxied,
      "/login/two-factor",
      form({ method: "totp", code: await createOTP(secret).hotp(currentStep() + 1) }),
      { Cookie: cookiesOf(pending), "X-Forwarded-For": nextClient() },
    );
    expect(right.status).not.toBe(302);
  });

  it("gives clients whose forwarded address cannot be parsed their own connection's bucket", async () => {
    const email = await confirmedAccount("garbage-xff");
    await post(proxied, "/login", form({ intent: "login", email, password: "wrong-password-3" }), {
      "X-Forwarded-For": "not-an-address",
    });
    const { rows } = await shopDb.query(
      "select key from rate_limits where key like '%sign-in%' and key like '%not-an-address%'",
    );
    expect(rows).toEqual([]);
  });
});

describe("registration", () => {
  it("answers 'already registered' only a few times per address, from any client", async () => {
    const email = await confirmedAccount("oracle");
    const messages = [];
    for (let i = 0; i < 8; i++) {
      const response = await post(
        proxied,
        "/register",
        form({
          firstName: "Otto",
          lastName: "Oracle",
          dateOfBirth: "1990-01-01",
          email,
          password: PASSWORD,
          confirmPassword: PASSWORD,
        }),
        { "X-Forwarded-For": nextClient() },
      );
      messages.push(response.status);
    }
    // The account's own registration counted once already.
    expect(messages.filter((status) => status === 400).length).toBe(4);
    expect(messages.filter((status) => status === 429).length).toBe(4);
  });

  it("answers one client about only a few addresses", async () => {
    const client = nextClient();
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      const response = await post(
        proxied,
        "/register",
        form({
          firstName: "Rita",
          lastName: "Repeat",
          dateOfBirth: "1990-01-01",
          email: await confirmedAccount("per-client"),
          password: PASSWORD,
          confirmPassword: PASSWORD,
        }),
        { "X-Forwarded-For": client },
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});

describe("reset links", () => {
  it("a reset ends the account's other reset links", async () => {
    const email = await confirmedAccount("two-links");
    await requestReset(email);
    await requestReset(email);
    const [first, second] = await eventually(() => {
      const links = resetLinksTo(email);
      return links.length >= 2 ? links : undefined;
    });
    expect((await resetWith(first!, "Brand-New-Secret-77")).status).toBe(200);
    const stale = await resetWith(second!, "Another-New-Secret-78");
    expect(stale.status).toBe(400);
  });

  it("a password change ends outstanding reset links", async () => {
    const email = await confirmedAccount("change-ends-links");
    await requestReset(email);
    const [token] = await eventually(() => {
      const links = resetLinksTo(email);
      return links.length >= 1 ? links : undefined;
    });
    const session = await signIn(proxied, email);
    const change = await fetch(`${proxied.url}/api/auth/change-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: proxied.url, Cookie: session },
      body: JSON.stringify({ currentPassword: PASSWORD, newPassword: "Changed-Secret-Word-5" }),
    });
    expect(change.status).toBe(200);
    expect((await resetWith(token!, "Sneaky-Takeover-Pass-6")).status).toBe(400);
  });
});

describe("request size", () => {
  it("refuses large bodies with 413 before reading them, and bodies of unknown length with 411", async () => {
    // Only the headers are sent: the answer must come before any of the body is read.
    const declared = (pathname: string, type: string, length: number) =>
      rawRequest(
        shop,
        [
          `POST ${pathname} HTTP/1.1`,
          "Host: 127.0.0.1",
          `Content-Type: ${type}`,
          `Content-Length: ${length}`,
          "",
          "",
        ].join("\r\n"),
        { untilClosed: true },
      );
    const prices = await declared("/api/cart/prices", "application/json", 100 * 1024);
    expect(prices).toMatch(/^HTTP\/1\.1 413/);
    expect(prices).toContain("larger than");
    // A browser's form post with files too large together gets a page to read, and a way back.
    const upload = await rawRequest(
      shop,
      [
        "POST /admin/repairs/new HTTP/1.1",
        "Host: 127.0.0.1",
        "Accept: text/html,application/xhtml+xml,*/*;q=0.8",
        "Referer: http://127.0.0.1/admin/repairs/new?booking=1",
        "Content-Type: multipart/form-data; boundary=x",
        `Content-Length: ${50 * 1024 * 1024}`,
        "",
        "",
      ].join("\r\n"),
      { untilClosed: true },
    );
    expect(upload).toMatch(/^HTTP\/1\.1 413/);
    expect(upload).toContain("text/html");
    expect(upload).toContain("What you sent is larger than 40 MB together");
    expect(upload).toContain('href="/admin/repairs/new?booking=1"');
    expect(await declared("/login", "application/x-www-form-urlencoded", 200 * 1024)).toMatch(
      /^HTTP\/1\.1 413/,
    );
    // The auth API: a 5,000,000-character name was once stored.
    expect(await declared("/api/auth/sign-up/email", "application/json", 5_000_100)).toMatch(
      /^HTTP\/1\.1 413/,
    );
    // A small body is still read and answered as usual.
    const small = await fetch(`${shop.url}/api/cart/prices`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: shop.url },
      body: JSON.stringify({ items: [] }),
    });
    expect(small.status).toBe(200);

    const chunked = await rawRequest(
      shop,
      [
        "POST /api/cart/prices HTTP/1.1",
        "Host: 127.0.0.1",
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
        "",
        "5",
        '{"ite',
        "0",
        "",
        "",
      ].join("\r\n"),
    );
    expect(chunked).toMatch(/^HTTP\/1\.1 411/);
  });

  it("keeps names the auth library stores short and plain", async () => {
    const email = uniqueEmail("long-name");
    const signUp = await fetch(`${shop.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: shop.url },
      body: JSON.stringify({ email, password: PASSWORD, name: "n".repeat(3000) }),
    });
    expect(signUp.status).toBe(400);
    const link = await fetch(`${shop.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: shop.url },
      body: JSON.stringify({ email, password: PASSWORD, name: "Claim https://evil.example/now" }),
    });
    expect(link.status).toBe(400);
    const { rows } = await shopDb.query("select 1 from users where email = $1", [email]);
    expect(rows).toEqual([]);

    const session = await signIn(proxied, await confirmedAccount("rename"));
    const rename = await fetch(`${shop.url}/api/auth/update-user`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: shop.url, Cookie: session },
      body: JSON.stringify({ name: "x".repeat(500) }),
    });
    expect(rename.status).toBe(400);
  });
});

function rawRequest(
  server: RunningServer,
  text: string,
  options: { untilClosed?: boolean } = {},
): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
      if (!options.untilClosed && answer.includes("\r\n\r\n")) socket.end();
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("bad requests", () => {
  it("answers NUL bytes in addresses with 400, never 500", async () => {
    for (const pathname of [
      "/search?query=a%00b",
      "/api/search/suggestions?query=ab%00",
      "/adult-movies?production=x%00",
      "/login?redirectTo=/%00",
      "/api/auth/reset-password/abc%00?callbackURL=/",
    ]) {
      const response = await fetch(`${shop.url}${pathname}`, { redirect: "manual" });
      expect(response.status, pathname).toBe(400);
    }
  });

  it("answers forms sent in the wrong shape with 400", async () => {
    const plain = await post(shop, "/login", "email=a@b.c&password=x", {
      "Content-Type": "text/plain",
    });
    expect(plain.status).toBe(400);
    const none = await fetch(`${shop.url}/login`, {
      method: "POST",
      headers: { Origin: shop.url },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(none.status).toBe(400);
    const brokenMultipart = await post(shop, "/register", "--x\r\nnot really multipart", {
      "Content-Type": "multipart/form-data; boundary=x",
    });
    expect(brokenMultipart.status).toBe(400);
    const notJson = await fetch(`${shop.url}/api/cart/prices`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: shop.url },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: "The body must be JSON." });
  });

  it("keeps NUL bytes out of stored profile fields", async () => {
    const email = await confirmedAccount("nul-profile");
    const session = await signIn(proxied, email);
    const save = await post(
      proxied,
      "/account",
      form({ intent: "profile", firstName: "Nu\u0000ll", lastName: "Byte", dateOfBirth: "" }),
      { Cookie: session },
    );
    expect(save.status).toBe(302);
    const { rows } = await shopDb.query("select first_name from customers where email = $1", [
      email,
    ]);
    expect(rows).toEqual([{ first_name: "Null" }]);

    const api = await fetch(`${proxied.url}/api/auth/update-user`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: proxied.url, Cookie: session },
      body: JSON.stringify({ name: "Nu\u0000ll" }),
    });
    expect(api.status).toBe(400);
  });
});

/** fetch() will not send another Host; a raw request can. */
async function rawGet(server: RunningServer, pathname: string, headers: Record<string, string>) {
  const lines = [
    `GET ${pathname} HTTP/1.1`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "Connection: close",
    "",
    "",
  ];
  const answer = await rawRequest(server, lines.join("\r\n"), { untilClosed: true });
  return answer.slice(answer.indexOf("\r\n\r\n") + 4);
}

describe("the contact form", () => {
  it("says so when a message cannot be stored, and keeps what was typed", async () => {
    await shopDb.query("alter table contacts rename to contacts_unavailable");
    try {
      const response = await post(
        shop,
        "/contact",
        form({ name: "Stella Store", email: "stella@example.test", message: "Are you open?" }),
      );
      expect(response.status).toBe(503);
      const page = await response.text();
      expect(page).toContain("Could not submit your message. Please try again.");
      expect(page).toContain("Are you open?");
    } finally {
      await shopDb.query("alter table contacts_unavailable rename to contacts");
    }
  });
});

describe("the repair booking form", () => {
  it("keeps what was typed when a booking cannot be stored", async () => {
    const day = new Date(Date.now() + 10 * 86_400_000);
    if (day.getUTCDay() === 0) day.setUTCDate(day.getUTCDate() + 1);
    await shopDb.query("alter table service_requests rename to service_requests_unavailable");
    try {
      const response = await post(
        shop,
        "/service-request-form",
        form({
          name: "Bo Oking",
          email: "bo@example.test",
          phone: "(817) 555-0100",
          serviceType: "Mobile Phone Repair",
          issue: "Cracked screen on a Pixel 7",
          preferredDate: day.toISOString().slice(0, 10),
          preferredTime: "11:00",
        }),
      );
      expect(response.status).toBe(503);
      const page = await response.text();
      expect(page).toContain("Could not book your appointment. Please try again, or call us.");
      expect(page).toContain("Cracked screen on a Pixel 7");
    } finally {
      await shopDb.query("alter table service_requests_unavailable rename to service_requests");
    }
  });
});

describe("two-factor codes", () => {
  it("work once", async () => {
    const email = await confirmedAccount("totp-once");
    const { secret } = await withTwoFactor(email);
    const code = await createOTP(secret).hotp(currentStep() + 1);
    const first = await post(
      proxied,
      "/login",
      form({ intent: "login", email, password: PASSWORD }),
      {
        "X-Forwarded-For": nextClient(),
      },
    );
    const used = await post(proxied, "/login/two-factor", form({ method: "totp", code }), {
      Cookie: cookiesOf(first),
      "X-Forwarded-For": nextClient(),
    });
    expect(used.status).toBe(302);
    const second = await post(
      proxied,
      "/login",
      form({ intent: "login", email, password: PASSWORD }),
      {
        "X-Forwarded-For": nextClient(),
      },
    );
    const reused = await post(proxied, "/login/two-factor", form({ method: "totp", code }), {
      Cookie: cookiesOf(second),
      "X-Forwarded-For": nextClient(),
    });
    expect(reused.status).toBe(400);
  });
});

describe("smaller items", () => {
  it("shows only known sign-in error codes", async () => {
    const odd = await (await fetch(`${shop.url}/login?error=Call_us_at_555-0100_to_verify`)).text();
    expect(odd).not.toMatch(/Call us at/);
    const known = await (await fetch(`${shop.url}/login?error=account_not_linked`)).text();
    expect(known).toContain("Google did not confirm this e-mail address");
  });

  it("greets people in the confirmation e-mail with a plain first name only", async () => {
    const email = uniqueEmail("greeting");
    const response = await post(
      proxied,
      "/register",
      form({
        firstName: "Visit www.evil.example",
        lastName: "Now",
        dateOfBirth: "1990-01-01",
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
      { "X-Forwarded-For": nextClient() },
    );
    expect(response.status).toBe(200);
    const mail = await eventually(() =>
      smtp.received.find((message) => JSON.stringify(message.to).includes(email)),
    );
    expect(mail.html).toContain("Welcome, Visit!");
    expect(`${mail.html} ${mail.text}`).not.toContain("evil.example");

    const link = await post(
      proxied,
      "/register",
      form({
        firstName: "https://evil.example",
        lastName: "Now",
        dateOfBirth: "1990-01-01",
        email: uniqueEmail("greeting-link"),
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
      { "X-Forwarded-For": nextClient() },
    );
    expect(link.status).toBe(400);
  });

  it("serves the development mailbox to this machine only", async () => {
    const local = await startServer({
      DATABASE_URL: databaseUrl,
      DATA_DIR: scratchDir,
      PORT: "0",
      SEED_DEMO: "false",
      TRUST_PROXY: "loopback",
    });
    try {
      expect((await fetch(`${local.url}/dev/mailbox`)).status).toBe(200);
      const remote = await fetch(`${local.url}/dev/mailbox`, {
        headers: { "X-Forwarded-For": "203.0.113.9" },
      });
      expect(remote.status).toBe(404);
    } finally {
      await local.stop();
    }
    const open = await startServer({
      DATABASE_URL: databaseUrl,
      DATA_DIR: scratchDir,
      PORT: "0",
      SEED_DEMO: "false",
      HOST: "0.0.0.0",
    });
    try {
      expect(open.output()).toContain("answers only on this machine");
    } finally {
      await open.stop();
    }
  });

  it("sends Strict-Transport-Security in production over https only", async () => {
    expect(
      (await fetch(`${shop.url}/healthz`)).headers.get("strict-transport-security"),
    ).toBeNull();
    const production = await startServer({
      APP_ENV: "production",
      DATABASE_URL: databaseUrl,
      DATA_DIR: scratchDir,
      PORT: "0",
      SEED_DEMO: "false",
      PUBLIC_URL: "https://shop.example",
      AUTH_SECRET: "a-production-secret-of-at-least-32-characters",
      SMTP_URL: smtp.url,
      STRIPE_SECRET_KEY: "sk_test_hardening",
      STRIPE_WEBHOOK_SECRET: "whsec_hardening",
    });
    try {
      const hsts = (await fetch(`${production.url}/healthz`)).headers.get(
        "strict-transport-security",
      );
      expect(Number(hsts?.match(/max-age=(\d+)/)?.[1])).toBeGreaterThanOrEqual(31_536_000);

      // Absolute addresses (canonical, og:image, JSON-LD, sitemap, robots) come from
      // PUBLIC_URL, never from Host or X-Forwarded-Host: these answers are cacheable.
      const headers = { Host: "evil.example", "X-Forwarded-Host": "evil.example" };
      for (const pathname of ["/movies/1", "/sitemap.xml", "/robots.txt"]) {
        const body = await rawGet(production, pathname, headers);
        expect(body, pathname).not.toContain("evil.example");
        expect(body, pathname).toContain("https://shop.example/");
      }
    } finally {
      await production.stop();
    }
  });
});

describe("session tokens", () => {
  it("are never handed to scripts on the page: only the HttpOnly cookie carries them", async () => {
    const email = await confirmedAccount("tokens");
    const signIn = await fetch(`${proxied.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: proxied.url,
        "X-Forwarded-For": nextClient(),
      },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = cookiesOf(signIn);
    const token = /shop\.session_token=([^;.]+)/.exec(cookie)![1]!;
    expect(await signIn.text()).not.toContain(token);

    const session = await fetch(`${proxied.url}/api/auth/get-session`, {
      headers: { Cookie: cookie },
    });
    const body = await session.text();
    expect(body).toContain(email);
    expect(body).not.toContain(token);
    expect(body).not.toContain('"token"');

    for (const pathname of ["/api/auth/list-sessions", "/api/auth/admin/list-user-sessions"]) {
      const listed = await fetch(`${proxied.url}${pathname}`, { headers: { Cookie: cookie } });
      expect(listed.status, pathname).toBe(404);
      expect(await listed.text()).not.toContain(token);
    }
  });
});
