import type { AddressInfo } from "node:net";
import http, { createServer, type Server } from "node:http";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPageCache, type PageCache } from "./page-cache.ts";

// The cache in front of a small app that renders like the shop does (compression outside, the
// renderer inside), over real HTTP.

const SESSION = "shop.session_token=abc.def";
let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

type Page = { status?: number; headers?: Record<string, string>; body: string; delayMs?: number };

async function start(cache: PageCache, pages: Record<string, (req: express.Request) => Page>) {
  const renders: string[] = [];
  const app = express();
  app.use(compression());
  app.use(cache.middleware);
  app.use(async (req, res) => {
    const page = pages[req.path];
    renders.push(req.originalUrl);
    if (!page) {
      res.status(404).end("missing");
      return;
    }
    const { status = 200, headers = {}, body, delayMs = 0 } = page(req);
    res.status(status);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    // Streamed in pieces, as React streams a page.
    res.write(body.slice(0, 10));
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    res.end(body.slice(10));
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, renders };
}

const PUBLIC = { "Cache-Control": "public, no-cache" };

/** Reads a response the way a browser would, reporting how it came. */
async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { response, cache: response.headers.get("X-Page-Cache"), body: await response.text() };
}

/** Waits until the page the cache is building has been kept (compression happens after it is sent). */
async function kept(cache: PageCache, entries: number) {
  // A minute without it is a hang, not a slow machine.
  const deadline = Date.now() + 60_000;
  while (cache.size < entries) {
    if (Date.now() > deadline) throw new Error(`cache holds ${cache.size}, expected ${entries}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("the page cache", () => {
  it("keeps a public page once and serves it in every encoding, with an ETag", async () => {
    const cache = createPageCache({ maxEntries: 10 });
    const body = `<html>${"catalogue ".repeat(2_000)}</html>`;
    const { base, renders } = await start(cache, { "/movies": () => ({ headers: PUBLIC, body }) });

    const first = await get(`${base}/movies?page=2`);
    expect(first.cache).toBe("miss");
    expect(first.body).toBe(body);
    await kept(cache, 1);

    for (const encoding of ["br", "gzip", "identity"]) {
      const raw = await new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>(
        (resolve, reject) => {
          const request = http.get(
            `${base}/movies?page=2`,
            { headers: { "Accept-Encoding": encoding } },
            (response) => {
              const chunks: Buffer[] = [];
              response.on("data", (chunk: Buffer) => chunks.push(chunk));
              response.on("end", () =>
                resolve({ headers: response.headers, bytes: Buffer.concat(chunks) }),
              );
            },
          );
          request.on("error", reject);
        },
      );
      expect(raw.headers["x-page-cache"]).toBe("hit");
      const decoded =
        encoding === "br"
          ? zlib.brotliDecompressSync(raw.bytes)
          : encoding === "gzip"
            ? zlib.gunzipSync(raw.bytes)
            : raw.bytes;
      expect(decoded.toString()).toBe(body);
      expect(raw.headers["content-encoding"]).toBe(encoding === "identity" ? undefined : encoding);
      expect(raw.headers["cache-control"]).toBe("public, no-cache");
      expect(raw.headers.vary).toBe("Accept-Encoding, Cookie");
    }
    expect(renders).toEqual(["/movies?page=2"]);

    const etag = (await get(`${base}/movies?page=2`)).response.headers.get("ETag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await fetch(`${base}/movies?page=2`, {
      headers: { "If-None-Match": etag! },
    });
    expect(revalidated.status).toBe(304);

    // Another address is another page.
    expect((await get(`${base}/movies?page=3`)).cache).toBe("miss");
  });

  it("never serves or keeps pages for someone signed in", async () => {
    const cache = createPageCache({ maxEntries: 10 });
    const { base, renders } = await start(cache, {
      "/movies": (req) => ({
        headers: PUBLIC,
        body: req.headers.cookie ? "<p>Hello, Ada</p>" : "<p>Sign in</p>",
      }),
    });
    // A signed-in visit first: nothing of it is kept.
    const signedIn = await get(`${base}/movies`, { Cookie: SESSION });
    expect(signedIn.body).toContain("Ada");
    expect(signedIn.cache).toBeNull();
    const visitor = await get(`${base}/movies`);
    expect(visitor.cache).toBe("miss");
    expect(visitor.body).not.toContain("Ada");
    await kept(cache, 1);
    // And once a page is kept, the signed-in visitor still gets their own.
    const again = await get(`${base}/movies`, { Cookie: `theme=dark; ${SESSION}` });
    expect(again.cache).toBeNull();
    expect(again.body).toContain("Ada");
    expect((await get(`${base}/movies`)).cache).toBe("hit");
    expect(renders).toHaveLength(3);
  });

  it("keeps only 200 answers marked public that set no cookie", async () => {
    const cache = createPageCache({ maxEntries: 10 });
    const { base, renders } = await start(cache, {
      "/private": () => ({ headers: { "Cache-Control": "private, no-cache" }, body: "mine" }),
      "/unmarked": () => ({ body: "no header" }),
      "/cookie": () => ({ headers: { ...PUBLIC, "Set-Cookie": "a=b" }, body: "sets a cookie" }),
      "/gone": () => ({ status: 410, headers: PUBLIC, body: "gone" }),
    });
    for (const page of ["/private", "/unmarked", "/cookie", "/gone", "/nowhere"]) {
      await get(`${base}${page}`);
      const second = await get(`${base}${page}`);
      expect(second.cache, page).not.toBe("hit");
    }
    expect(renders).toHaveLength(10);
    const posted = await fetch(`${base}/private`, { method: "POST" });
    expect(posted.headers.get("X-Page-Cache")).toBeNull();
  });

  it("keeps a page shared with one audience for that audience only, public pages for all", async () => {
    const GATE = "gate=yes";
    const cache = createPageCache({
      maxEntries: 10,
      audienceOf: async (req) => ((req.headers.cookie ?? "").includes(GATE) ? "past-gate" : ""),
    });
    const SHARED = { "Cache-Control": "private, no-cache", "X-Shared-With": "past-gate" };
    const { base, renders } = await start(cache, {
      "/adult": (req) =>
        (req.headers.cookie ?? "").includes(GATE)
          ? { headers: SHARED, body: "<p>the adult list</p>" }
          : { status: 302, headers: { Location: "/gate" }, body: "" },
      "/other-audience": () => ({
        headers: { ...SHARED, "X-Shared-With": "staff" },
        body: "<p>not for the gate</p>",
      }),
      "/movies": () => ({ headers: PUBLIC, body: "<p>the list</p>" }),
    });
    // Someone without the gate's cookie first: the gate answers, and that is not kept.
    const stranger = await fetch(`${base}/adult`, { redirect: "manual" });
    expect(stranger.status).toBe(302);
    const first = await get(`${base}/adult`, { Cookie: GATE });
    expect(first.cache).toBe("miss");
    await kept(cache, 2);
    const second = await get(`${base}/adult`, { Cookie: `theme=dark; ${GATE}` });
    expect(second.cache).toBe("hit");
    expect(second.body).toBe("<p>the adult list</p>");
    // Kept as it may be shared: private to anything outside the shop.
    expect(second.response.headers.get("Cache-Control")).toBe("private, no-cache");
    // Whatever was kept, a visitor without the cookie (or signed in) still gets the gate.
    const later = await fetch(`${base}/adult`, { redirect: "manual" });
    expect(later.status).toBe(302);
    expect(later.headers.get("X-Page-Cache")).not.toBe("hit");
    const signedIn = await get(`${base}/adult`, { Cookie: `${GATE}; ${SESSION}` });
    expect(signedIn.cache).toBeNull();
    // A page shared with another audience is not kept for this one.
    await get(`${base}/other-audience`, { Cookie: GATE });
    expect((await get(`${base}/other-audience`, { Cookie: GATE })).cache).not.toBe("hit");
    // A public page rendered for the audience is kept once, for everyone.
    await get(`${base}/movies`, { Cookie: GATE });
    await kept(cache, 4);
    expect((await get(`${base}/movies`)).cache).toBe("hit");
    expect((await get(`${base}/movies`, { Cookie: GATE })).cache).toBe("hit");
    expect(renders).toEqual([
      "/adult",
      "/adult",
      "/adult",
      "/adult",
      "/other-audience",
      "/other-audience",
      "/movies",
    ]);
  });

  it("drops every page when cleared, and never keeps one rendered from older data", async () => {
    const cache = createPageCache({ maxEntries: 10 });
    let version = 1;
    const { base, renders } = await start(cache, {
      "/title": () => ({ headers: PUBLIC, body: `<p>price v${version}</p>`, delayMs: 100 }),
    });
    await get(`${base}/title`);
    await kept(cache, 1);
    expect((await get(`${base}/title`)).body).toContain("v1");

    version = 2;
    cache.clear();
    expect((await get(`${base}/title`)).body).toContain("v2");
    await kept(cache, 1);

    // The catalogue changes while a page is being rendered from what was read before.
    cache.clear();
    const slow = get(`${base}/title?fresh`);
    await vi.waitFor(() => expect(renders).toContain("/title?fresh"), {
      timeout: 60_000,
      interval: 5,
    });
    cache.clear();
    version = 3;
    expect((await slow).body).toContain("v2");
    const next = await get(`${base}/title?fresh`);
    expect(next.cache).toBe("miss");
    expect(next.body).toContain("v3");
  });

  it("drops on a change of stock only the pages that show one of those titles, never images", async () => {
    const cache = createPageCache({ maxEntries: 10 });
    let stock = "In stock";
    const { base } = await start(cache, {
      "/movies/1": () => ({
        headers: PUBLIC,
        body: `<link rel="canonical" href="https://shop.test/movies/1"><p>${stock}</p>`,
      }),
      "/list": () => ({
        headers: PUBLIC,
        body: `<a href="/movies/2">Two</a><a href="/movies/1">One: ${stock}</a>`,
      }),
      "/other": () => ({ headers: PUBLIC, body: '<a href="/movies/10">Ten</a>' }),
      "/adult": () => ({ headers: PUBLIC, body: '<a href="/adult-movies/1">Adult one</a>' }),
      "/about": () => ({ headers: PUBLIC, body: "<p>About the shop</p>" }),
      // A drawn poster shows a title, but not its stock.
      "/posters/regular/1-320.webp": () => ({
        headers: { ...PUBLIC, "Content-Type": "image/webp" },
        body: "RIFF-of-movies-1",
      }),
      // Whose titles cannot be read: any change of stock may concern it.
      "/notes": () => ({
        headers: { ...PUBLIC, "Content-Type": "text/plain" },
        body: "about the shop",
      }),
    });
    const pages = [
      "/movies/1",
      "/list",
      "/other",
      "/adult",
      "/about",
      "/posters/regular/1-320.webp",
      "/notes",
    ];
    for (const pathname of pages) await get(`${base}${pathname}`);
    await kept(cache, pages.length);

    stock = "Only 2 left";
    cache.forget(["regular:1"]);
    const answers = Object.fromEntries(
      await Promise.all(pages.map(async (pathname) => [pathname, await get(`${base}${pathname}`)])),
    );
    expect(answers["/movies/1"].cache).toBe("miss");
    expect(answers["/movies/1"].body).toContain("Only 2 left");
    expect(answers["/list"].cache).toBe("miss");
    expect(answers["/list"].body).toContain("Only 2 left");
    expect(answers["/notes"].cache).toBe("miss");
    for (const pathname of ["/other", "/adult", "/about", "/posters/regular/1-320.webp"]) {
      expect(answers[pathname].cache, pathname).toBe("hit");
    }
  });

  it("never keeps a page showing a title whose stock changed while it was rendered", async () => {
    const cache = createPageCache({ maxEntries: 10 });
    let stock = "In stock";
    const { base, renders } = await start(cache, {
      "/movies/1": () => ({
        headers: PUBLIC,
        body: `<p>${stock}</p><a href="/movies/1">`,
        delayMs: 100,
      }),
      "/movies/2": () => ({ headers: PUBLIC, body: '<p>x</p><a href="/movies/2">', delayMs: 100 }),
    });
    const slow = Promise.all([get(`${base}/movies/1`), get(`${base}/movies/2`)]);
    // Both are being rendered (from the stock before the change) when the stock changes.
    await vi.waitFor(() => expect(renders).toHaveLength(2), { timeout: 60_000, interval: 5 });
    cache.forget(["regular:1"]);
    stock = "Out of stock";
    await slow;
    await kept(cache, 1);
    const again = await get(`${base}/movies/1`);
    expect(again.cache).toBe("miss");
    expect(again.body).toContain("Out of stock");
    expect((await get(`${base}/movies/2`)).cache).toBe("hit");
  });

  it("renders a page once for many visitors asking at the same moment", async () => {
    const cache = createPageCache({ maxEntries: 10 });
    const { base, renders } = await start(cache, {
      "/home": () => ({ headers: PUBLIC, body: "<p>home</p>", delayMs: 150 }),
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(`${base}/home`)));
    expect(answers.every((answer) => answer.body === "<p>home</p>")).toBe(true);
    expect(renders).toEqual(["/home"]);
    expect(answers.filter((answer) => answer.cache === "hit")).toHaveLength(19);
  });

  it("sends in full but does not keep a page while its compressions are full, and keeps it later", async () => {
    // No room at all for compressing: every page is a miss, sent whole and rendered each time.
    const full = createPageCache({ maxEntries: 10, compressing: { atOnce: 0, waiting: 0 } });
    const first = await start(full, {
      "/home": () => ({ headers: PUBLIC, body: "<p>home, in full</p>", delayMs: 50 }),
    });
    const answers = await Promise.all(Array.from({ length: 3 }, () => get(`${first.base}/home`)));
    expect(answers.map((answer) => answer.body)).toEqual(Array(3).fill("<p>home, in full</p>"));
    expect((await get(`${first.base}/home`, { "Accept-Encoding": "br" })).cache).toBe("miss");
    expect(full.size).toBe(0);
    await new Promise<void>((resolve) => server!.close(() => resolve()));

    // Room for one at a time, the line empty: pages asked one after another are all kept.
    const one = createPageCache({ maxEntries: 10, compressing: { atOnce: 1, waiting: 0 } });
    const second = await start(one, {
      "/movies": () => ({ headers: PUBLIC, body: "<p>list</p>".repeat(500) }),
    });
    for (let page = 1; page <= 3; page++) {
      await get(`${second.base}/movies?page=${page}`);
      await kept(one, page);
    }
    const brotli = await fetch(`${second.base}/movies?page=2`, {
      headers: { "Accept-Encoding": "br" },
    });
    expect(brotli.headers.get("X-Page-Cache")).toBe("hit");
    expect(brotli.headers.get("Content-Encoding")).toBe("br");
    expect(await brotli.text()).toBe("<p>list</p>".repeat(500));
  });

  it("holds no more pages than it is allowed", async () => {
    const cache = createPageCache({ maxEntries: 3 });
    const { base, renders } = await start(cache, {
      "/movies": () => ({ headers: PUBLIC, body: "<p>list</p>" }),
    });
    for (let page = 1; page <= 5; page++) {
      await get(`${base}/movies?page=${page}`);
      await kept(cache, Math.min(page, 3));
    }
    expect(cache.size).toBe(3);
    expect((await get(`${base}/movies?page=5`)).cache).toBe("hit");
    expect((await get(`${base}/movies?page=1`)).cache).toBe("miss");
    expect(renders).toHaveLength(6);
  });
});
