import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { LRUCache } from "lru-cache";
import client from "prom-client";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { getPool } from "#app/db/client.server.ts";
import { MAIL_QUEUE } from "#app/domain/mail/outbox.server.ts";
import { ORDER_STATUSES } from "#app/domain/orders/status.ts";
import { logger, requestContext } from "./logger.ts";

/** pg-boss's job states. */
const MAIL_STATES = ["created", "retry", "active", "completed", "cancelled", "failed"];

/** An id a load balancer or client may pass in: short and plain, or we make our own. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Gives every request an id, sends it back as X-Request-Id and puts it on every log line. */
export const requestIds: RequestHandler = (req, res, next) => {
  const incoming = req.headers["x-request-id"];
  const requestId =
    typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", requestId);
  requestContext.run({ requestId }, next);
};

/**
 * Path segments that look like tokens (a password-reset link carries one in its path) are not
 * written to the logs; query strings never are.
 */
export function loggablePath(path: string): string {
  return path.replace(/\/[A-Za-z0-9_-]{24,}(?=\/|$)/g, "/[redacted]");
}

type RouteTree = RouteObject[];

/** The app's routes as a tree, to name a request by its route's pattern (`/movies/:id`). */
function routeTree(build: ServerBuild): RouteTree {
  const nodes = new Map<string, RouteObject & { children: RouteObject[] }>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    nodes.set(route.id, {
      id: route.id,
      path: route.path,
      index: route.index as false | undefined,
      caseSensitive: route.caseSensitive,
      children: [],
    });
  }
  const roots: RouteObject[] = [];
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

export function routeTemplate(routes: RouteTree, pathname: string): string {
  // React Router's data requests name the page they load: /movies.data, /_root.data for "/".
  const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
  const matches = matchRoutes(routes, page);
  if (!matches) return "(unmatched)";
  const pattern = matches
    .map((match) => match.route.path)
    .filter((path): path is string => Boolean(path))
    .join("/");
  return `/${pattern}`.replace(/\/+/g, "/");
}

export type Observability = {
  /** Times, counts and logs every request that reaches it (static files are answered before). */
  accessLog: RequestHandler;
  /** GET /metrics, behind METRICS_TOKEN; 404 when the token is not set. */
  metricsEndpoint: RequestHandler;
  /** Starts the metrics-only listener on METRICS_PORT, when set. */
  listenForMetrics: (host: string, port: number) => Promise<Server>;
};

export function createObservability(options: {
  build: ServerBuild | undefined;
  metricsToken: string | undefined;
}): Observability {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const answers = answerMetrics(registry);
  countPoolConnections(registry);
  reportShopFigures(registry);
  const templateOf = rememberedTemplates(options.build ? routeTree(options.build) : []);

  const accessLog: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = templateOf(req.path);
      answers.duration.observe({ route, method: req.method }, seconds);
      answers.responses.inc({ status: String(res.statusCode), method: req.method });
      const cached = res.getHeader("X-Page-Cache");
      if (cached === "hit" || cached === "miss") answers.pageCache.inc({ result: cached });
      logger.info(
        {
          method: req.method,
          path: loggablePath(req.path),
          route,
          status: res.statusCode,
          ms: Math.round(seconds * 10_000) / 10,
        },
        "request",
      );
    });
    next();
  };

  return {
    accessLog,
    metricsEndpoint: metricsEndpoint(registry, options.metricsToken),
    listenForMetrics: (host, port) => listenForMetrics(registry, host, port),
  };
}

