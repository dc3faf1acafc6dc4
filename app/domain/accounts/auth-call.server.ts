import { publicUrl } from "#app/lib/env.server.ts";
import { getAuth } from "#app/domain/accounts/auth.server.ts";
import { CLIENT_IP_HEADER } from "#app/lib/client-ip.ts";

export type AuthResult<T> = {
  ok: boolean;
  status: number;
  body: T & { message?: string; code?: string };
  /** Set-Cookie headers to pass on to the browser. */
  cookies: Headers;
};

const FORWARDED = ["cookie", "user-agent", "accept-language", CLIENT_IP_HEADER];

/**
 * Calls an auth endpoint the way the browser would, through the library's own HTTP handler, so
 * its rate limits, origin checks and cookie handling apply to our pages' forms as well.
 */
export async function callAuth<T = Record<string, unknown>>(
  request: Request,
  path: string,
  body: unknown,
): Promise<AuthResult<T>> {
  const base = publicUrl();
  const headers = new Headers({ "content-type": "application/json", origin: new URL(base).origin });
  for (const name of FORWARDED) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const response = await getAuth().handler(
    new Request(`${base}/api/auth${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
  const cookies = new Headers();
  for (const cookie of response.headers.getSetCookie()) cookies.append("Set-Cookie", cookie);
  const parsed = (await response.json().catch(() => ({}))) as AuthResult<T>["body"];
  return { ok: response.ok, status: response.status, body: parsed ?? {}, cookies };
}

const PASSWORD_CODES = new Set(["WEAK_PASSWORD", "PASSWORD_TOO_SHORT", "PASSWORD_TOO_LONG"]);

export function isPasswordProblem(result: AuthResult<unknown>): boolean {
  return PASSWORD_CODES.has(result.body.code ?? "");
}

export function problemMessage(result: AuthResult<unknown>, fallback: string): string {
  if (result.status === 429) return "Too many attempts. Please wait a minute and try again.";
  return result.body.message || fallback;
}

/** The reason the auth library's refusal is answered with: too many attempts, or not right. */
export function refusalOf(result: AuthResult<unknown>): "rate-limited" | "invalid" {
  return result.status === 429 ? "rate-limited" : "invalid";
}
