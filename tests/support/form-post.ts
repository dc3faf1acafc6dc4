// Form posts to a shop as its own pages send them, for the server tests that drive a running
// shop over HTTP: same origin, urlencoded, redirects not followed.

/** Posts `body` to `origin` + `pathname`; `headers` adds to (or replaces) the defaults. */
export function postForm(
  origin: string,
  pathname: string,
  body: Record<string, string> | string,
  headers: Record<string, string> = {},
) {
  return fetch(`${origin}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, ...headers },
    body: typeof body === "string" ? body : new URLSearchParams(body).toString(),
  });
}

/** The Cookie header for `cookie`, or none. */
export function withCookie(cookie: string): Record<string, string> {
  return cookie ? { Cookie: cookie } : {};
}

/**
 * A client address of its own for each call (`prefix`.x.y, made up: no real client is asked),
 * so that per-address limits never carry over from one request to the next.
 */
export function clientAddresses(prefix = "198.51") {
  let count = 0;
  return () => {
    count += 1;
    return `${prefix}.${Math.floor(count / 250) % 250}.${(count % 250) + 1}`;
  };
}