/** How long answers take, how many there are of each status, and what the page cache did. */
function answerMetrics(registry: client.Registry) {
  const duration = new client.Histogram({
    name: "shop_http_request_duration_seconds",
    help: "Time to answer a request, by route pattern and method.",
    labelNames: ["route", "method"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const responses = new client.Counter({
    name: "shop_http_responses_total",
    help: "Answers, by status code and method.",
    labelNames: ["status", "method"],
    registers: [registry],
  });
  const pageCache = new client.Counter({
    name: "shop_page_cache_requests_total",
    help: "Requests the page cache answered (hit) or rendered and offered to keep (miss).",
    labelNames: ["result"],
    registers: [registry],
  });
  return { duration, responses, pageCache };
}

function countPoolConnections(registry: client.Registry) {
  new client.Gauge({
    name: "shop_db_pool_connections",
    help: "This process's PostgreSQL pool: connections open, idle, and requests waiting for one.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const pool = getPool();
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    },
  });
}

type Figures = {
  mail: { state: string; count: number }[];
  orders: { status: string; count: number }[];
  bookings: { status: string; count: number }[];
};

/**
 * Shop-wide figures come from the database, so every process reports the same numbers; they
 * are read at most every few seconds however often Prometheus asks.
 */
function reportShopFigures(registry: client.Registry) {
  let figures: { at: number; value: Promise<Figures> } | undefined;
  const readFigures = () => {
    if (!figures || Date.now() - figures.at > 5_000) {
      const value = queryFigures();
      figures = { at: Date.now(), value };
      value.catch(() => (figures = undefined));
    }
    return figures.value;
  };
  new client.Gauge({
    name: "shop_mail_jobs",
    help: "E-mails in the queue by state (created and retry: waiting; failed: given up).",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const state of MAIL_STATES) this.set({ state }, 0);
      for (const row of (await readFigures()).mail) this.set({ state: row.state }, row.count);
    },
  });
  new client.Gauge({
    name: "shop_orders",
    help: "Orders by status (every order placed is counted once, under its current status).",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const status of ORDER_STATUSES) this.set({ status }, 0);
      for (const row of (await readFigures()).orders) this.set({ status: row.status }, row.count);
    },
  });
  new client.Gauge({
    name: "shop_repair_bookings",
    help: "Repair appointments booked, and those cancelled.",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const status of ["booked", "cancelled"]) this.set({ status }, 0);
      for (const row of (await readFigures()).bookings) {
        this.set({ status: row.status }, row.count);
      }
    },
  });
}

function queryFigures(): Promise<Figures> {
  const pool = getPool();
  return Promise.all([
    pool.query<{ state: string; count: number }>(
      "select state::text, count(*)::int as count from pgboss.job where name = $1 group by state",
      [MAIL_QUEUE],
    ),
    pool.query<{ status: string; count: number }>(
      "select status, count(*)::int as count from orders group by status",
    ),
    pool.query<{ status: string; count: number }>(
      `select case when cancelled_at is not null then 'cancelled'
                   when confirmed_at is null then 'unconfirmed'
                   else 'booked' end as status,
              count(*)::int as count
         from service_requests group by 1`,
    ),
  ]).then(([mail, orders, bookings]) => ({
    mail: mail.rows,
    orders: orders.rows,
    bookings: bookings.rows,
  }));
}

/**
 * A request's route pattern. Matching a path against every route costs more than answering a
 * kept page: remember the answer for the paths seen lately.
 */
function rememberedTemplates(routes: RouteTree) {
  const templates = new LRUCache<string, string>({ max: 5_000 });
  return (pathname: string) => {
    let template = templates.get(pathname);
    if (template === undefined) {
      template = routeTemplate(routes, pathname);
      templates.set(pathname, template);
    }
    return template;
  };
}

async function serveMetrics(registry: client.Registry, res: ServerResponse) {
  try {
    const body = await registry.metrics();
    res.setHeader("Content-Type", registry.contentType);
    res.setHeader("Cache-Control", "no-store");
    res.end(body);
  } catch (error) {
    logger.warn({ err: error }, "metrics could not be collected");
    res.statusCode = 503;
    res.end();
  }
}

function metricsEndpoint(
  registry: client.Registry,
  metricsToken: string | undefined,
): RequestHandler {
  const expected = metricsToken
    ? createHash("sha256").update(`Bearer ${metricsToken}`).digest()
    : undefined;
  return (req, res, next) => {
    if (!expected) {
      next();
      return;
    }
    const given = createHash("sha256")
      .update(req.headers.authorization ?? "")
      .digest();
    if (!timingSafeEqual(given, expected)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      res.status(401).json({ error: "A valid metrics token is required." });
      return;
    }
    void serveMetrics(registry, res);
  };
}

function listenForMetrics(registry: client.Registry, host: string, port: number) {
  return new Promise<Server>((resolve, reject) => {
    const server = createServer((req, res) => {
      if (req.method === "GET" && req.url?.split("?")[0] === "/metrics") {
        void serveMetrics(registry, res);
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
