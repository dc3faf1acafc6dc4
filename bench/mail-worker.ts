// The mail worker alone, as the shop's server runs it (server/mail.ts), in a process of its own
// that bench/mail.ts can kill. Needs DATABASE_URL and SMTP_URL; SIGTERM stops it gracefully.
import { parseEnv } from "#app/lib/env.server.ts";
import { startMail } from "#server/mail.ts";

const mail = await startMail(parseEnv(process.env));
process.once("SIGTERM", () => {
  void mail.stop().then(() => process.exit(0));
});
process.send?.("ready");
