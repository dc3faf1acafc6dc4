// Starts the shop for the browser tests (built first when its sources have changed): a fresh
// embedded database with the demo data, a real SMTP server whose messages are written to
// .tmp/e2e-mail for the tests to read, and a real OpenID Connect server standing in for Google.
import fs from "node:fs";
import path from "node:path";
import { buildIfStale } from "#server/build-stamp.ts";
import { removeDataDir } from "./data-dir.ts";
import { startFakeMaps } from "./fake-maps.ts";
import { startOidcServer } from "./oidc-server.ts";
import { startSmtpSink } from "./smtp-sink.ts";

const dataDir = path.resolve(".tmp/e2e-data");
const mailDir = path.resolve(".tmp/e2e-mail");
// A cluster kept out of the clone (root, in a folder closed to others) goes with its DATA_DIR.
removeDataDir(dataDir);
fs.rmSync(mailDir, { recursive: true, force: true });
fs.mkdirSync(mailDir, { recursive: true });

const smtp = await startSmtpSink(0, (mail) => {
  const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).map((a) => a?.text ?? "").join(",");
  const file = path.join(mailDir, `${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  // Written aside and renamed, so a test never reads half a message.
  fs.writeFileSync(
    `${file}.partial`,
    JSON.stringify({
      to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: Object.fromEntries(mail.headerLines.map((header) => [header.key, header.line])),
      attachments: mail.attachments.map((attachment) => ({
        filename: attachment.filename,
        contentType: attachment.contentType,
        content: attachment.content.toString("utf8"),
      })),
    }),
  );
  fs.renameSync(`${file}.partial`, file);
});

const port = process.env.PORT ?? "3111";
const oidc = await startOidcServer({
  id: "shop-e2e",
  secret: "shop-e2e-secret",
  redirectUri: `http://127.0.0.1:${port}/api/auth/callback/google`,
});
const maps = await startFakeMaps();
Object.assign(process.env, {
  GOOGLE_MAPS_API_KEY: "e2e-maps-key",
  GOOGLE_MAPS_SCRIPT_URL: maps.scriptUrl,
  DATA_DIR: dataDir,
  HOST: "127.0.0.1",
  // Browser tests play many clients from one machine: they state their address through
  // X-Forwarded-For, as a reverse proxy on this machine would.
  TRUST_PROXY: "loopback",
  // One social profile set, the others not: the footer links only the shop's own profiles.
  SHOP_INSTAGRAM_URL: "https://www.instagram.com/reelandrepair.example/",
  APP_ENV: "local",
  SEED_DEMO: "true",
  LOG_LEVEL: "warn",
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  SMTP_URL: smtp.url,
  GOOGLE_CLIENT_ID: "shop-e2e",
  GOOGLE_CLIENT_SECRET: "shop-e2e-secret",
  GOOGLE_ISSUER: oidc.issuer,
});
delete process.env.DATABASE_URL;
// `playwright test` run on its own tests the sources as they are now, as `npm start` serves them
// (`npm test` has built already, so this only checks the stamp).
if ((await buildIfStale()) !== 0) process.exit(1);
await import("../../server/index.ts");
