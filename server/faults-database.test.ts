import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ANSWER_WITHIN_MS,
  type Answer,
  customer,
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
  browsingPath,
} from "#tests/support/faults.ts";

// The shop's embedded PostgreSQL paused or stopped under it (tests/support/faults.ts starts each
// shop as a real process, with short database timeouts). The payment provider, the mail server
// and the shop itself failing are in faults.test.ts: apart, the two files run side by side.

afterAll(removeScratchDirs);

describe("the embedded database paused (SIGSTOP) under load", () => {
  let shop: Shop | undefined;
  afterAll(() => stopShop(shop));

  it("answers 503 meanwhile without waiting for it, never 500, and normally once it is back", async () => {
    // No page cache: every page reads the database.
    shop = await startShop({ PAGE_CACHE_ENTRIES: "0" });
    const s = shop;
    const buyers = await Promise.all([customer(s, "buyer-a"), customer(s, "buyer-b")]);
    const { rows: titles } = await s.db.query<{ serial: number }>(
      "select reg_serial_no as serial from regular_titles where qty_to_list >= 20 order by 1 limit 2",
    );
    const serials = titles.map((title) => title.serial);
    const before = await stockLedger(s.db, serials);

    // Each answer with who asked and whether the database was paused when they asked: the test
    // tells what happened by the order of events, never by how long something took.
    type Asked = Answer & { by: string; paused: boolean };
    const answers: Asked[] = [];
    const sessions: string[] = [];
    let paused = false;
    let loading = true;
    const browse = async (worker: number) => {
      for (let i = 0; loading; i++) {
        const pathname = browsingPath(i, worker, serials);
        const asked = { by: `browser ${worker}`, paused };
        answers.push({ ...(await timed("page", () => fetch(`${s.url}${pathname}`))), ...asked });
      }
    };
    const buy = async (buyer: { cookie: string }, serial: number, by: string) => {
      while (loading) {
        const asked = { by, paused };
        const answer = await timed("checkout", () => pay(s, buyer.cookie, serial));
        answers.push({ ...answer, ...asked });
        const session = /\/checkout\/test-payment\/([^/?]+)/.exec(answer.location ?? "")?.[1];
        if (session) sessions.push(session);
      }
    };
    const everyone = ["browser 0", "browser 1", "browser 2", "buyer a", "buyer b"];
    const done = new Set<string>();
    const load = Promise.all(
      [
        browse(0),
        browse(1),
        browse(2),
        buy(buyers[0]!, serials[0]!, "buyer a"),
        buy(buyers[1]!, serials[1]!, "buyer b"),
      ].map((loop, index) => loop.finally(() => done.add(everyone[index]!))),
    );
    /** Whether each of `who` has `count` answers asked while paused (or not) with `status`. */
    const each = (who: string[], count: number, whilePaused: boolean, status: number) =>
      who.every(
        (by) =>
          answers.filter((a) => a.by === by && a.paused === whilePaused && a.status === status)
            .length >= count,
      )
        ? true
        : undefined;

    // Under way first: every browser has a page and every buyer a payment page (a healthy answer
    // has no timeout of its own: a minute without one is a hang).
    await until(
      "every browser and buyer to be answered",
      async () =>
        each(everyone.slice(0, 3), 1, false, 200) && each(everyone.slice(3), 1, false, 302),
      60_000,
    );

    const resume = pauseDatabase(s.dataDir);
    paused = true;
    let endpoint: Answer | undefined;
    let asking: Promise<unknown> | undefined;
    try {
      // Paused until every browser has had two pages asked meanwhile answered 503 (not only the
      // requests that were waiting when it froze) and every buyer one checkout: three answers
      // one after another at most, each bounded by the shop's timeouts.
      await until(
        "pages and checkouts asked during the pause to be answered 503",
        async () =>
          each(everyone.slice(0, 3), 2, true, 503) && each(everyone.slice(3), 1, true, 503),
        3 * ANSWER_WITHIN_MS,
      );
      // An endpoint answers JSON meanwhile.
      asking = timed("endpoint", () =>
        fetch(`${s.url}/api/search/suggestions?query=godfather`),
      ).then((answer) => (endpoint = answer));
      // Every request still on its way is answered before the database comes back: none waits
      // for it. Waiting longer than the shop's own timeouts allow (three times over) means one
      // hung.
      loading = false;
      let answered = false;
      void Promise.allSettled([load, asking]).then(() => (answered = true));
      await until(
        "every request asked during the pause to be answered while the database is still paused",
        async () => (answered ? true : undefined),
        ANSWER_WITHIN_MS,
        () =>
          `still waiting for: ${[
            ...everyone.filter((by) => !done.has(by)),
            ...(endpoint ? [] : ["the endpoint"]),
          ].join(", ")}`,
      );
    } finally {
      resume();
      paused = false;
    }
    await Promise.all([load, asking]);

    // Back: a page answers normally, and so does a checkout of each buyer.
    await until(
      "a page to answer 200 again",
      async () => ((await fetch(`${s.url}/movies?page=7`)).status === 200 ? true : undefined),
      ANSWER_WITHIN_MS,
    );
    for (const [index, buyer] of buyers.entries()) {
      const paid = await pay(s, buyer.cookie, serials[index]!);
      expect(paid.status).toBe(302);
      sessions.push(/\/checkout\/test-payment\/([^/?]+)/.exec(paid.headers.get("location")!)![1]!);
    }

    const duringPause = answers.filter((a) => a.paused);
    const pages = duringPause.filter((a) => a.kind === "page");
    const unavailable = pages.filter((a) => a.status === 503);
    console.info(
      `paused: ${pages.length} pages and ${duringPause.length - pages.length} checkouts asked ` +
        `meanwhile (${unavailable.length} pages answered 503), all answered before it resumed`,
    );

    expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    expect(unavailable[0]!.body).toContain("We could not show this page right now");
    expect(
      answers
        .filter((a) => a.kind === "checkout" && ![302, 503].includes(a.status))
        .map(
          (a) => `${a.status} ${a.paused ? "(asked while paused)" : ""}: ${a.body.slice(0, 300)}`,
        ),
    ).toEqual([]);
    expect(endpoint!.status).toBe(503);
    expect(JSON.parse(endpoint!.body)).toEqual({ error: expect.stringMatching(/try again/) });
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
  });
});

