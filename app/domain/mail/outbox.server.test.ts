import net from "node:net";
import { afterEach, describe, expect, inject, it } from "vitest";
import { resetPasswordMessage } from "#app/emails/account-emails.ts";
import { startSmtpSink } from "#tests/support/smtp-sink.ts";
import { queueMail, startMailWorker, startOutbox, stopOutbox } from "./outbox.server.ts";
import { createMailTransport } from "./transport.server.ts";

const FAST_RETRY = { retryLimit: 20, retryDelay: 1, retryDelayMax: 1 };
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

async function eventually<T>(check: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function transportFor(smtpUrl: string) {
  return createMailTransport({
    SMTP_URL: smtpUrl,
    MAIL_FROM: "Reel & Repair <shop@example.test>",
    APP_ENV: "local",
    DATA_DIR: "/nonexistent",
  });
}

describe("outgoing mail", () => {
  it("queues at once while the mail server is down, and delivers when it comes back", async () => {
    const port = await unusedPort();
    const boss = await startOutbox(inject("databaseUrl"), { retry: FAST_RETRY, onError: () => {} });
    cleanups.push(() => stopOutbox(boss));
    const transport = transportFor(`smtp://127.0.0.1:${port}`);
    await startMailWorker(boss, transport, { pollingIntervalSeconds: 0.5 });

    const started = Date.now();
    const to = `down-${Date.now()}@example.test`;
    await queueMail({ to, ...resetPasswordMessage({ name: "Ada", url: "http://shop.test/r/1" }) });
    expect(Date.now() - started).toBeLessThan(1000);

    // Let a few attempts fail against the closed port before the server starts.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const sink = await startSmtpSink(port);
    cleanups.push(sink.close);

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
    const first = await startOutbox(inject("databaseUrl"), { retry: FAST_RETRY });
    await queueMail({ to, subject: "Kept", html: "<p>kept</p>", text: "kept" });
    await stopOutbox(first);

    const second = await startOutbox(inject("databaseUrl"), { retry: FAST_RETRY });
    cleanups.push(() => stopOutbox(second));
    await startMailWorker(second, transportFor(sink.url), { pollingIntervalSeconds: 0.5 });
    const mail = await eventually(() =>
      sink.received.find((m) => JSON.stringify(m.to).includes(to)),
    );
    expect(mail.subject).toBe("Kept");
  });

  it("refuses to queue when the queue is not running", async () => {
    await expect(queueMail({ to: "a@b.test", subject: "x", html: "x", text: "x" })).rejects.toThrow(
      /not running/,
    );
  });
});
