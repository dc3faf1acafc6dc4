import { randomBytes } from "node:crypto";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { hasSessionCookie } from "#app/domain/accounts/session.server.ts";
import { dropModulePreloads } from "#app/lib/drop-module-preloads.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { isDatabaseUnavailable } from "#app/db/unavailable.server.ts";

export const streamTimeout = 5_000;

/**
 * Documents that may compile WebAssembly: the counter's camera reads barcodes with ZXing compiled
 * to WebAssembly (from the shop's own /assets) in browsers without a BarcodeDetector of their
 * own, which the policy refuses unless it says 'wasm-unsafe-eval' (it allows no eval of scripts).
 * A page keeps the policy of the document it was loaded as, and the counter is reached without
 * loading another from the back office (whose frame it shares) and from the sign-in pages, which
 * land there; the storefront's link to the back office loads the back office anew.
 */
const COMPILES_WASM = new Set([
  "counter-frame",
  "routes/admin",
  "routes/login",
  "routes/login.two-factor",
]);

/**
 * The page's Content-Security-Policy: scripts only from the shop, or inline with this
 * response's nonce (React Router's hydration data). Inline style attributes stay allowed for
 * the component library. Vite's development server needs its own scripts, so hot-reload
 * development runs without it.
 */
function contentSecurityPolicy(nonce: string, wasm: boolean) {
  // With address autocomplete on, the checkout page loads Google's Maps script, which loads
  // more of itself and its images from Google's hosts.
  const env = getEnv();
  const maps = env.GOOGLE_MAPS_API_KEY
    ? ` ${new URL(env.GOOGLE_MAPS_SCRIPT_URL).origin} https://maps.googleapis.com https://maps.gstatic.com`
    : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${wasm ? " 'wasm-unsafe-eval'" : ""}${maps}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${maps}`,
    "font-src 'self'",
    `connect-src 'self'${maps}`,
    "frame-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * Pages may say they can be shared by caches (catalogue pages for visitors), but never a page
 * rendered for someone signed in: the user menu in it is theirs.
 */
function keepPersonalPagesPrivate(request: Request, headers: Headers) {
  if (!hasSessionCookie(request)) return;
  if (/\bpublic\b|s-maxage/.test(headers.get("Cache-Control") ?? "")) {
    headers.set("Cache-Control", "private, no-cache");
    headers.delete("CDN-Cache-Control");
    headers.set("Vary", "Cookie");
  }
}

/**
 * Every error a loader, action or render threw. One by which the database was away is not a
 * bug: the root's middleware answers 503 for it and logs it as one line.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted || isDatabaseUnavailable(error)) return;
  console.error(error);
};

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  keepPersonalPagesPrivate(request, response.headers);
  return response;
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  keepPersonalPagesPrivate(request, responseHeaders);
  const nonce = randomBytes(16).toString("base64");
  if (process.env.NODE_ENV === "production") {
    const wasm = routerContext.staticHandlerContext.matches.some((match) =>
      COMPILES_WASM.has(match.route.id),
    );
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, wasm));
  }
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole page at once.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          // React writes straight into the filter (no pass-through or pipeline between: each
          // costs per chunk and per page); an error in the render destroys it, and with it the
          // response.
          const html = dropModulePreloads();
          html.once("finish", () => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(html);
          resolve(
            new Response(createReadableStreamFromReadable(html), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
