import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDatabase } from "#tests/support/empty-database.ts";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";
import { CATALOGUE_CHECK_MS, watchCatalogue } from "./page-cache.ts";

// Two real server processes on one database, each with its own page cache (the production
// build must exist: `npm run build`).

const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-page-cache-"));
const { url: databaseUrl } = emptyDatabase("page_cache");
const shopDb = new pg.Client(databaseUrl);
const PASSWORD = "Cache-Checker-Pass-9";
let first: RunningServer;
let second: RunningServer;

beforeAll(async () => {
  const env = { DATA_DIR: scratchDir, DATABASE_URL: databaseUrl, PORT: "0" };
  first = await startServer({ ...env, SEED_DEMO: "true" });
  second = await startServer({ ...env, SEED_DEMO: "false" });
  await shopDb.connect();
});

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await shopDb.end();
  fs.rmSync(scratchDir, { recursive: true, force: true });
});

async function page(server: RunningServer, pathname: string, cookie?: string) {
  const response = await fetch(`${server.url}${pathname}`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
  return {
    status: response.status,
    cache: response.headers.get("X-Page-Cache"),
    setCookie: response.headers.getSetCookie(),
    body: await response.text(),
  };
}

/**
 * A process notices a change of the catalogue by the database's notification, or at the latest
 * by the check its listener makes every CATALOGUE_CHECK_MS; a page is kept as soon as it has
 * been compressed. Waiting three times that check for either means it never happens: how soon
 * changes show is not these tests' to say (the notification alone is tested at the end).
 */
const WAIT_MS = 3 * CATALOGUE_CHECK_MS;

/** Looks again until `check` finds what it looks for. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Asks until the page is served from the cache (it is kept once it has been compressed). */
function cached(server: RunningServer, pathname: string, cookie?: string) {
  return eventually(`${pathname} to come from the cache`, async () => {
    const answer = await page(server, pathname, cookie);
    return answer.cache === "hit" ? answer : undefined;
  });
}

/** Asks until the page shows `text`. */
function showing(server: RunningServer, pathname: string, text: string) {
  return eventually(`${pathname} to show "${text}"`, async () => {
    const answer = await page(server, pathname);
    return answer.body.includes(text) ? answer : undefined;
  });
}

function cookiesOf(response: Response) {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function post(server: RunningServer, pathname: string, body: Record<string, string>) {
  return fetch(`${server.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: new URLSearchParams(body).toString(),
  });
}

/** Registers a customer (born 1980), confirms the address and signs in: the session cookie. */
async function signIn(firstName: string, email: string) {
  await post(first, "/register", {
    firstName,
    lastName: "Cachetest",
    dateOfBirth: "1980-01-01",
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  await shopDb.query("update users set email_verified = true where email = $1", [email]);
  const login = await post(first, "/login", { intent: "login", email, password: PASSWORD });
  expect(login.status).toBe(302);
  const session = cookiesOf(login);
  expect(session).toMatch(/session_token=/);
  return session;
}

describe("kept pages across server processes", () => {
  it("show a catalogue change made anywhere on every process", async () => {
    const {
      rows: [title],
    } = await shopDb.query<{ id: number; title: string }>(
      "select reg_serial_no as id, title from regular_titles order by reg_serial_no limit 1",
    );
    const pathname = `/movies/${title!.id}`;
    for (const server of [first, second]) {
      expect((await cached(server, pathname)).body).toContain(title!.title);
      await cached(server, "/movies");
    }

    // Changed by something other than either process (psql, an import, a seed).
    const renamed = `Renamed ${Date.now()}`;
    await shopDb.query("update regular_titles set title = $2 where reg_serial_no = $1", [
      title!.id,
      renamed,
    ]);
    for (const server of [first, second]) {
      for (const shown of [pathname, "/movies"]) await showing(server, shown, renamed);
    }
  });

  it("are dropped by a stock change only when what the pages say about stock changes", async () => {
    const listener = new pg.Client(databaseUrl);
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (message) => heard.push(message.channel));
    await listener.query("listen catalogue_changed");
    await listener.query("listen test_probe");
    /** Notifications arrive in commit order: once the probe is heard, the change's would be. */
    const notified = async (change: () => Promise<unknown>) => {
      heard.length = 0;
      await change();
      await listener.query("notify test_probe");
      while (!heard.includes("test_probe")) await new Promise((resolve) => setTimeout(resolve, 5));
      return heard.includes("catalogue_changed");
    };
    const {
      rows: [title],
    } = await shopDb.query<{ id: number }>(
      "select reg_serial_no as id from regular_titles order by reg_serial_no desc limit 1",
    );
    const setStock = (quantity: number) =>
      shopDb.query("update regular_titles set qty_to_list = $2 where reg_serial_no = $1", [
        title!.id,
        quantity,
      ]);
    try {
      await notified(() => setStock(50));
      // Plenty left either way: every page reads the same.
      expect(await notified(() => setStock(49))).toBe(false);
      expect(
        await notified(() =>
          shopDb.query(
            "update regular_titles set qty_to_list = qty_to_list - 1, updated_at = now() where reg_serial_no = $1",
            [title!.id],
          ),
        ),
      ).toBe(false);
      // Down to the last few, or a price change: pages change.
      expect(await notified(() => setStock(3))).toBe(true);
      expect(await notified(() => setStock(0))).toBe(true);
      expect(await notified(() => setStock(10))).toBe(true);
      expect(
        await notified(() =>
          shopDb.query(
            "update regular_titles set current_price_cents = current_price_cents + 1 where reg_serial_no = $1",
            [title!.id],
          ),
        ),
      ).toBe(true);

      const pathname = `/movies/${title!.id}`;
      await cached(first, pathname);
      await setStock(2);
      await showing(first, pathname, "Only 2 left");
    } finally {
      await listener.end();
    }
  });

  it("keep the pages that do not show a title when only its stock changes", async () => {
    const {
      rows: [title],
    } = await shopDb.query<{ id: number }>(
      "select reg_serial_no as id from regular_titles order by reg_serial_no limit 1",
    );
    const setStock = (quantity: number) =>
      shopDb.query("update regular_titles set qty_to_list = $2 where reg_serial_no = $1", [
        title!.id,
        quantity,
      ]);
    await setStock(20);
    const pathname = `/movies/${title!.id}`;
    // The first list page shows the title; the third and /about do not.
    const others = ["/movies?page=3", "/about"];
    for (const shown of [pathname, "/movies", ...others]) await cached(first, shown);

    await setStock(1);
    await showing(first, pathname, "Only 1 left");
    expect((await page(first, "/movies")).cache).toBe("miss");
    // Kept: dropped by the notification, which names the title (a change noticed by the
    // periodic check alone drops every page).
    for (const shown of others) expect((await page(first, shown)).cache, shown).toBe("hit");
  });

  it("never give a signed-in page to anyone else, nor a visitor's page to someone signed in", async () => {
    const email = `cache-${process.pid}@example.test`;
    const session = await signIn("Zebulon", email);

    // Signed in first, on a page nobody has asked for yet: served fresh, and not kept.
    const mine = await page(first, "/movies?page=2", session);
    expect(mine.body).toContain("Zebulon");
    expect(mine.cache).toBeNull();
    const visitor = await page(first, "/movies?page=2");
    expect(visitor.cache).toBe("miss");
    expect(visitor.body).not.toContain("Zebulon");

    // Once kept, the page still never reaches the signed-in customer, and carries no cookie.
    const kept = await cached(first, "/movies?page=2");
    expect(kept.body).not.toContain("Zebulon");
    expect(kept.body).not.toContain(email);
    expect(kept.setCookie).toEqual([]);
    const stillMine = await page(first, "/movies?page=2", session);
    expect(stillMine.cache).toBeNull();
    expect(stillMine.body).toContain("Zebulon");
  });

  it("keep the adult catalogue for visitors past the age gate only", async () => {
    const confirmed = await post(first, "/age-check", { returnTo: "/adult-movies" });
    expect(confirmed.status).toBe(302);
    const ageCookie = cookiesOf(confirmed);
    // Someone without the gate's cookie first: the gate answers, and that is not kept.
    const gate = await fetch(`${first.url}/adult-movies`, { redirect: "manual" });
    expect(gate.headers.get("Location")).toMatch(/^\/age-check\?returnTo=/);
    const adult = await page(first, "/adult-movies", ageCookie);
    expect(adult.status).toBe(200);
    expect(adult.body).toContain("Adult Titles");
    const again = await cached(first, "/adult-movies", ageCookie);
    expect(again.body).toContain("Adult Titles");
    // Once kept, a visitor without the cookie, or with a cookie that does not say yes, still
    // gets the gate; a signed-in visitor is never served from the cache.
    for (const cookie of [undefined, "age_verified=Im5vIg%3D%3D"]) {
      const refused = await fetch(`${first.url}/adult-movies`, {
        redirect: "manual",
        headers: cookie ? { Cookie: cookie } : {},
      });
      expect(refused.status, cookie).toBe(302);
      expect(refused.headers.get("Location")).toMatch(/^\/age-check/);
    }
    const session = await signIn("Yolanda", `gate-${process.pid}@example.test`);
    const mine = await page(first, "/adult-movies", `${ageCookie}; ${session}`);
    expect(mine.cache).toBeNull();
    expect(mine.body).toContain("Yolanda");
  });

  it("never keep pages that depend on the visitor", async () => {
    for (const personal of ["/cart", "/login", "/account"]) {
      await page(first, personal);
      expect((await page(first, personal)).cache, personal).not.toBe("hit");
    }
  });
});

describe("remembered answers", () => {
  it("forget a search text without suggestions once the catalogue changes", async () => {
    // Signed in, so the page cache stays out of it and the answer comes from the catalogue.
    const session = await signIn("Quentin", `suggest-${process.pid}@example.test`);
    const suggestions = async () =>
      JSON.parse((await page(second, "/api/search/suggestions?query=vrqzmkx", session)).body)
        .suggestions as { title: string }[];
    expect(await suggestions()).toEqual([]);
    expect(await suggestions()).toEqual([]);

    await shopDb.query(
      "insert into regular_titles (product_id, title, disc, current_price_cents) values ('P-vrq', 'Vrqzmkx Returns', 'DVD', 900)",
    );
    const found = await eventually("the new title to be suggested", async () => {
      const titles = await suggestions();
      return titles.length > 0 ? titles : undefined;
    });
    expect(found.map((item) => item.title)).toEqual(["Vrqzmkx Returns"]);
  });
});

describe("the catalogue watch", () => {
  it("hears each change from the database's notification, not only from its periodic check", async () => {
    const {
      rows: [title],
    } = await shopDb.query<{ id: number }>(
      `update regular_titles set qty_to_list = 50 where reg_serial_no = (select reg_serial_no from regular_titles order by 1 offset 1 limit 1)
       returning reg_serial_no as id`,
    );
    const heard: (string[] | undefined)[] = [];
    let listening = false;
    // Checking once a day: within this test, only a notification can tell it of a change.
    const watch = watchCatalogue(
      databaseUrl,
      (titles) => heard.push(titles),
      { warn: () => {} },
      86_400_000,
      () => (listening = true),
    );
    try {
      await eventually("the watch to listen", async () => (listening ? true : undefined));
      // A change that may show anywhere: everything is dropped.
      await shopDb.query(
        "update regular_titles set current_price_cents = current_price_cents + 1 where reg_serial_no = $1",
        [title!.id],
      );
      await eventually("the price change", async () => (heard.length >= 1 ? true : undefined));
      expect(heard).toEqual([undefined]);
      // Sold out: a change of stock alone, naming its title.
      await shopDb.query("update regular_titles set qty_to_list = 0 where reg_serial_no = $1", [
        title!.id,
      ]);
      await eventually("the stock change", async () => (heard.length >= 2 ? true : undefined));
      expect(heard[1]).toEqual([`regular:${title!.id}`]);
    } finally {
      await watch.stop();
    }
  });
});
