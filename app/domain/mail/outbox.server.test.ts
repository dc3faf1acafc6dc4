import net from "node:net";
import type pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase } from "#app/db/client.server.ts";
import { resetPasswordMessage } from "#app/emails/account-emails.ts";
import { startSmtpSink } from "#tests/support/smtp-sink.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import type { OutgoingMail } from "#app/emails/outgoing-mail.ts";
import {
  MAIL_QUEUE,
  queueMail,
  startMailWorker,
  startOutbox,
  stopOutbox,
} from "./outbox.server.ts";
import { createMailTransport, type MailTransport } from "./transport.server.ts";
import { eventually } from "#tests/support/eventually.ts";

// A database of this file's own: its mail workers take every message of the queue they serve,
// and in the shared database that is other test files' mail too (sent, or held, by a test here).
const scratch = scratchDatabase();

const FAST_RETRY = { retryLimit: 20, retryDelay: 1, retryDelayMax: 1 };
const FAST_POLLING = { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 0.5 };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function transportFor(smtpUrl: string) {
  const transport = createMailTransport({
    SMTP_URL: smtpUrl,
    MAIL_FROM: "Reel & Repair <shop@example.test>",
    APP_ENV: "local",
    DATA_DIR: "/nonexistent",
  });
  cleanups.push(async () => transport.close());
  return transport;
}

