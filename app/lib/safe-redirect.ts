// A fixed stand-in origin: only the path part of the result is ever used.
const OURS = "http://shop.invalid";

/**
 * The one judge of return addresses (`redirectTo`, `returnTo`): the value is parsed the way a
 * browser would parse it against our own origin, and only a same-origin path comes back,
 * re-serialised by the URL parser (so tabs, line breaks and backslashes cannot survive to turn
 * it into `//elsewhere` in a `Location` header). Anything else gives `fallback`.
 */
export function safeLocalPath(
  value: unknown,
  fallback = "/",
  options: { refusePrefixes?: readonly string[] } = {},
): string {
  if (typeof value !== "string" || value.length > 2048 || !value.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(value, OURS);
  } catch {
    return fallback;
  }
  if (url.origin !== OURS) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/.//x" parses to the path "//x", which a browser reads as another host.
  if (!path.startsWith("/") || path.startsWith("//")) return fallback;
  if (options.refusePrefixes?.some((prefix) => url.pathname.startsWith(prefix))) return fallback;
  return path;
}
