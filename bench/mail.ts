// Throughput and crash safety of the mail outbox: npm run bench:mail [-- messages]
// Starts a throwaway PostgreSQL and a local SMTP server, queues the messages, and delivers them
// with the worker in a child process (bench/mail-worker.ts, the shop's own wiring), three times:
//   1. undisturbed: messages/s from the first delivery to the last;
//   2. the worker gets SIGTERM midway, a new one finishes: nothing lost, nothing sent twice;
//   3. the worker gets SIGKILL midway, a new one finishes: nothing lost; a message sent but not
//      yet recorded is sent again (at least once) with the same Message-ID.
// Exits 1 if a message is lost, sent twice after SIGTERM, or resent under another Message-ID.
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ParsedMail } from "mailparser";
import { PgBoss } from "pg-boss";
import { createDatabase } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { MAIL_QUEUE, queueMail, startOutbox, stopOutbox } from "#app/domain/mail/outbox.server.ts";
import { startEmbeddedPostgres } from "#server/embedded-postgres.ts";
import { startSmtpSink } from "#tests/support/smtp-sink.ts";

const total = Number(process.argv[2] ?? 1000);
// Midway, and in the middle of a batch of fetched messages.
const killAfter = Math.round(total * 0.3) + 5;
const workerScript = fileURLToPath(new URL("./mail-worker.ts", import.meta.url));
const MAIL_FROM = "Reel & Repair <shop@bench.example>";

type Kill = "SIGTERM" | "SIGKILL";
type RunResult = {
  name: string;
  deliveries: number;
  lost: number;
  duplicates: number;
  otherMessageId: number;
  firstToLastSeconds: number;
  totalSeconds: number;
};

/** Whether `check` came to hold in time (a condition looked at every 50 ms, not a fixed wait). */
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function startWorker(databaseUrl: string, smtpUrl: string): Promise<ChildProcess> {
  const child = fork(workerScript, {
    env: {
      ...process.env,
      APP_ENV: "local",
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtpUrl,
      MAIL_FROM,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", () => resolve(child));
    child.once("exit", (code, signal) => reject(new Error(`worker exited (${code ?? signal})`)));
  });
}

function exited(child: ChildProcess): Promise<string> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve(String(child.exitCode ?? child.signalCode));
  }
  return new Promise((resolve) =>
    child.once("exit", (code, signal) => resolve(String(code ?? signal))),
  );
}

/**
 * A relay in front of the SMTP server for the workers that get killed. A killed process's
 * connections end with a reset, which the test SMTP server (no error listener) does not survive;
 * the relay passes the end on as an orderly close.
 */
async function resetAbsorbingRelay(targetPort: number) {
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.end());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-mail-"));
// When run as root the server runs as a separate "postgres" user, which must reach the folder.
fs.chmodSync(dataDir, 0o755);
const database = await startEmbeddedPostgres(dataDir);
const { db, pool } = createDatabase(database.url, 2);
await runMigrations(db);
const boss = await startOutbox(database.url, { onWarning: () => {} });
// The queue's maintenance (which hands out again the messages of a worker that stopped
// heartbeating) normally runs every minute; every second here keeps the SIGKILL run short.
const supervisor = new PgBoss({
  connectionString: database.url,
  schema: "pgboss",
  max: 2,
  superviseIntervalSeconds: 1,
  monitorIntervalSeconds: 1,
});
supervisor.on("error", (error) => console.error(error));
await supervisor.start();

async function pendingJobs(): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    "select count(*)::int as count from pgboss.job where name = $1 and state in ('created', 'retry', 'active')",
    [MAIL_QUEUE],
  );
  return rows[0]!.count;
}

/** How many of the run's messages were handed out to a worker more than once. */
async function handedOutAgain(name: string): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    "select count(*)::int as count from pgboss.job where name = $1 and retry_count > 0 and data->>'subject' like $2",
    [MAIL_QUEUE, `%[${name}-%`],
  );
  return rows[0]!.count;
}