/** A TCP relay in front of the SMTP server that counts the connections open at once. */
async function connectionCounter(targetPort: number) {
  let open = 0;
  let mostAtOnce = 0;
  const server = net.createServer((client) => {
    open++;
    mostAtOnce = Math.max(mostAtOnce, open);
    const upstream = net.connect(targetPort, "127.0.0.1");
    // SMTP is a conversation of short lines: without this, every relayed reply waits on Nagle.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.once("close", () => {
      open--;
      upstream.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  const { port } = server.address() as net.AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mostAtOnce: () => mostAtOnce };
}

/** The states of the queued messages whose recipients start with `prefix`. */
async function jobStates(pool: pg.Pool, prefix: string) {
  const { rows } = await pool.query<{ to: string; state: string }>(
    "select data->>'to' as to, state from pgboss.job where name = $1 and data->>'to' like $2",
    [MAIL_QUEUE, `${prefix}-%`],
  );
  return new Map(rows.map((row) => [row.to, row.state]));
}

/** True once all `count` messages are recorded as sent: none is left to be sent (again). */
async function allCompleted(pool: pg.Pool, prefix: string, count: number) {
  const states = [...(await jobStates(pool, prefix)).values()];
  return states.length === count && states.every((state) => state === "completed")
    ? true
    : undefined;
}

function recipientsOf(received: { to?: unknown }[]) {
  return received.map((mail) => JSON.stringify(mail.to).match(/[\w.+-]+@example\.test/)?.[0]);
}

function messagesTo(prefix: string, count: number): OutgoingMail[] {
  return Array.from({ length: count }, (_, i) => ({
    to: `${prefix}-${i}@example.test`,
    subject: `Message ${i}`,
    html: `<p>${i}</p>`,
    text: `${i}`,
  }));
}

describe("outgoing mail", () => {
  it("queues while the mail server is down, without waiting for it, and delivers when it is back", async () => {
    const port = await unusedPort();
    const { pool } = createDatabase(scratch.url(), 1);
    cleanups.push(() => pool.end());
    const boss = await startOutbox(scratch.url(), { retry: FAST_RETRY, onError: () => {} });
    cleanups.push(() => stopOutbox(boss));
    const transport = transportFor(`smtp://127.0.0.1:${port}`);
    await startMailWorker(boss, transport, FAST_POLLING);

    const prefix = `down-${Date.now()}`;
    const to = `${prefix}-0@example.test`;
    // Queueing writes the message down and returns: it is not sent yet, nor could it be.
    await queueMail({ to, ...resetPasswordMessage({ name: "Ada", url: "http://shop.test/r/1" }) });
    expect((await jobStates(pool, prefix)).get(to)).toMatch(/^(created|active|retry)$/);

    // A few attempts fail against the closed port before the server starts.
    await eventually(async () => {
      const { rows } = await pool.query<{ tries: number }>(
        "select retry_count as tries from pgboss.job where name = $1 and data->>'to' = $2",
        [MAIL_QUEUE, to],
      );
      return rows[0]!.tries >= 2 ? true : undefined;
    });
    const sink = await startSmtpSink(port);
    // Closed last, after the transport's pooled connections (it waits for its clients to leave).
    cleanups.unshift(sink.close);

    const mail = await eventually(() =>
      sink.received.find((m) => m.to && JSON.stringify(m.to).includes(to)),
    );
    expect(mail.subject).toBe("Reset your Reel & Repair password");
    expect(mail.from?.text).toContain("shop@example.test");
    expect(mail.text).toContain("http://shop.test/r/1");
    expect(mail.html).toContain("1201 W Division St");
    expect(sink.received.filter((m) => JSON.stringify(m.to).includes(to))).toHaveLength(1);
  });

  it("keeps queued mail across a restart of the queue", async () => {
    const sink = await startSmtpSink();
    cleanups.push(sink.close);
    const to = `restart-${Date.now()}@example.test`;

    // Queue with nobody working, then stop: the message lives only in PostgreSQL.
    const first = await startOutbox(scratch.url(), { retry: FAST_RETRY });
    await queueMail({ to, subject: "Kept", html: "<p>kept</p>", text: "kept" });
    await stopOutbox(first);

    const second = await startOutbox(scratch.url(), { retry: FAST_RETRY });
    cleanups.push(() => stopOutbox(second));
    await startMailWorker(second, transportFor(sink.url), FAST_POLLING);
    const mail = await eventually(() =>
      sink.received.find((m) => JSON.stringify(m.to).includes(to)),
    );
    expect(mail.subject).toBe("Kept");
  });

  it("delivers a burst over several pooled connections at once, each message exactly once", async () => {
    const sink = await startSmtpSink();
    cleanups.push(sink.close);
    const relay = await connectionCounter(sink.port);
    const { pool } = createDatabase(scratch.url(), 1);
    cleanups.push(() => pool.end());
    const boss = await startOutbox(scratch.url(), { retry: FAST_RETRY });
    cleanups.push(() => stopOutbox(boss));
    const prefix = `burst-${Date.now()}`;
    const burst = messagesTo(prefix, 200);
    await Promise.all(burst.map((mail) => queueMail(mail)));

    await startMailWorker(boss, transportFor(relay.url), FAST_POLLING);
    await eventually(() => allCompleted(pool, prefix, burst.length));
    const ours = sink.received.filter((m) => JSON.stringify(m.to).includes(prefix));

    expect(recipientsOf(ours).sort()).toEqual(burst.map((mail) => mail.to).sort());
    // A serial worker (or a transport without a pool) never has two connections open together;
    // the pool is bounded at five.
    expect(relay.mostAtOnce()).toBeGreaterThan(1);
    expect(relay.mostAtOnce()).toBeLessThanOrEqual(5);
    // Message-IDs come from the job ids: distinct, and on the sender's domain.
    const ids = ours.map((mail) => mail.messageId);
    expect(new Set(ids).size).toBe(burst.length);
    for (const id of ids) expect(id).toMatch(/^<[0-9a-f-]{36}@example\.test>$/);
  });

  it("retries a failed message alone, without resending the others fetched with it", async () => {
    const sink = await startSmtpSink();
    cleanups.push(sink.close);
    const { pool } = createDatabase(scratch.url(), 1);
    cleanups.push(() => pool.end());
    const boss = await startOutbox(scratch.url(), { retry: FAST_RETRY, onError: () => {} });
    cleanups.push(() => stopOutbox(boss));
    const prefix = `flaky-${Date.now()}`;
    const messages = messagesTo(prefix, 30);
    const flaky = messages[4]!.to;
    for (const mail of messages) await queueMail(mail);

    const smtp = transportFor(sink.url);
    const attempts = new Map<string, number>();
    const idsTried = new Map<string, Set<string | undefined>>();
    const failingOnce: MailTransport = {
      ...smtp,
      send: async (mail, options) => {
        attempts.set(mail.to, (attempts.get(mail.to) ?? 0) + 1);
        idsTried.set(mail.to, (idsTried.get(mail.to) ?? new Set()).add(options?.id));
        if (mail.to === flaky && attempts.get(mail.to) === 1) throw new Error("451 try again");
        await smtp.send(mail, options);
      },
    };
    await startMailWorker(boss, failingOnce, FAST_POLLING);
    await eventually(() => allCompleted(pool, prefix, messages.length));
    const ours = sink.received.filter((m) => JSON.stringify(m.to).includes(prefix));

    expect(recipientsOf(ours).sort()).toEqual(messages.map((mail) => mail.to).sort());
    expect(attempts.get(flaky)).toBe(2);
    expect(idsTried.get(flaky)?.size).toBe(1);
    for (const mail of messages) {
      if (mail.to !== flaky) expect(attempts.get(mail.to), mail.to).toBe(1);
    }
  });

  it("stops gracefully: messages being sent finish and are recorded, nothing new is fetched", async () => {
    const { pool } = createDatabase(scratch.url(), 1);
    cleanups.push(() => pool.end());
    const boss = await startOutbox(scratch.url(), { retry: FAST_RETRY });
    const prefix = `stop-${Date.now()}`;
    for (const mail of messagesTo(prefix, 5)) await queueMail(mail);

    const started: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: MailTransport = {
      kind: "smtp",
      maxConnections: 1,
      close: () => {},
      send: async (mail) => {
        started.push(mail.to);
        await released;
      },
    };
    await startMailWorker(boss, held, { concurrency: 2, ...FAST_POLLING });
    await eventually(() => (started.length === 2 ? true : undefined));
    const stopping = stopOutbox(boss);
    // The sends end once the stop has reached the worker (as with a SIGTERM mid-send).
    await eventually(() =>
      boss.getWipData().some((worker) => worker.state === "stopping") ? true : undefined,
    );
    release();
    await stopping;

    const states = await jobStates(pool, prefix);
    expect(started).toHaveLength(2);
    for (const to of started) expect(states.get(to)).toBe("completed");
    expect([...states.values()].filter((state) => state === "created")).toHaveLength(3);
    await pool.query("delete from pgboss.job where name = $1 and data->>'to' like $2", [
      MAIL_QUEUE,
      `${prefix}-%`,
    ]);
  });

  it("sends mail queued in a transaction only if the transaction commits", async () => {
    const sink = await startSmtpSink();
    cleanups.push(sink.close);
    const { db, pool } = createDatabase(scratch.url(), 2);
    cleanups.push(() => pool.end());
    const boss = await startOutbox(scratch.url(), { retry: FAST_RETRY });
    cleanups.push(() => stopOutbox(boss));
    const stamp = Date.now();
    const [rolledBack, committed] = [`rolled-back-${stamp}`, `committed-${stamp}`].map((name) => ({
      to: `${name}@example.test`,
      subject: name,
      html: `<p>${name}</p>`,
      text: name,
    }));

    await expect(
      db.transaction(async (tx) => {
        await queueMail(rolledBack!, { tx });
        tx.rollback();
      }),
    ).rejects.toThrow(/rollback/i);
    await db.transaction(async (tx) => {
      await queueMail(committed!, { tx });
    });

    await startMailWorker(boss, transportFor(sink.url), FAST_POLLING);
    await eventually(() => sink.received.find((m) => m.subject === committed!.subject));
    const { rows } = await pool.query(
      "select id from pgboss.job where name = $1 and data->>'to' = $2",
      [MAIL_QUEUE, rolledBack!.to],
    );
    expect(rows).toHaveLength(0);
    expect(sink.received.filter((m) => m.subject === rolledBack!.subject)).toHaveLength(0);
    expect(sink.received.filter((m) => m.subject === committed!.subject)).toHaveLength(1);
  });

  it("refuses to queue when the queue is not running", async () => {
    await expect(queueMail({ to: "a@b.test", subject: "x", html: "x", text: "x" })).rejects.toThrow(
      /not running/,
    );
  });
});
