import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import pg from "pg";
import { SESSION_COOKIE_PATTERN } from "#app/domain/accounts/session.server.ts";
import { boundedWork } from "./bounded-work.ts";

/**
 * Rendered pages that look the same to every signed-out visitor, kept in this process.
 *
 * What may be kept is decided by the page itself: only a 200 answer to a GET without a session
 * cookie, marked `Cache-Control: public` by its route (publicPageHeaders) and setting no cookie.
 * Signed-in requests never read from or write to the cache, so a kept page cannot carry
 * anyone's name; the cart lives in the browser and forms are protected by the same-origin
 * check, not by tokens in the page.
 *
 * A page that is the same for every visitor of one kind, but not for everyone, is kept for that
 * kind only: `audienceOf` names the kind a request comes from ("" for anyone), and the page says
 * it may be shared with them with `X-Shared-With: <audience>` (staying private to anything
 * outside this process). That is how the adult catalogue is kept for visitors past the age gate
 * while a visitor without the gate's cookie still gets the gate.
 *
 * Kept pages are dropped when the catalogue changes (a database trigger notifies every process,
 * see drizzle/0011_page_cache.sql and watchCatalogue below) and after `ttlMs` at the latest, for
 * what depends on the clock (Coming Soon's dates).
 *
 * The body is stored once in gzip and brotli, so a hit costs no rendering and no compression.
 * The nonce in a kept page's Content-Security-Policy is the one it was rendered with: that is
 * safe because the page and its nonce are fixed together when it is rendered; nothing reflected
 * into a later request can learn a nonce it could still use (docs/decisions/004-page-cache.md).
 */

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

type Entry = {
  status: number;
  headers: [string, string][];
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  /**
   * The titles the page shows ("regular:12", "adult:7"), so a change of their stock drops it;
   * null when that cannot be read from the page (it is dropped by any stock change).
   */
  titles: Set<string> | null;
};

/**
 * Where a page names a title it shows: every card and link leads to the title's page
 * (`/movies/12`, `/adult-movies/7`, the title page's own canonical address), and JSON answers
 * (the search suggestions) carry its serial number.
 */
const TITLE_REFERENCE =
  /\/(movies|adult-movies)\/(\d+)(?![\w.-])|"(regSerialNo|adultSerialNo)":(\d+)/g;

/**
 * The titles whose stock a kept page shows, read from its HTML or JSON; none for an image, null
 * for anything else.
 */
export function titlesShownIn(body: string, contentType: string): Set<string> | null {
  // An image (a drawn poster) never shows stock: no change of stock concerns it.
  if (contentType.startsWith("image/")) return new Set();
  if (!/^(text\/html|application\/json)\b/.test(contentType)) return null;
  const titles = new Set<string>();
  for (const match of body.matchAll(TITLE_REFERENCE)) {
    const kind = match[1] === "movies" || match[3] === "regSerialNo" ? "regular" : "adult";
    titles.add(`${kind}:${match[2] ?? match[4]}`);
  }
  return titles;
}

/** Answers that turned out not to be shareable: later requests go straight to rendering. */
const UNCACHEABLE = Symbol("uncacheable");

/** The header by which a private page says which audience (see audienceOf) may share it. */
export const SHARED_WITH_HEADER = "X-Shared-With";

/** Headers that belong to one response, never to the stored page. */
const PER_RESPONSE_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "vary",
  "etag",
  "set-cookie",
  "x-request-id",
  "x-page-cache",
  SHARED_WITH_HEADER.toLowerCase(),
]);

/** A page bigger than this is served but not kept. */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;
/** How long a request waits for the same page being rendered by another request. */
const COALESCE_WAIT_MS = 5_000;

export type PageCacheOptions = {
  /** How many pages to keep (0 turns the cache off). */
  maxEntries: number;
  /** Upper bound on the bytes kept (each page counts its plain, gzip and brotli copies). */
  maxBytes?: number;
  /** The longest a page is kept, whatever happens. */
  ttlMs?: number;
  /**
   * The kind of visitor a request comes from, for pages shared only within it ("" for anyone).
   * Public pages are still shared with everyone.
   */
  audienceOf?: (req: Request) => string | Promise<string>;
  /**
   * Pages compressed for keeping at once, and pages waiting their turn; a page rendered while
   * that many wait is sent but not kept (the next request renders it again). Each compression
   * holds megabytes until it is done, and on a busy machine a burst of misses (a cleared cache,
   * a crawler) would otherwise pile them up: 540 at once, 2 GB, were seen in a soak.
   */
  compressing?: { atOnce: number; waiting: number };
};

