import { createServer, type Server } from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import express, { type Express, type RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import { getDb, getPool } from "#app/db/client.server.ts";
import { ageAudienceOf } from "#app/domain/age-gate/age-gate.server.ts";
import {
  catalogueChanged,
  stopWatchingCatalogueChanges,
  watchingCatalogueChanges,
} from "#app/domain/catalog/catalogue-changes.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { startAlertSender } from "#app/domain/alerts/alerts.server.ts";
import { startOrderJobs } from "#app/domain/orders/order-jobs.server.ts";
import { startRetentionJobs } from "#app/domain/retention/retention-jobs.server.ts";
import { CLIENT_IP_HEADER, isLoopback } from "#app/lib/client-ip.ts";
import { type Env, getEnv, publicUrl } from "#app/lib/env.server.ts";
import { type DatabaseHandle, prepareDatabase } from "./database.ts";
import { startMail } from "./mail.ts";
import { logger, routeConsoleToLogger } from "./logger.ts";
import { createObservability, requestIds } from "./observability.ts";
import { publicFileAddresses } from "./public-files.ts";
import { type CatalogueWatch, createPageCache, watchCatalogue } from "./page-cache.ts";
import { clientAddress, limitBodies, refuseControlCharacters } from "./request-guards.ts";
import { sameOriginOnly } from "./same-origin.ts";
import { COMPRESSION_THRESHOLD, sizeSmallAnswers } from "./small-answers.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What runs beside the HTTP server and is stopped with it. */
type Background = {
  database: DatabaseHandle;
  mail: Awaited<ReturnType<typeof startMail>>;
  stopAlerts: () => void;
  catalogueWatch?: CatalogueWatch;
};

async function main() {
  routeConsoleToLogger();
  const env = getEnv();
  const background = await startBackground(env);

  const app = express();
  guardEveryRequest(app, env);
  app.get("/healthz", answerHealthCheck);
  const build = await serveBuild(app, env);
  // Static files are answered above without a log line; everything else is logged and measured.
  const observability = createObservability({
    build: typeof build === "function" ? undefined : build,
    metricsToken: env.METRICS_TOKEN,
  });
  app.get("/metrics", observability.metricsEndpoint);
  app.use(observability.accessLog);
  if (env.APP_ENV !== "development") background.catalogueWatch = keepPages(app, env);
  app.use(
    createRequestHandler({
      build,
      mode: env.APP_ENV === "development" ? "development" : "production",
    }),
  );

  let server: Server;
  try {
    server = await listen(app, env);
  } catch (error) {
    background.stopAlerts();
    await stopBackground(background);
    throw error;
  }
  const address = server.address();
  const port = address && typeof address === "object" ? address.port : env.PORT;
  const metricsServer = env.METRICS_PORT
    ? await observability.listenForMetrics(env.HOST, env.METRICS_PORT)
    : undefined;
  if (metricsServer) logger.info(`Metrics at http://${env.HOST}:${env.METRICS_PORT}/metrics`);
  if (!env.SMTP_URL && !isLoopback(env.HOST === "localhost" ? "127.0.0.1" : env.HOST)) {
    logger.warn(
      `HOST is ${env.HOST}: the development mailbox (/dev/mailbox) answers only on this machine; set SMTP_URL to send e-mail for real.`,
    );
  }
  logger.info(`Shop ready at http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${port}`);

  const shutdown = shutdownGracefully(server, metricsServer, background);
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

/** The database, the mail queue and the shop's timed jobs, started before any request. */
async function startBackground(env: Env): Promise<Background> {
  const database = await prepareDatabase(env, (error) => {
    // Without its database the shop can only answer 503: better to stop, loudly, and let
    // whatever runs it (systemd, Docker, a person) start it again (docs/decisions/008).
    logger.fatal(
      { err: error },
      "The embedded PostgreSQL server stopped and could not be started again; the shop exits so that it can be restarted. See docs/operations.md.",
    );
    process.exit(1);
  });
  const mail = await startMail(env);
  await startOrderJobs(mail.queue, getDb(), (expired) =>
    logger.info({ orders: expired }, "unpaid orders expired, stock returned"),
  );
  // Personal data past its period (docs/security.md, "Retention") goes once an hour.
  await startRetentionJobs(mail.queue, getDb(), {
    log: (deleted) => {
      if (Object.values(deleted).some((count) => count > 0)) {
        logger.info({ deleted }, "personal data past its retention period deleted");
      }
    },
  });
  // Alerts the database made due (a title back in stock, a release) are mailed from here.
  const stopAlerts = startAlertSender(getDb(), {
    links: { publicUrl: publicUrl(env), secret: authSecret(env) },
    onError: (error) => logger.warn({ err: error }, "stock alerts could not be sent yet"),
  });
  return { database, mail, stopAlerts };
}

/** Stops what runs beside the server (alerts are stopped before), the database last. */
async function stopBackground(background: Background) {
  await background.catalogueWatch?.stop();
  stopWatchingCatalogueChanges();
  await background.mail.stop();
  await background.database.close();
}

/** Headers and guards every answer gets, before anything else looks at the request. */
function guardEveryRequest(app: Express, env: Env) {
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(requestIds);
  app.use(compression({ threshold: COMPRESSION_THRESHOLD }));
  app.use(sizeSmallAnswers);
  app.use((_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    next();
  });

  if (env.APP_ENV === "production" && env.PUBLIC_URL?.startsWith("https://")) {
    app.use((_req, res, next) => {
      // Two years, the usual preload value; see docs/operations.md before adding "preload".
      res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
      next();
    });
  }

  app.use(refuseControlCharacters);
  app.use(limitBodies());
  app.use(sameOriginOnly(env.PUBLIC_URL));
  // The client's address as Express works it out (honouring TRUST_PROXY), for rate limits and
  // the development mailbox; whatever a client sent under this name is replaced.
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = clientAddress(req);
    next();
  });
}

