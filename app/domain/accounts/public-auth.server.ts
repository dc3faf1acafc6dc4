import { getAuth } from "./auth.server.ts";

/**
 * The auth library's endpoints as the outside world reaches them. A session token is the
 * session itself, so it lives only in the HttpOnly cookie: no answer gives it to a script on
 * the page (sign-in and get-session bodies carry it; listing sessions is turned off in the
 * library's options), so an injected script could not carry a session away. The shop's own
 * forms call the library in-process (`callAuth`) and never read tokens from bodies either.
 */
export async function publicAuthHandler(request: Request): Promise<Response> {
  const response = await getAuth().handler(request);
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(withoutTokens(body)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "token")
      .map(([key, inner]) => [key, withoutTokens(inner)]),
  );
}