export type PageCache = {
  middleware: RequestHandler;
  /** Forgets every kept page, and any page still being rendered from older data. */
  clear: () => void;
  /**
   * Forgets the pages that show any of these titles ("regular:12"), or whose titles are not
   * known, and any such page still being rendered from older data. Others stay kept.
   */
  forget: (titles: string[]) => void;
  readonly size: number;
};

/** What one page cache holds, shared by its middleware and by clear() and forget(). */
type CacheState = {
  entries: LRUCache<string, Entry | typeof UNCACHEABLE>;
  /** Bumped by every clear(): a render that started before it must not be kept. */
  generation: number;
  /** Bumped by every forget(); when each title was last forgotten (since the last clear). */
  stockGeneration: number;
  forgotten: Map<string, number>;
  /** Pages being rendered now, so that concurrent requests for the same page wait for it. */
  rendering: Map<string, Promise<void>>;
  compressing: ReturnType<typeof boundedWork>;
};

export function createPageCache(options: PageCacheOptions): PageCache {
  const state: CacheState = {
    entries: new LRUCache<string, Entry | typeof UNCACHEABLE>({
      max: Math.max(1, options.maxEntries),
      maxSize: options.maxBytes ?? 128 * 1024 * 1024,
      sizeCalculation: (entry) =>
        entry === UNCACHEABLE ? 1 : entry.identity.length + entry.gzip.length + entry.br.length,
      ttl: options.ttlMs ?? 60_000,
    }),
    generation: 0,
    stockGeneration: 0,
    forgotten: new Map(),
    rendering: new Map(),
    compressing: boundedWork(options.compressing ?? { atOnce: 2, waiting: 32 }),
  };

  const middleware: RequestHandler = (req, res, next) => {
    if (
      (req.method !== "GET" && req.method !== "HEAD") ||
      SESSION_COOKIE_PATTERN.test(req.headers.cookie ?? "")
    ) {
      next();
      return;
    }
    const audience = options.audienceOf?.(req) ?? "";
    if (typeof audience === "string") consult(state, req, res, next, audience);
    else
      audience.then(
        (found) => consult(state, req, res, next, found),
        () => next(),
      );
  };

  return {
    middleware,
    clear() {
      state.generation++;
      state.entries.clear();
      state.forgotten = new Map();
    },
    forget(titles) {
      forgetTitles(state, titles);
    },
    get size() {
      return state.entries.size;
    },
  };
}

/** Drops the kept pages that show any of these titles, or whose titles are not known. */
function forgetTitles(state: CacheState, titles: string[]) {
  state.stockGeneration++;
  for (const title of titles) state.forgotten.set(title, state.stockGeneration);
  const stale: string[] = [];
  for (const [key, entry] of state.entries.entries()) {
    if (entry === UNCACHEABLE) continue;
    const shown = entry.titles;
    if (shown === null || titles.some((title) => shown.has(title))) stale.push(key);
  }
  for (const key of stale) state.entries.delete(key);
}

/** Whether a title the page shows was forgotten after stock generation `since`. */
function forgottenSince(state: CacheState, entry: Entry, since: number) {
  return entry.titles === null
    ? state.stockGeneration > since
    : [...entry.titles].some((title) => (state.forgotten.get(title) ?? 0) > since);
}

/**
 * Answers from a kept page, or renders the page; a request for a page another request is
 * rendering waits for it first.
 */