const answerHealthCheck: RequestHandler = async (_req, res) => {
  try {
    await Promise.race([
      getPool().query("select 1"),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timed out")), 2000)),
    ]);
    res.status(200).json({ status: "ok" });
  } catch (error) {
    logger.warn({ err: error }, "health check failed");
    res.status(503).json({ status: "unavailable" });
  }
};

/**
 * The app as built, with its static files answered in front of it; in development, Vite's
 * server builds it on each request.
 */
async function serveBuild(
  app: Express,
  env: Env,
): Promise<ServerBuild | (() => Promise<ServerBuild>)> {
  if (env.APP_ENV === "development") {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(devServer.middlewares);
    return () =>
      devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  }
  const client = path.join(root, "build/client");
  // Hashed file names never change content, so browsers and CDNs may keep them for a year.
  // The build wrote brotli and gzip copies of the text files; the smallest accepted is sent.
  const precompressed = (maxAge: string, immutable: boolean) => ({
    enableBrotli: true,
    orderPreference: ["br", "gzip"],
    index: false as const,
    serveStatic: { immutable, maxAge, index: false as const },
  });
  app.use("/assets", expressStaticGzip(path.join(client, "assets"), precompressed("1y", true)));
  // Only paths under the build's own public files are looked for on disk: a page or a poster
  // drawn or uploaded is not (a failed look-up costs file-system calls and an error).
  const publicFiles = expressStaticGzip(client, precompressed("1h", false));
  const isPublicFile = publicFileAddresses(client);
  app.use((req, res, next) => {
    if (!isPublicFile(req.path)) return next();
    publicFiles(req, res, next);
  });
  return (await import(path.join(root, "build/server/index.js"))) as ServerBuild;
}

/**
 * Kept pages, and the catalogue's remembered answers (catalogue-changes.server.ts), last
 * until the catalogue changes; a change of stock alone touches only the pages showing it.
 */
function keepPages(app: Express, env: Env): CatalogueWatch {
  const pageCache =
    env.PAGE_CACHE_ENTRIES > 0
      ? createPageCache({
          maxEntries: env.PAGE_CACHE_ENTRIES,
          audienceOf: (req) => ageAudienceOf(req.headers.cookie),
        })
      : undefined;
  const catalogueWatch = watchCatalogue(
    process.env.DATABASE_URL!,
    (titles) => {
      if (titles) return pageCache?.forget(titles);
      pageCache?.clear();
      catalogueChanged();
    },
    logger,
    undefined,
    watchingCatalogueChanges,
  );
  if (pageCache) app.use(pageCache.middleware);
  return catalogueWatch;
}

function listen(app: Express, env: Env): Promise<Server> {
  // Not app.listen: Express 5 calls its callback on errors too, hiding EADDRINUSE.
  return new Promise((resolve, reject) => {
    const candidate = createServer(app);
    candidate.once("error", reject);
    candidate.listen(env.PORT, env.HOST, () => resolve(candidate));
  });
}

/**
 * What a signal does: finish the open requests, then stop the background and exit; the first
 * signal counts, later ones are ignored.
 */
function shutdownGracefully(
  server: Server,
  metricsServer: Server | undefined,
  background: Background,
) {
  let stopping = false;
  return (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing open requests");
    const force = setTimeout(() => {
      logger.warn("requests still open after 10 s, closing anyway");
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    // A step of the clean-up that never finishes (a database connection stuck after the
    // database went away) must not keep a stopping process alive for good: its supervisor would
    // wait for it, and a restart would not come.
    const giveUp = setTimeout(() => {
      logger.error("shutdown did not finish within 25 s; exiting anyway");
      process.exit(1);
    }, 25_000);
    giveUp.unref();
    // Every answer from now on closes its connection. Idle keep-alive connections are closed
    // only after a second: a load balancer may be sending a request down one at this very moment,
    // and would not retry it elsewhere if it is a POST; a busy one sends its next request within
    // the second and gets its answer. Hence net's close, not http's, which closes them at once.
    server.prependListener("request", (_req, res) => res.setHeader("Connection", "close"));
    setInterval(() => server.closeIdleConnections(), 1000).unref();
    metricsServer?.close();
    background.stopAlerts();
    net.Server.prototype.close.call(server, async () => {
      clearTimeout(force);
      await stopBackground(background);
      logger.info("stopped");
      process.exit(0);
    });
  };
}

main().catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE") {
    logger.fatal(`Port ${process.env.PORT ?? 3000} is already in use. Set PORT to another port.`);
  } else {
    logger.fatal(error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