describe("the embedded database stopped (fast shutdown, as after a crash)", () => {
  const shops: Shop[] = [];
  afterAll(() => Promise.all(shops.map(stopShop)));

  it("is started again by the shop, which then answers normally", async () => {
    const s = await startShop({ PAGE_CACHE_ENTRIES: "0" });
    shops.push(s);
    await s.db.end();
    expect((await fetch(`${s.url}/movies?page=2`)).status).toBe(200);

    // SIGINT is PostgreSQL's fast shutdown: sessions cut off, the server exits.
    process.kill(postmasterPid(s.dataDir), "SIGINT");
    const statuses = new Set<number>();
    // A 200 counts once the shop has said it started the database again: not one answered before
    // the shutdown reached it. The shop gives up on its own after 5 attempts a second apart (and
    // exits, which the next test checks); a minute's wait only stops a hang.
    await until(
      "the shop to start the database again and answer 200",
      async () => {
        const restarted = s.output().includes("embedded PostgreSQL started again");
        const response = await fetch(`${s.url}/movies?page=3`);
        statuses.add(response.status);
        return response.status === 200 && restarted ? true : undefined;
      },
      60_000,
      () =>
        `answers: ${[...statuses].join(", ")}; exit code ${s.child.exitCode}; the shop said:\n${s.output().slice(-4000)}`,
    );
    console.info(`stopped: answers ${[...statuses].join(", ")}, then 200 once started again`);

    expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect(s.output()).toContain("embedded PostgreSQL stopped unexpectedly");
    expect(s.child.exitCode).toBeNull();
  });

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
  });
});
