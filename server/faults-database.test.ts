import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type Answer,
  customer,
  PAGE_ANSWER_BOUND_MS,
  pauseDatabase,
  pay,
  postmasterPid,
  removeScratchDirs,
  type Shop,
  startShop,
  stockLedger,
  stopShop,
  timed,
  until,
} from "#tests/support/faults.ts";

// The shop's embedded PostgreSQL paused or stopped under it (tests/support/faults.ts starts each
// shop as a real process, with short database timeouts). The payment provider, the mail server
// and the shop itself failing are in faults.test.ts: apart, the two files run side by side.

afterAll(removeScratchDirs);

describe("the embedded database paused (SIGSTOP) for 10 s under load", () => {
  let shop: Shop | undefined;
  afterAll(() => stopShop(shop), 30_000);

  it("answers 503 within the timeout meanwhile, never 500, and recovers within 5 s", async () => {
    // No page cache: every page reads the database.
    shop = await startShop({ PAGE_CACHE_ENTRIES: "0" });
    const s = shop;
    const buyers = await Promise.all([customer(s, "buyer-a"), customer(s, "buyer-b")]);
    const { rows: titles } = await s.db.query<{ serial: number }>(
      "select reg_serial_no as serial from regular_titles where qty_to_list >= 20 order by 1 limit 2",
    );
    const serials = titles.map((title) => title.serial);
    const before = await stockLedger(s.db, serials);

    const answers: Answer[] = [];
    const sessions: string[] = [];
    let loading = true;
    const browse = async (worker: number) => {
      for (let i = 0; loading; i++) {
        const pathname = [
          `/movies?page=${(i % 5) + 1}`,
          `/movies/${serials[i % serials.length]}`,
          "/",
          `/search?q=the&page=${(i % 3) + 1}`,
        ][(i + worker) % 4]!;
        answers.push(await timed("page", () => fetch(`${s.url}${pathname}`)));
      }
    };
    const buy = async (buyer: { cookie: string }, serial: number) => {
      while (loading) {
        const at = Date.now();
        const response = await pay(s, buyer.cookie, serial);
        const location = response.headers.get("location") ?? "";
        answers.push({
          kind: "checkout",
          status: response.status,
          ms: Date.now() - at,
          at,
          body: await response.text(),
        });
        const session = /\/checkout\/test-payment\/([^/?]+)/.exec(location)?.[1];
        if (session) sessions.push(session);
      }
    };
    const load = Promise.all([
      browse(0),
      browse(1),
      browse(2),
      buy(buyers[0]!, serials[0]!),
      buy(buyers[1]!, serials[1]!),
    ]);

    await new Promise((resolve) => setTimeout(resolve, 1500));
    const pausedAt = Date.now();
    const resume = pauseDatabase(s.dataDir);
    let resumedAt = 0;
    let endpoint: Answer | undefined;
    try {
      await new Promise((resolve) => setTimeout(resolve, 4000));
      // An endpoint answers JSON meanwhile.
      endpoint = await timed("endpoint", () =>
        fetch(`${s.url}/api/search/suggestions?query=godfather`),
      );
      await new Promise((resolve) => setTimeout(resolve, pausedAt + 10_000 - Date.now()));
    } finally {
      resume();
      resumedAt = Date.now();
    }
    // Recovery: a page asked for after the database came back answers normally.
    await until(
      "a page to answer 200 again",
      async () => ((await fetch(`${s.url}/movies?page=7`)).status === 200 ? true : undefined),
      10_000,
    );
    const recoveredMs = Date.now() - resumedAt;
    await new Promise((resolve) => setTimeout(resolve, 500));
    loading = false;
    await load;

    const duringPause = answers.filter((a) => a.at >= pausedAt && a.at < resumedAt);
    const pages = duringPause.filter((a) => a.kind === "page");
    const unavailable = pages.filter((a) => a.status === 503);
    const firstUnavailable = Math.min(
      ...answers.filter((a) => a.status === 503).map((a) => a.at + a.ms),
    );
    console.info(
      `paused 10 s: ${answers.length} answers, ${pages.length} pages asked during the pause ` +
        `(${unavailable.length} × 503, slowest ${Math.max(...pages.map((a) => a.ms))} ms), ` +
        `first 503 ${firstUnavailable - pausedAt} ms after the pause, ` +
        `200 again ${recoveredMs} ms after it ended`,
    );

    expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable[0]!.body).toContain("We could not show this page right now");
    expect(pages.every((a) => a.ms <= PAGE_ANSWER_BOUND_MS)).toBe(true);
    expect(
      answers.filter((a) => a.kind === "checkout").every((a) => [302, 503].includes(a.status)),
    ).toBe(true);
    expect(endpoint!.status).toBe(503);
    expect(JSON.parse(endpoint!.body)).toEqual({ error: expect.stringMatching(/try again/) });
    expect(endpoint!.ms).toBeLessThanOrEqual(PAGE_ANSWER_BOUND_MS);
    expect(recoveredMs).toBeLessThan(5000);
    expect(s.child.exitCode).toBeNull();

    // Every checkout that went to its payment page has its one order; stock adds up.
    const { rows } = await s.db.query<{ session: string; orders: number }>(
      `select s as session, (select count(*) from orders where payment_session_id = s)::int as orders
         from unnest($1::text[]) s`,
      [sessions],
    );
    expect(rows.filter((row) => row.orders !== 1)).toEqual([]);
    const after = await stockLedger(s.db, serials);
    expect(after.map((row) => row.left + row.held)).toEqual(
      before.map((row) => row.left + row.held),
    );
  }, 90_000);
});