function consult(
  state: CacheState,
  req: Request,
  res: Response,
  next: NextFunction,
  audience: string,
) {
  const url = req.originalUrl;
  const key = keyOf(url, audience);
  const lookup = () => {
    // A public page is the same for everyone; otherwise what was kept for this audience.
    const shared = state.entries.get(url);
    const entry =
      audience && (shared === undefined || shared === UNCACHEABLE)
        ? state.entries.get(key)
        : shared;
    if (entry === UNCACHEABLE) {
      next();
      return;
    }
    if (entry) {
      serve(req, res, entry);
      return;
    }
    // HEAD answers carry no body to keep; they are answered from a kept GET when there is one.
    if (req.method === "HEAD") {
      next();
      return;
    }
    renderAndKeep(state, req, res, next, url, audience);
  };
  const pending = state.rendering.get(key);
  if (!pending) {
    lookup();
    return;
  }
  let waited = false;
  const timer = setTimeout(() => {
    waited = true;
    next();
  }, COALESCE_WAIT_MS);
  void pending.then(() => {
    if (waited) return;
    clearTimeout(timer);
    // Whatever the first request found, this one looks again (and renders if nothing was kept).
    if (state.rendering.get(key)) next();
    else lookup();
  });
}

function serve(req: Request, res: Response, entry: Entry) {
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  res.setHeader("ETag", entry.etag);
  res.setHeader("X-Page-Cache", "hit");
  if (req.headers["if-none-match"] === entry.etag) {
    res.status(304).end();
    return;
  }
  const encoding = req.acceptsEncodings("br", "gzip", "identity");
  const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.identity;
  if (encoding === "br" || encoding === "gzip") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.status(entry.status);
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * Renders the page through the rest of the app, keeping a copy of what it sends: under the
 * plain address when it is public, under the audience's key when it is shared with them.
 */
function renderAndKeep(
  state: CacheState,
  req: Request,
  res: Response,
  next: NextFunction,
  url: string,
  audience: string,
) {
  const key = keyOf(url, audience);
  const startedIn = state.generation;
  const stockStartedIn = state.stockGeneration;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  state.rendering.set(key, finished);
  const settle = () => {
    if (state.rendering.get(key) === finished) state.rendering.delete(key);
    done();
  };
  const sent = copyWhatIsSent(res);
  res.setHeader("X-Page-Cache", "miss");

  res.on("close", () => {
    const keepAs = keptUnder(res, sent.tooBig, url, key, audience);
    if (keepAs === undefined) {
      if (res.writableFinished) state.entries.set(key, UNCACHEABLE);
      settle();
      return;
    }
    const storing = state.compressing.run(() => store(res, sent.chunks));
    if (!storing) {
      settle();
      return;
    }
    storing
      .then((entry) => {
        if (state.generation === startedIn && !forgottenSince(state, entry, stockStartedIn)) {
          state.entries.set(keepAs, entry);
        }
      })
      .catch(() => {})
      .finally(settle);
  });
  next();
}

/**
 * Makes the response keep a copy of each chunk it writes, up to MAX_PAGE_BYTES; past that the
 * copy is given up and `tooBig` says so.
 */
function copyWhatIsSent(res: Response) {
  const sent = { chunks: [] as Buffer[], bytes: 0, tooBig: false };
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function" || sent.tooBig) return;
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.from(
            String(chunk),
            Buffer.isEncoding(String(encoding)) ? (encoding as BufferEncoding) : "utf8",
          );
    sent.bytes += buffer.length;
    if (sent.bytes > MAX_PAGE_BYTES) sent.tooBig = true;
    else sent.chunks.push(Buffer.from(buffer));
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response["write"];
  res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
  } as Response["end"];
  return sent;
}

/**
 * Where a finished answer is kept: under its address when it is public, under the audience's
 * key when it is shared with them; undefined when it must not be kept.
 */
function keptUnder(
  res: Response,
  tooBig: boolean,
  url: string,
  key: string,
  audience: string,
): string | undefined {
  const keepable =
    res.writableFinished && res.statusCode === 200 && !res.getHeader("Set-Cookie") && !tooBig;
  return !keepable
    ? undefined
    : /\bpublic\b/.test(String(res.getHeader("Cache-Control") ?? ""))
      ? url
      : audience && res.getHeader(SHARED_WITH_HEADER) === audience
        ? key
        : undefined;
}

