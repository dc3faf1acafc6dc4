/**
 * Catalogue pages look the same to every signed-out visitor (the cart lives in the browser), so
 * a CDN may keep them briefly and serve a stale copy while it refreshes (CDN-Cache-Control,
 * RFC 9213). Browsers must ask again every time (no-cache): a page kept from before signing
 * in would show the wrong user menu.
 */
export const PUBLIC_PAGE_CACHE = "public, no-cache";
export const PUBLIC_PAGE_CDN_CACHE = "public, max-age=60, stale-while-revalidate=300";

/** Posters drawn from a title change only when the title does. */
export const POSTER_CACHE = "public, max-age=86400, stale-while-revalidate=604800";

export function publicPageHeaders() {
  return {
    "Cache-Control": PUBLIC_PAGE_CACHE,
    "CDN-Cache-Control": PUBLIC_PAGE_CDN_CACHE,
    Vary: "Cookie",
  };
}

/** Pages that depend on the visitor (age gate, later the session) must not be shared. */
export function privatePageHeaders() {
  return { "Cache-Control": "private, no-cache", Vary: "Cookie" };
}

/** Reads a positive integer route or query value; anything else is `undefined`. */
export function positiveInt(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{1,9}$/.test(value)) return undefined;
  const number = Number(value);
  return number > 0 ? number : undefined;
}

/**
 * A WebP image the shop encoded itself (an upload's re-encoding, never the uploaded bytes, or a
 * drawn poster), sent so no browser reads it as anything else.
 */
export function webpImageResponse(bytes: Uint8Array<ArrayBuffer>, cacheControl: string) {
  return new Response(bytes, {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
    },
  });
}