describe("the embedded database stopped (fast shutdown, as after a crash)", () => {
  const shops: Shop[] = [];
  afterAll(() => Promise.all(shops.map(stopShop)), 30_000);

  it("is started again by the shop, which answers normally within 5 s", async () => {
    const s = await startShop({ PAGE_CACHE_ENTRIES: "0" });
    shops.push(s);
    await s.db.end();
    expect((await fetch(`${s.url}/movies?page=2`)).status).toBe(200);

    const stoppedAt = Date.now();
    // SIGINT is PostgreSQL's fast shutdown: sessions cut off, the server exits.
    process.kill(postmasterPid(s.dataDir), "SIGINT");
    const statuses = new Set<number>();
    await until(
      "the shop to answer 200 again",
      async () => {
        const response = await fetch(`${s.url}/movies?page=3`);
        statuses.add(response.status);
        return response.status === 200 && Date.now() - stoppedAt > 100 ? true : undefined;
      },
      15_000,
      () =>
        `answers: ${[...statuses].join(", ")}; exit code ${s.child.exitCode}; the shop said:\n${s.output().slice(-4000)}`,
    );
    const recoveredMs = Date.now() - stoppedAt;
    console.info(`stopped: answers ${[...statuses].join(", ")}; 200 again after ${recoveredMs} ms`);

    expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(recoveredMs).toBeLessThan(5000);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect(s.output()).toContain("embedded PostgreSQL stopped unexpectedly");
    expect(s.output()).toContain("embedded PostgreSQL started again");
    expect(s.child.exitCode).toBeNull();
  }, 60_000);

  it("exits with a clear message when it cannot be started again", async () => {
    const s = await startShop({ PAGE_CACHE_ENTRIES: "0" });
    shops.push(s);
    await s.db.end();
    // The running server has read its configuration; a new one cannot start without it.
    const config = path.join(s.dataDir, "postgres/postgresql.conf");
    fs.renameSync(config, `${config}.away`);
    process.kill(postmasterPid(s.dataDir), "SIGINT");

    const code = await s.exited;
    expect(code).toBe(1);
    expect(s.output()).toContain(
      "The embedded PostgreSQL server stopped and could not be started again",
    );
    // With what PostgreSQL said, so that the operator knows why.
    expect(s.output()).toContain("could not access the server configuration file");
  }, 60_000);
});