/** The page as it is kept: its headers, its body in every encoding, its ETag and its titles. */
async function store(res: Response, chunks: Buffer[]): Promise<Entry> {
  const identity = Buffer.concat(chunks);
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (PER_RESPONSE_HEADERS.has(name) || value === undefined) continue;
    headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
  }
  const [gzipped, brotlied] = await Promise.all([
    gzip(identity, { level: 9 }),
    brotli(identity, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        // A window no larger than the page: the same output, a fraction of the encoder's memory.
        [zlib.constants.BROTLI_PARAM_LGWIN]: Math.min(
          zlib.constants.BROTLI_MAX_WINDOW_BITS,
          Math.max(
            zlib.constants.BROTLI_MIN_WINDOW_BITS,
            Math.ceil(Math.log2(identity.length + 1)),
          ),
        ),
      },
    }),
  ]);
  const etag = `"${createHash("sha1").update(identity).digest("base64url")}"`;
  const titles = titlesShownIn(identity.toString(), String(res.getHeader("Content-Type") ?? ""));
  return { status: res.statusCode, headers, identity, gzip: gzipped, br: brotlied, etag, titles };
}

/** Where a page kept for an audience is found ("" is anyone: the address alone). */
function keyOf(url: string, audience: string) {
  return audience ? `${audience} ${url}` : url;
}

export type CatalogueWatch = { stop: () => Promise<void> };

/** How often the catalogue watch reads the catalogue's version, for a change it did not hear. */
export const CATALOGUE_CHECK_MS = 5_000;

/**
 * Listens for the database's `catalogue_changed` notifications and clears the cache on each:
 * `onChange()` for a change that may show anywhere, `onChange(titles)` for a change of stock
 * alone that shows only on those titles' pages ("<version> regular:12,13", migration 0019).
 * The listening connection also reads the catalogue's version every `checkEveryMs`: a change
 * the connection missed (it was down, or the notification was lost with it) still clears the
 * cache, and a dead connection is noticed and replaced. `onListening` is called each time the
 * connection listens (again): from then on no change goes unnoticed.
 */
export function watchCatalogue(
  connectionString: string,
  onChange: (titles?: string[]) => void,
  log: { warn: (details: object, message: string) => void },
  checkEveryMs = CATALOGUE_CHECK_MS,
  onListening?: () => void,
): CatalogueWatch {
  let client: pg.Client | undefined;
  let version: string | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const readVersion = async (connection: pg.Client) => {
    const { rows } = await connection.query<{ version: string }>(
      "select (case when is_called then last_value else 0 end)::text as version from catalogue_version",
    );
    const current = rows[0]?.version;
    if (version !== undefined && current !== version) onChange();
    version = current;
  };

  const connect = async () => {
    if (stopped) return;
    // Bounded like the shop's pool: a database that stops answering must not leave the check,
    // or the shutdown waiting on it, hanging; a failed check reconnects.
    const connection = new pg.Client({
      connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
    });
    connection.on("error", () => {});
    connection.on("end", () => {
      if (client !== connection || stopped) return;
      client = undefined;
      // Anything could have changed while nobody was listening.
      onChange();
      schedule(1_000);
    });
    try {
      await connection.connect();
      connection.on("notification", (message) => {
        if (message.channel !== "catalogue_changed") return;
        const [next, stockOf] = (message.payload ?? "").split(" ");
        version = next || version;
        const [kind, serials] = stockOf?.split(":") ?? [];
        if (kind && serials) onChange(serials.split(",").map((serial) => `${kind}:${serial}`));
        else onChange();
      });
      await connection.query("listen catalogue_changed");
      client = connection;
      await readVersion(connection);
      onListening?.();
      schedule(checkEveryMs);
    } catch (error) {
      log.warn({ err: error }, "page cache: cannot listen for catalogue changes, retrying");
      await connection.end().catch(() => {});
      onChange();
      schedule(1_000);
    }
  };

  const check = async () => {
    if (stopped) return;
    if (!client) {
      await connect();
      return;
    }
    try {
      await readVersion(client);
      schedule(checkEveryMs);
    } catch {
      const dead = client;
      client = undefined;
      onChange();
      await dead.end().catch(() => {});
      await connect();
    }
  };

  function schedule(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void check(), ms);
    timer.unref();
  }

  const started = connect();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await started;
      await client?.end().catch(() => {});
    },
  };
}