async function run(name: string, kill?: Kill): Promise<RunResult> {
  const received = new Map<string, string[]>();
  const times: number[] = [];
  let worker: ChildProcess | undefined;
  let killedAt = 0;
  const killWorker = () => {
    if (kill && worker && killedAt && worker.signalCode === null && !worker.killed) {
      worker.kill(kill);
    }
  };
  const sink = await startSmtpSink(0, (mail: ParsedMail) => {
    const marker = /\[(\S+)\]$/.exec(mail.subject ?? "")?.[1] ?? "?";
    times.push(performance.now());
    received.set(marker, [...(received.get(marker) ?? []), mail.messageId ?? ""]);
    // Killed the moment this message is in, before the SMTP server has acknowledged it (and
    // with others in flight): the worker cannot have recorded it as sent.
    if (kill && times.length === killAfter) {
      killedAt = times.length;
      killWorker();
    }
  });
  const markers = Array.from({ length: total }, (_, i) => `${name}-${i}`);
  for (let i = 0; i < total; i += 50) {
    await Promise.all(
      markers.slice(i, i + 50).map((marker) =>
        queueMail({
          to: `reader-${marker}@example.test`,
          subject: `Your order has shipped [${marker}]`,
          html: `<p>Order ${marker} is on its way.</p>`,
          text: `Order ${marker} is on its way.`,
        }),
      ),
    );
  }

  const relay = kill ? await resetAbsorbingRelay(sink.port) : undefined;
  const smtpUrl = relay?.url ?? sink.url;
  const started = performance.now();
  let note = "";
  let drained: boolean;
  let finished: number;
  try {
    worker = await startWorker(database.url, smtpUrl);
    if (kill) {
      await until(() => killedAt > 0);
      killWorker();
      const exit = await exited(worker);
      note = `${kill} at delivery ${killedAt}; worker exit: ${exit}, ${times.length} delivered by then`;
      worker = await startWorker(database.url, smtpUrl);
    }
    drained = await until(async () => received.size >= total && (await pendingJobs()) === 0);
    finished = performance.now();
  } finally {
    worker?.kill("SIGTERM");
    if (worker) await exited(worker);
    await relay?.close();
    await sink.close();
  }
  const notes = note ? [note] : [];
  if (!drained) notes.push(`TIMED OUT with ${await pendingJobs()} jobs pending`);
  const again = await handedOutAgain(name);
  if (again) notes.push(`${again} handed out again`);

  let lost = 0;
  let duplicates = 0;
  let otherMessageId = 0;
  for (const marker of markers) {
    const copies = received.get(marker) ?? [];
    if (copies.length === 0) lost++;
    duplicates += Math.max(0, copies.length - 1);
    if (new Set(copies).size > 1) otherMessageId++;
  }
  const result: RunResult = {
    name,
    deliveries: times.length,
    lost,
    duplicates,
    otherMessageId,
    firstToLastSeconds: (Math.max(...times) - Math.min(...times)) / 1000,
    totalSeconds: (finished - started) / 1000,
  };
  console.log(`${name}: done${notes.map((line) => `; ${line}`).join("")}`);
  return result;
}

let results: RunResult[];
try {
  console.log(`${total} messages per run, worker in a child process, ${os.cpus().length} CPUs`);
  results = [
    await run("undisturbed"),
    await run("SIGTERM", "SIGTERM"),
    await run("SIGKILL", "SIGKILL"),
  ];
} finally {
  await supervisor.stop({ graceful: false });
  await stopOutbox(boss);
  await pool.end();
  await database.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const rate = (r: RunResult) => (r.deliveries - 1) / r.firstToLastSeconds;
const columns = ["run", "delivered", "lost", "sent twice", "other Msg-ID", "drained s", "msg/s"];
console.log(`\n${columns.map((c, i) => (i ? c.padStart(13) : c.padEnd(12))).join("")}`);
for (const r of results) {
  const cells = [r.deliveries, r.lost, r.duplicates, r.otherMessageId, r.totalSeconds.toFixed(1)];
  cells.push(rate(r).toFixed(0));
  console.log(r.name.padEnd(12) + cells.map((cell) => String(cell).padStart(13)).join(""));
}
console.log(
  `\nthroughput: ${rate(results[0]!).toFixed(0)} messages/s, first to last delivery of the ` +
    "undisturbed run (the others include a restart, and after SIGKILL the heartbeat timeout)",
);
const failures = [
  ...results.filter((r) => r.lost > 0).map((r) => `${r.name}: ${r.lost} lost`),
  ...results
    .filter((r) => r.name === "SIGTERM" && r.duplicates > 0)
    .map((r) => `${r.name}: ${r.duplicates} sent twice after a graceful stop`),
  ...results
    .filter((r) => r.otherMessageId > 0)
    .map((r) => `${r.name}: ${r.otherMessageId} resent under another Message-ID`),
];
if (failures.length) {
  console.error(`\nFAILED: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("\nOK: nothing lost; nothing sent twice after SIGTERM; resends keep their Message-ID");
